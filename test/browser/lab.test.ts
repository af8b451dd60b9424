import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page, Request } from "playwright-core";
import type { ChatRequestContext, ChatTurn } from "../../graphs/chat/types.js";
import { chatCatalog, chatRouter, type RunChat } from "../../src/http/chat/route.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { startPagesApp } from "./app.js";
import { inViewport, launchChromium, screenshot, watchProblems, type Chromium } from "./chromium.js";
import type { Listening } from "../helpers/listen.js";

const KEY = "sk-lab-browser-test-key-1234";

/**
 * The real chat endpoint (auth, validation, SSE framing) over a scripted runner: the answer's first
 * part streams, then the runner waits for the test, so "streamed" is observed, not assumed.
 */
const seen: { turns: ChatTurn[]; ctx: ChatRequestContext }[] = [];
let release!: () => void;
const gate = new Promise<void>((r) => (release = r));

const run: RunChat = async (turns, ctx, opts) => {
  seen.push({ turns, ctx });
  const ref = ctx.convertLinks ? "[John 3:16](/read/JHN/3?verse=16)" : "John 3:16";
  const first = `God so loved the world (${ref}) `;
  const rest = "that he gave his Son.\n\nA <b>tag</b> stays text and [elsewhere](https://evil.example) is no link.";
  opts.onDelta?.(first);
  await gate;
  opts.onDelta?.(rest);
  const prompts = loadPrompts();
  return {
    kind: "answer",
    content: first + rest,
    finishReason: "stop",
    usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
    promptVersions: prompts.versions(ctx.theology, ctx.profile),
  };
};

let srv: Listening;
let browser: Chromium;
let page: Page;
let problems: string[];
const requests: Request[] = [];

beforeAll(async () => {
  const prompts = loadPrompts();
  srv = await startPagesApp([chatRouter({ run, catalog: chatCatalog(prompts), config: { defaultModel: "gpt-4o-mini", preflightModel: "gpt-4o-mini" } })]);
  browser = await launchChromium({ width: 1280, height: 900 });
  page = await browser.context.newPage();
  problems = watchProblems(page);
  browser.context.on("request", (r) => requests.push(r));
});
afterAll(async () => {
  release();
  await browser?.close();
  await srv?.close();
});

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

  it("when asked without a key, then each column shows the error envelope readably", async () => {
    await page.fill("#question", "What does John 3:16 mean?");
    await page.click("#ask");
    await expect.poll(() => column("a").locator(".status").textContent()).toMatch(/^401 · missing_api_key: /);
    expect(await column("b").locator(".status").textContent()).toMatch(/^401 · missing_api_key: /);
    expect(seen).toHaveLength(0);
  });

  it("when asked with a key, then both configurations stream side by side with their own settings", async () => {
    await page.fill("#key", KEY);
    await column("b").locator('[data-field="theology"]').selectOption("reformed");
    await column("b").locator('[data-field="bible_id"]').selectOption("eng-kjv");
    await column("b").locator('[data-field="max_words"]').fill("120");
    await column("b").locator('[data-field="links"]').uncheck();
    await column("b").locator('[data-field="skip_preflight"]').check();
    await page.click("#ask");

    // The first part has arrived in both columns while the runner is still holding the rest back.
    await expect.poll(() => column("a").locator(".output").textContent()).toContain("God so loved the world");
    await expect.poll(() => column("b").locator(".output").textContent()).toContain("God so loved the world");
    expect(await column("a").getAttribute("data-state")).toBe("running");
    expect(await column("a").locator(".output").textContent()).not.toContain("gave his Son");
    release();
    await expect.poll(() => column("a").getAttribute("data-state")).toBe("done");
    await expect.poll(() => column("b").getAttribute("data-state")).toBe("done");

    const byTheology = new Map(seen.map((s) => [s.ctx.theology, s.ctx]));
    expect(byTheology.get("default")).toMatchObject({ apiKey: KEY, bibleId: "eng-web", maxWords: 300, convertLinks: true, skipPreflight: false });
    expect(byTheology.get("reformed")).toMatchObject({ apiKey: KEY, bibleId: "eng-kjv", maxWords: 120, convertLinks: false, skipPreflight: true });
    expect(seen[0]!.turns).toEqual([{ role: "user", content: "What does John 3:16 mean?" }]);

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

  it("when all of it ran, then no CSP violation or script error was reported", () => {
    expect(problems).toEqual([]);
  });
});

