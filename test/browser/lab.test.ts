import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import { match, reply, type FakeProvider } from "../fakes/index.js";
import { startFullStack } from "./app.js";
import { chromiumMissing, failEachTestWithoutChromium, inViewport, launchChromium, screenshot, watchProblems, type Chromium } from "./chromium.js";
import type { Listening } from "../helpers/listen.js";

const KEY = "sk-lab-browser-test-key-1234";
// Over 200 characters before the first sentence end passes the graph's turn gate; the rest streams word by word.
const ANSWER =
  "God so loved the world (John 3:16) that he gave his Son, and this love reaches everyone who believes, " +
  "whatever they have done and wherever they come from, because it rests on what God gave and not on what we bring. " +
  "That gift is the centre of the whole Gospel.\n\n" +
  "A <b>tag</b> stays text and [elsewhere](https://evil.example) is no link, while the promise of the verse stays " +
  "open to every reader who comes to it with a simple and honest question about the love of God. Amen.";

// A KJV answer: the service links it with &bible_id=eng-kjv, which the lab must render as links.
const KJV_ANSWER =
  "Forgiveness without limit is the lesson of Matthew 18, where Peter asks how often he must forgive a brother who sins " +
  "against him and hears an answer that leaves counting behind, and the parable that follows shows why. " +
  "Read Matthew 18:21-22 first, then 1Co 13 on the love that keeps no record of wrongs.";

let srv: Listening & { provider: FakeProvider };
let browser: Chromium;
let page: Page;
let problems: string[];
const requests: Request[] = [];

beforeAll(async () => {
  srv = await startFullStack();
  // The agent turn answers word by word, slowly enough for the page to show a half-streamed answer.
  srv.provider.on(match.agent(), reply.text(ANSWER, { chunkDelayMs: 30 }));
  if (chromiumMissing()) return;
  browser = await launchChromium({ width: 1280, height: 900 });
  page = await browser.context.newPage();
  problems = watchProblems(page);
  browser.context.on("request", (r) => requests.push(r));
});
failEachTestWithoutChromium();
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

const systemText = (body: { messages: { role: string; content?: unknown }[] }) =>
  body.messages.filter((m) => m.role === "system").map((m) => String(m.content)).join("\n");

const column = (id: "a" | "b") => page.locator(`[data-column="${id}"]`);

describe("the prompt lab in Chromium", () => {
  it("when loaded, then both columns offer the listed theologies, profiles and translations", async () => {
    await page.goto(`${srv.url}/lab`);
    await page.waitForSelector("body[data-ready=true]");
    const theologies = await column("a").locator('[data-field="theology"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(theologies).toContain("reformed");
    expect(await column("b").locator('[data-field="theology"]').inputValue()).toBe("default");
    expect(await column("a").locator('[data-field="profile"]').inputValue()).toBe("universal_explorer");
    expect(await column("a").locator('[data-field="bible_id"] option').count()).toBe(3);
  });

  it("when asked without a key, then the key field says so, in view and next to it, and nothing is sent", async () => {
    await page.fill("#question", "What does John 3:16 mean?");
    await page.click("#ask");
    const message = page.locator("#key-error");
    await expect.poll(() => message.textContent()).toMatch(/^Paste your provider key first/);
    expect(await page.locator("#key").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("key");
    expect(await inViewport(page, "#key-error")).toBe(true);
    const [field, note] = await Promise.all([page.locator("#key").boundingBox(), message.boundingBox()]);
    expect(note!.y - (field!.y + field!.height)).toBeLessThan(30);
    expect(note!.x).toBeLessThan(field!.x + field!.width);
    // Said by the field, not only as red text at the bottom: the columns stay untouched.
    for (const id of ["a", "b"] as const) expect(await column(id).locator(".status").textContent()).toBe("");
    expect(requests.filter((r) => r.url().endsWith("/v1/chat/completions"))).toHaveLength(0);
    expect(srv.provider.chatRequests).toHaveLength(0);
    await screenshot(page, "lab-missing-key");
  });

  it("when asked with a key, then both configurations stream side by side with their own settings, in view", async () => {
    await page.fill("#key", KEY);
    // Typing a key clears the note about it.
    expect(await page.locator("#key-error").textContent()).toBe("");
    expect(await page.locator("#key").getAttribute("aria-invalid")).toBeNull();
    await column("b").locator('[data-field="theology"]').selectOption("reformed");
    await column("b").locator('[data-field="bible_id"]').selectOption("eng-kjv");
    await column("b").locator('[data-field="max_words"]').fill("120");
    await column("b").locator('[data-field="links"]').uncheck();
    await column("b").locator('[data-field="skip_preflight"]').check();
    await page.click("#ask");

    // Half an answer on screen while the provider is still sending: streamed, not buffered.
    await expect
      .poll(() => column("a").locator(".output").evaluate((el) => /God so loved/.test(el.textContent ?? "") && !/Amen/.test(el.textContent ?? "")), { timeout: 15_000, interval: 20 })
      .toBe(true);
    expect(await column("a").getAttribute("data-state")).toBe("running");
    // At 1280x900 both answers stream where the person is looking, the question still on screen.
    await screenshot(page, "lab-streaming-1280x900");
    for (const id of ["a", "b"] as const) {
      expect(await inViewport(page, `[data-column="${id}"] .status`), id).toBe(true);
      // The output's container: its paragraphs are re-rendered with every chunk.
      expect(await inViewport(page, `[data-column="${id}"] .output`), id).toBe(true);
    }
    expect(await inViewport(page, "#question")).toBe(true);
    await expect.poll(() => column("a").getAttribute("data-state"), { timeout: 15_000 }).toBe("done");
    await expect.poll(() => column("b").getAttribute("data-state"), { timeout: 15_000 }).toBe("done");
    expect(await column("a").locator(".output").textContent()).toContain("Amen.");
    expect(await column("b").locator(".output").textContent()).toContain("Amen.");

    // What each configuration made of the same question reached the provider with the caller's key.
    const chats = srv.provider.chatRequests;
    for (const r of chats) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    const agent = chats.filter((r) => Array.isArray(r.body.tools) && r.body.tools.length > 0);
    expect(agent).toHaveLength(2);
    // B (120 words, reformed) and A (300 words, the default theology): the guardrails both share may name
    // the Reformed tradition too, so B's theology shows in the lines A does not have.
    const reformed = agent.filter((r) => /at most 120 words/.test(systemText(r.body)));
    const other = agent.filter((r) => /at most 300 words/.test(systemText(r.body)));
    expect(reformed).toHaveLength(1);
    expect(other).toHaveLength(1);
    const onlyB = systemText(reformed[0]!.body).split("\n").filter((l) => l.trim() && !systemText(other[0]!.body).includes(l));
    expect(onlyB.some((l) => /Reformed|Calvin/.test(l))).toBe(true);
    // skip_preflight in B: only A's question was classified.
    expect(chats.length - agent.length).toBe(1);

    expect(await column("a").locator(".versions").textContent()).toMatch(/^Prompt versions: guardrails@\w+,theology:default@\w+,profile:universal_explorer@\w+$/);
    expect(await column("b").locator(".versions").textContent()).toContain("theology:reformed@");
    await screenshot(page, "lab-two-columns", true);
  });

  it("when the answer holds markup or foreign links, then only reader links become links", async () => {
    const a = column("a").locator(".output");
    expect(await a.locator("p").count()).toBe(2);
    expect(await a.locator("b").count()).toBe(0);
    expect(await a.textContent()).toContain("A <b>tag</b> stays text");
    expect(await a.locator("a").evaluateAll((as) => as.map((x) => x.getAttribute("href")))).toEqual(["/read/JHN/3?verse=16"]);
    expect(await column("b").locator(".output a").count()).toBe(0);
  });

  it("when the lab is seen on a phone in dark mode, then the columns stack without sideways scrolling", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: "dark" });
    try {
      const [a, b] = await Promise.all([column("a").boundingBox(), column("b").boundingBox()]);
      expect(b!.y).toBeGreaterThanOrEqual(a!.y + a!.height);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(page, "lab-phone-dark", true);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.emulateMedia({ colorScheme: "light" });
    }
  });

  it("when the key was used, then it went only to this service's chat endpoint and is stored nowhere", async () => {
    const withKey = requests.filter((r) => JSON.stringify(r.headers()).includes(KEY) || r.url().includes(KEY));
    expect(withKey.length).toBe(2);
    for (const r of withKey) {
      expect(r.url()).toBe(`${srv.url}/v1/chat/completions`);
      expect(r.headers().authorization).toBe(`Bearer ${KEY}`);
      expect(r.postData() ?? "").not.toContain(KEY);
    }
    expect(page.url()).toBe(`${srv.url}/lab`);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie);
    expect(stored).not.toContain("sk-");
    expect(await browser.context.cookies()).toEqual([]);
  });

  it("when a link in the streamed answer is clicked, then the reader opens on the highlighted verse", async () => {
    const [reader] = await Promise.all([
      browser.context.waitForEvent("page"),
      column("a").getByRole("link", { name: "John 3:16" }).click(),
    ]);
    await reader.waitForLoadState("load");
    expect(new URL(reader.url()).pathname + new URL(reader.url()).search).toBe("/read/JHN/3?verse=16");
    expect(await reader.locator("#v16").getAttribute("class")).toBe("verse hl");
    expect(await inViewport(reader, "#v16")).toBe(true);
    await screenshot(reader, "lab-link-to-reader");
    await reader.close();
  });

  it("when the provider refuses the key, then both columns show the service's error readably", async () => {
    srv.provider.reset();
    srv.provider.on(match.agent(), reply.error(401));
    await page.click("#ask");
    await expect.poll(() => column("a").getAttribute("data-state"), { timeout: 15_000 }).toBe("error");
    await expect.poll(() => column("b").getAttribute("data-state"), { timeout: 15_000 }).toBe("error");
    for (const id of ["a", "b"] as const) {
      expect(await column(id).locator(".status").textContent()).toMatch(/^401 · invalid_api_key: \S/);
      expect(await column(id).locator(".output").textContent()).toBe("");
      expect(await inViewport(page, `[data-column="${id}"] .status`), id).toBe(true);
    }
    // The refused key is also said by its field, where it can be fixed.
    expect(await page.locator("#key-error").textContent()).toMatch(/^The service refused this key: \S/);
    expect(await page.locator("#key-error").textContent()).not.toContain(KEY);
    expect(await inViewport(page, "#key-error")).toBe(true);
    await screenshot(page, "lab-provider-refused");
  });

  it("when the provider fails mid-answer, then the streamed part stays and the in-stream error shows", async () => {
    srv.provider.reset();
    // 50 words pass the turn gate, so the failure arrives after the answer began: an SSE error event.
    srv.provider.on(match.agent(), reply.streamError(50, { text: ANSWER }));
    await page.click("#ask");
    await expect.poll(() => column("a").getAttribute("data-state"), { timeout: 15_000 }).toBe("error");
    await expect.poll(() => column("b").getAttribute("data-state"), { timeout: 15_000 }).toBe("error");
    for (const id of ["a", "b"] as const) {
      expect(await column(id).locator(".output").textContent()).toContain("God so loved the world");
      expect(await column(id).locator(".output").textContent()).not.toContain("Amen");
      expect(await column(id).locator(".status").textContent()).toMatch(/^upstream_error: \S/);
    }
    await screenshot(page, "lab-mid-stream-error");
  });

  it("when Stop is pressed mid-answer, then both columns stop and the provider calls are abandoned", async () => {
    srv.provider.reset();
    srv.provider.on(match.agent(), reply.text(ANSWER, { chunkDelayMs: 250 }));
    await page.click("#ask");
    await expect.poll(() => column("a").locator(".output").textContent(), { timeout: 15_000 }).toContain("God so loved");
    await page.click("#stop");
    for (const id of ["a", "b"] as const) {
      await expect.poll(() => column(id).locator(".status").textContent(), { timeout: 10_000 }).toBe("Stopped.");
    }
    await srv.provider.waitFor((p) => p.stats.abortedRequests >= 2, 10_000);
    expect(await page.locator("#ask").isEnabled()).toBe(true);
  });

  it("when a KJV answer carries its reader links, then they render as links and open the KJV", async () => {
    srv.provider.reset();
    srv.provider.on(match.agent(), reply.text(KJV_ANSWER));
    await column("a").locator('[data-field="bible_id"]').selectOption("eng-kjv");
    await page.click("#ask");
    await expect.poll(() => column("a").getAttribute("data-state"), { timeout: 15_000 }).toBe("done");
    const out = column("a").locator(".output");
    expect(await out.textContent()).not.toMatch(/\]\(/);
    expect(await out.locator("a").evaluateAll((as) => as.map((x) => [x.textContent, x.getAttribute("href")]))).toEqual([
      ["Matthew 18", "/read/MAT/18?bible_id=eng-kjv"],
      ["Matthew 18:21-22", "/read/MAT/18?verse=21-22&bible_id=eng-kjv"],
      ["1Co 13", "/read/1CO/13?bible_id=eng-kjv"],
    ]);
    const [reader] = await Promise.all([browser.context.waitForEvent("page"), out.getByRole("link", { name: "Matthew 18:21-22" }).click()]);
    await reader.waitForLoadState("load");
    expect(await reader.locator("#v22").textContent()).toContain("seventy times seven");
    await reader.close();
    await screenshot(page, "lab-kjv-links");
    await column("a").locator('[data-field="bible_id"]').selectOption("eng-web");
  });

  it("when the service has a PUBLIC_BASE_URL, then its absolute reader links render as links and other hosts stay text", async () => {
    const text =
      "[Matthew 18](https://bible.example.org/read/MAT/18?bible_id=eng-kjv), [Psalm 151:4](https://bible.example.org/read/PS2/1?verse=4), " +
      "[John 3:16](https://evil.example/read/JHN/3?verse=16), [Romans 8](/read/ROM/8?bible_id=spa-rv1909), [x](/read/JHN/3?verse=16&next=evil)";
    // A string, so the test runner does not rewrite the page's own import().
    const hrefs = (await page.evaluate(`(async () => {
      const { renderAnswer } = await import("/assets/lab-render.js");
      const div = document.createElement("div");
      div.append(renderAnswer(document, ${JSON.stringify(text)}, "https://bible.example.org/"));
      return [...div.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    })()`)) as string[];
    expect(hrefs).toEqual([
      "https://bible.example.org/read/MAT/18?bible_id=eng-kjv",
      "https://bible.example.org/read/PS2/1?verse=4",
      "/read/ROM/8?bible_id=spa-rv1909",
    ]);
  });

  it("when all of it ran, then no CSP violation or script error was reported", () => {
    expect(problems).toEqual([]);
  });
});

