import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLocalProvider } from "../../src/http/pages/landing.js";
import { startPagesApp } from "../browser/app.js";
import type { Listening } from "../helpers/listen.js";

let srv: Listening & { metrics: import("../../src/metrics.js").Metrics };
beforeAll(async () => {
  srv = await startPagesApp();
});
afterAll(() => srv.close());

const get = (path: string) => fetch(srv.url + path, { redirect: "manual" });
const page = async (path: string, status = 200) => {
  const res = await get(path);
  expect(res.status, path).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  return { res, html: await res.text() };
};

describe("the reader", () => {
  it("when John 3:16 is asked for, then the chapter renders with verse 16 highlighted and nothing else", async () => {
    const { html } = await page("/read/JHN/3?verse=16");
    expect(html).toContain("<h1>John 3</h1>");
    expect(html).toMatch(/<span class="verse hl" id="v16" data-highlight=""><a class="vn" href="\/read\/JHN\/3\?verse=16">16<\/a>\u00a0For God so loved the world/);
    expect(html.match(/class="verse hl"/g)).toHaveLength(1);
    expect(html).toContain('id="v36"');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>John 3:16 · World English Bible</title>');
  });

  it("when a range is asked for, then every verse of it is highlighted", async () => {
    const { html } = await page("/read/ROM/8?verse=28-30");
    const highlighted = [...html.matchAll(/class="verse hl" id="v(\d+)"/g)].map((m) => Number(m[1]));
    expect(highlighted).toEqual([28, 29, 30]);
  });

  it("when another translation is chosen, then its text, names and language show and links keep it", async () => {
    const kjv = await page("/read/JHN/3?verse=16&bible_id=eng-kjv");
    expect(kjv.html).toContain("only begotten Son");
    expect(kjv.html).toContain('<summary><span class="sr-only">Translation: </span>KJV</summary>');
    expect(kjv.html).toContain('<a href="/read/JHN/3?verse=16&#38;bible_id=eng-kjv" lang="en" aria-current="page">King James Version</a>');
    expect(kjv.html).toContain('<a href="/read/JHN/3?verse=16" lang="en">World English Bible</a>');
    expect(kjv.html).toContain('href="/read/JHN/4?bible_id=eng-kjv"');
    const rv = await page("/read/JHN/3?bible_id=spa-rv1909");
    expect(rv.html).toContain('<html lang="es">');
    expect(rv.html).toContain("<h1>Juan 3</h1>");
    expect(rv.html).toMatch(/de tal manera amó Dios al mundo/);
    expect(rv.html).toContain('<span class="sr-only">Traducción: </span>RV1909</summary>');
    expect(rv.html).toContain("<summary>Capítulos de Juan</summary>");
    expect(rv.html).toContain('<a rel="next" class="next" href="/read/JHN/4?bible_id=spa-rv1909">Juan 4 ›</a>');
    expect(rv.html).toContain('aria-label="Capítulo siguiente: Juan 4">›</a>');
  });

  it("when a psalm has a superscription, then it is shown above the verses", async () => {
    const { html } = await page("/read/PSA/51");
    expect(html).toMatch(/<p class="superscription">[^<]*David[^<]*<\/p>/);
    const plain = await page("/read/JHN/1");
    expect(plain.html).not.toContain('class="superscription"');
  });

  it("when moving between chapters, then prev and next cross book boundaries and stop at the ends", async () => {
    const mal = await page("/read/MAL/4");
    expect(mal.html).toContain('<a rel="next" class="next" href="/read/MAT/1">Matthew 1 ›</a>');
    const mat = await page("/read/MAT/1");
    expect(mat.html).toContain('<a rel="prev" class="prev" href="/read/MAL/4">‹ Malachi 4</a>');
    expect((await page("/read/GEN/1")).html).not.toContain('rel="prev"');
    expect((await page("/read/REV/22")).html).not.toContain('rel="next"');
    expect(mat.html).toContain('<a href="/read/REV/1">Revelation</a>');
    expect(mat.html.match(/class="chapter-list"[\s\S]*?<\/ul>/)?.[0].match(/<li>/g)).toHaveLength(28);
  });

  it("when the book id is not canonical, then it redirects to the canonical address keeping the query", async () => {
    for (const [from, to] of [
      ["/read/jhn/3?verse=16", "/read/JHN/3?verse=16"],
      ["/read/John/3?verse=16&bible_id=eng-kjv", "/read/JHN/3?verse=16&bible_id=eng-kjv"],
      ["/read/1%20Cor/13", "/read/1CO/13"],
      ["/read/jhn", "/read/JHN/1"],
    ] as const) {
      const res = await get(from);
      expect([301, 302], from).toContain(res.status);
      expect(res.headers.get("location")).toBe(to);
    }
  });

  it("when the book, chapter, verse or translation does not exist, then a friendly HTML 404", async () => {
    const cases: [string, RegExp][] = [
      ["/read/XYZ/1", /no book called “XYZ”/],
      ["/read/JHN/22", /John has no chapter 22 \(it has 21\)/],
      ["/read/JHN/0", /no chapter 0/],
      ["/read/JHN/3?verse=37", /no verse 37 \(it has 36\)/],
      ["/read/JHN/3?verse=abc", /no verse abc/],
      ["/read/JHN/3?verse=18-16", /no verse 18-16/],
      ["/read/JHN/3?bible_id=eng-niv", /no translation “eng-niv”/],
      ["/read/JHN/3/16", /does not exist/],
    ];
    for (const [path, message] of cases) {
      const { html } = await page(path, 404);
      expect(html, path).toMatch(message);
      expect(html).toContain('href="/read/GEN/1"');
    }
  });

  it("when the address carries markup, then it is escaped on the page", async () => {
    const { html } = await page("/read/%3Cscript%3Ealert(1)%3C%2Fscript%3E/1", 404);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&#60;script&#62;alert(1)");
  });

  it("when a page is served, then a strict CSP forbids inline script and the page has none", async () => {
    for (const path of ["/", "/read/JHN/3?verse=16", "/lab", "/read/XYZ/1"]) {
      const res = await get(path);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      const html = await res.text();
      expect((html.match(/<script\b[^>]*>/g) ?? []).every((tag) => / src="\/assets\/[\w.-]+\?v=[0-9a-f]{10}"/.test(tag))).toBe(true);
      expect(html).not.toMatch(/ on[a-z]+=/);
    }
  });

  it("when an asset is fetched by its versioned URL, then it is cacheable for a year", async () => {
    const { html } = await page("/read/GEN/1");
    const css = html.match(/href="(\/assets\/site\.css\?v=[0-9a-f]+)"/)?.[1];
    expect(css).toBeDefined();
    const res = await get(css!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/css/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const js = await get("/assets/reader.js");
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(js.headers.get("cache-control")).toBe("public, max-age=300");
    expect((await get("/assets/nope.js")).status).toBe(404);
    const metrics = await srv.metrics.registry.metrics();
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/assets\/\*",status="200"\} [1-9]/);
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/read\/:book_id\/:chapter",status="200"\} [1-9]/);
  });
});

describe("the reader's header and text layout", () => {
  it("when a chapter opens, then the header carries previous, the reference, next and the translation switch", async () => {
    const { html } = await page("/read/JHN/3?verse=16");
    const header = html.match(/<header class="bar reader-bar">([\s\S]*?)<\/header>/)?.[1] ?? "";
    expect(header).toContain('<a rel="prev" class="step" href="/read/JHN/2" title="John 2" aria-label="Previous chapter: John 2">‹</a>');
    expect(header).toContain('<p class="ref">John 3:16</p>');
    expect(header).toContain('<a rel="next" class="step" href="/read/JHN/4" title="John 4" aria-label="Next chapter: John 4">›</a>');
    expect(header).toContain('<details class="menu translations">');
    const first = await page("/read/GEN/1");
    expect(first.html).toMatch(/<span class="step" aria-hidden="true"><\/span>\s*<p class="ref">Genesis 1<\/p>/);
  });

  it("when a psalm is read, then it is Psalm N (Salmo N), in the heading, the header, the title and the pager", async () => {
    const { html } = await page("/read/PSA/23");
    expect(html).toContain("<h1>Psalm 23</h1>");
    expect(html).toContain('<p class="ref">Psalm 23</p>');
    expect(html).toContain("<title>Psalm 23 · World English Bible</title>");
    expect(html).toContain('<a rel="next" class="next" href="/read/PSA/24">Psalm 24 ›</a>');
    expect(html).not.toContain("Psalms 2");
    const es = await page("/read/PSA/23?bible_id=spa-rv1909");
    expect(es.html).toContain("<h1>Salmo 23</h1>");
    expect(es.html).toContain('<summary>Capítulos de Salmos</summary>');
  });

  it("when every verse of a chapter is rendered, then each number is glued to its first word by a no-break space", async () => {
    const { html } = await page("/read/JHN/3");
    const numbers = [...html.matchAll(/<a class="vn" href="[^"]+">(\d+)<\/a>(.)/g)];
    expect(numbers).toHaveLength(36);
    expect(numbers.every((m) => m[2] === "\u00a0")).toBe(true);
  });
});

describe("the prompt lab page", () => {
  it("when served, then the key field can never be submitted into a URL", async () => {
    const { html } = await page("/lab");
    expect(html).toContain('<form id="lab" method="dialog"');
    expect(html).toMatch(/<input id="key" type="password" autocomplete="off"/);
    expect(html).not.toMatch(/<(input|select|textarea)\b[^>]*\bname=/);
    expect(html.match(/data-column="[ab]"/g)).toHaveLength(2);
  });
});

describe("the landing page", () => {
  it("when / is opened, then it says what the service is and links to the reader, the lab, the OpenAPI document and the listings", async () => {
    const { res, html } = await page("/");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(html).toContain("<h1>Biblical Chat</h1>");
    expect(html).toMatch(/OpenAI-compatible chat-completions API/);
    expect(html).toContain("<code>POST /v1/responses</code>");
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
    for (const want of ["/read/JHN/3?verse=16", "/lab", "/openapi.json", "/v1/translations", "/v1/theologies", "/v1/profiles", "/v1/models"]) {
      expect(hrefs, want).toContain(want);
    }
    // Every same-site link on it answers (the pages router serves /read and /lab here; the API routes are
    // checked against the full service in the OpenAPI tests).
    for (const href of hrefs.filter((h) => h.startsWith("/read/") || h === "/lab")) {
      expect((await get(href)).status, href).toBe(200);
    }
    expect(html).toMatch(/curl -s <span data-origin="">http:\/\/localhost:8080<\/span>\/v1\/chat\/completions/);
    expect(html).toContain("Authorization: Bearer sk-...");
    expect(html).toContain("&#34;messages&#34;:[{&#34;role&#34;:&#34;user&#34;");
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it("when / describes scripture search, then it promises only what GET /v1/scripture/search does: semantic, no keyword mode", async () => {
    const { html } = await page("/");
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toMatch(/Scripture search semantic search over chapters/);
    expect(text).not.toMatch(/keyword/i);
  });

  it("when the provider is a real remote one, then the page does not tell visitors that any sk- key works", async () => {
    // startPagesApp's configuration keeps the default OPENAI_BASE_URL (api.openai.com), as production does.
    const { html } = await page("/");
    expect(html).toContain("Send your provider's key as the bearer; the service keeps no key.");
    expect(html).not.toMatch(/any <code>sk-/);
  });

  it("when OPENAI_BASE_URL is on this machine (the fake provider), then the page says any sk- key works", async () => {
    const local = await startPagesApp([], { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    try {
      const html = await (await fetch(`${local.url}/`)).text();
      expect(html).toMatch(/as the bearer \(this service uses a provider on this machine, such as the fake provider: any <code>sk-…<\/code> key works\)/);
    } finally {
      await local.close();
    }
  });

  it("when PUBLIC_BASE_URL is set, then the lab page carries it for its link renderer; unset, it carries none", async () => {
    expect((await page("/lab")).html).not.toContain("data-reader-base");
    const based = await startPagesApp([], { PUBLIC_BASE_URL: "https://bible.example.org/" });
    try {
      expect(await (await fetch(`${based.url}/lab`)).text()).toContain('<main class="lab" data-reader-base="https://bible.example.org">');
    } finally {
      await based.close();
    }
  });

  it.each([
    ["http://127.0.0.1:4010/v1", true], ["http://localhost:8081/v1", true], ["http://[::1]:4010/v1", true],
    ["http://fake.localhost/v1", true], ["https://api.openai.com/v1", false], ["http://10.0.0.5:8000/v1", false],
    ["http://localhost.example.com/v1", false], ["http://127.evil.com/v1", false], ["not a url", false], [undefined, false],
  ] as const)("when OPENAI_BASE_URL is %s, then the provider counts as local: %s", (url, local) => {
    expect(isLocalProvider(url)).toBe(local);
  });

  it("when / is asked with another method or a HEAD, then 405 with Allow, and HEAD works", async () => {
    const post = await fetch(srv.url + "/", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    expect((await fetch(srv.url + "/", { method: "HEAD" })).status).toBe(200);
  });
});

describe("pages for addresses that do not exist", () => {
  const browserGet = (path: string) => fetch(srv.url + path, { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });

  it("when a browser asks for an unknown path, then it gets an HTML 404 page with the way back, under the page CSP", async () => {
    for (const path of ["/nope", "/reader/JHN/3", "/lab/old"]) {
      const res = await browserGet(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(res.headers.get("content-security-policy"), path).toContain("script-src 'self'");
      const html = await res.text();
      expect(html).toContain("<h1>Not found</h1>");
      expect(html).toContain('href="/read/GEN/1"');
    }
  });

  it("when an API client or an API path asks for an unknown path, then the 404 stays the JSON error envelope", async () => {
    const cases: [string, Record<string, string>][] = [
      ["/nope", {}],
      ["/nope", { accept: "application/json" }],
      ["/nope", { accept: "*/*" }],
      ["/v1/nope", { accept: "text/html" }],
    ];
    for (const [path, headers] of cases) {
      const res = await fetch(srv.url + path, { headers });
      expect(res.status, `${path} ${headers.accept}`).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect((await res.json()).error).toMatchObject({ type: "invalid_request_error", code: "not_found" });
    }
    const post = await fetch(srv.url + "/nope", { method: "POST", headers: { accept: "text/html" } });
    expect(post.headers.get("content-type")).toMatch(/^application\/json/);
  });
});

describe("the lexicon page", () => {
  it("when a Strong's entry is opened, then it is a page people read: word, sense, KJV usage, verses linked into the reader", async () => {
    const { html } = await page("/lexicon/G25");
    expect(html).toContain('<span class="lemma" lang="grc">ἀγαπάω</span>');
    expect(html).toContain("<dd>to love (in a social or moral sense)</dd>");
    expect(html).toMatch(/<dt>In the King James Version<\/dt><dd>[^<]*love/);
    expect(html).toMatch(/<ul class="lexicon-refs"><li><a href="\/read\/[^"]+bible_id=eng-kjv">/);
    expect(html).toContain('<a href="/v1/lexicon/G25">/v1/lexicon/G25</a>');
    const hebrew = await page("/lexicon/H7965");
    expect(hebrew.html).toMatch(/<span class="lemma" lang="hbo">/);
  });

  it("when the number is spelled another way, then it redirects to the one address; unknown or malformed, an HTML 404", async () => {
    const res = await get("/lexicon/g0025");
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/lexicon/G25");
    expect((await page("/lexicon/G99999", 404)).html).toContain("Strong&#39;s dictionary has no entry G99999.");
    expect((await page("/lexicon/%3Cb%3E", 404)).html).toContain("is not a Strong&#39;s number");
  });
});
