import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startPagesApp, type PagesApp } from "./app.js";
import { lowContrastText, smallTapTargets } from "./audit.js";
import { chromiumMissing, failEachTestWithoutChromium, inViewport, launchChromium, screenshot, watchProblems, type Chromium } from "./chromium.js";

let srv: PagesApp;
let browser: Chromium;
let page: Page;
let problems: string[];
const requested: string[] = [];

beforeAll(async () => {
  srv = await startPagesApp();
  if (chromiumMissing()) return;
  browser = await launchChromium({ width: 390, height: 844 });
  page = await browser.context.newPage();
  problems = watchProblems(page);
  page.on("request", (r) => requested.push(new URL(r.url()).pathname + new URL(r.url()).search));
});
failEachTestWithoutChromium();
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

const word = (verse: number, text: string) => page.locator(`#v${verse} .w, [data-v="${verse}"] .w`).filter({ hasText: new RegExp(`^${text}$`) }).first();

describe("the reader's study tools in Chromium", () => {
  it("when a chapter opens, then nothing of the study tools loads until one is asked for", async () => {
    requested.length = 0;
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    await page.waitForLoadState("load");
    expect(requested.filter((r) => /study\.js|\/v1\//.test(r))).toEqual([]);
    expect(await page.locator(".w").count()).toBe(0);
    expect(await page.locator(".study button[data-tool]").allTextContents()).toEqual(["Original words", "Notes"]);
  });

  it("when Original words is on and a word is tapped, then its Greek word and a short gloss show with a link to the lexicon entry", async () => {
    await page.locator("button[data-tool=words]").click();
    await page.waitForFunction(() => document.body.classList.contains("words-on"));
    expect(await page.locator("button[data-tool=words]").getAttribute("aria-pressed")).toBe("true");
    // The view says where the WEB's tags come from while it is on.
    expect(await page.locator(".study-status").textContent()).toMatch(/matching the King James Version's hand-made tags/);
    expect(requested.filter((r) => r.startsWith("/v1/passage"))).toEqual(["/v1/passage?ref=John%203&bible_id=eng-web&words=true&notes=false"]);
    // The words join back to exactly the verse text: wrapping changed no character.
    expect(await page.locator("#v16").textContent()).toBe("16\u00a0For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life.");
    await word(16, "loved").click();
    const gloss = page.locator(".gloss");
    await expect.poll(() => gloss.locator(".lemma").first().textContent()).toBe("ἀγαπάω");
    expect(await gloss.locator(".lemma").first().getAttribute("lang")).toBe("grc");
    expect(await gloss.locator(".translit").first().textContent()).toBe("agapáō");
    expect(await gloss.locator(".gloss-def").first().textContent()).toBe("to love (in a social or moral sense)");
    expect(await gloss.locator("a.gloss-link").getAttribute("href")).toBe("/lexicon/G25");
    expect(await inViewport(page, ".gloss")).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "study-word-gloss-phone");
    expect(await smallTapTargets(page)).toEqual([]);
    expect(await lowContrastText(page)).toEqual([]);
    await page.mouse.click(5, 400);
    expect(await gloss.isVisible()).toBe(false);
  });

  it("when a word is hovered on a desktop or reached by keyboard, then its gloss shows and Escape closes it", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await word(16, "world").hover();
    await expect.poll(() => page.locator(".gloss .sid").first().textContent()).toBe("G2889");
    await screenshot(page, "study-word-gloss-desktop");
    await page.keyboard.press("Escape");
    expect(await page.locator(".gloss").isVisible()).toBe(false);
    // Keyboard: one tab stop into the words, arrows move between them, focus shows the gloss.
    await page.locator("button[data-tool=notes]").focus();
    const focused = () => page.evaluate(() => document.activeElement?.className + ":" + document.activeElement?.textContent);
    // The words are one tab stop (the word last tapped, "loved"), after the verse numbers before it.
    expect(await page.locator('.w[tabindex="0"]').count()).toBe(1);
    const stops: string[] = [];
    for (let i = 0; i < 40 && !/^w:/.test(stops.at(-1) ?? ""); i++) {
      await page.keyboard.press("Tab");
      stops.push(await focused());
    }
    expect(stops.slice(0, 2)).toEqual([expect.stringMatching(/^:Commentary/), "vn:1"]);
    expect(stops.at(-1)).toBe("w:loved");
    const first = await focused();
    await page.keyboard.press("ArrowRight");
    expect(await focused()).not.toBe(first);
    expect(await focused()).toMatch(/^w:/);
    await expect.poll(() => page.locator(".gloss").isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    expect(await page.locator(".gloss").isVisible()).toBe(false);
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it("when Notes is on, then the translator's notes are marked where they sit and listed under the chapter", async () => {
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    await page.locator("button[data-tool=notes]").click();
    await page.waitForFunction(() => document.body.classList.contains("notes-on"));
    // John 3:16's footnote sits after "only born".
    const before = await page.locator("#v16 .note-ref").evaluate((a) => {
      const r = document.createRange();
      r.setStart(a.closest(".verse")!, 0);
      r.setEndBefore(a);
      return r.toString();
    });
    expect(before).toBe("16\u00a0For God so loved the world, that he gave his only born");
    const note16 = page.locator(".note-list li", { hasText: "3:16" });
    expect(await note16.textContent()).toContain("μονογενη");
    const note3 = page.locator(".note-list li", { hasText: "3:3 " });
    expect(await note3.locator("a[href='/read/JHN/3?verse=7']").textContent()).toBe("John 3:7");
    await page.locator("#v16 .note-ref").click();
    await page.waitForURL(/#note-16-0$/);
    expect(await inViewport(page, "#note-16-0")).toBe(true);
    await screenshot(page, "study-notes-phone");
    await page.locator("button[data-tool=notes]").click();
    expect(await page.locator(".notes").isVisible()).toBe(false);
    expect(await page.locator(".note-ref").first().isVisible()).toBe(false);
  });

  it("when a commentary is asked for on a desktop, then it shows beside the chapter with its author, date and tradition", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    await page.locator(".commentary-menu summary").click();
    await page.locator("button[data-commentary=mhcc]").click();
    const aside = page.locator("aside.commentary");
    await aside.waitFor({ state: "visible" });
    expect(await aside.locator("h2").textContent()).toBe("Matthew Henry's Concise Commentary on the Whole Bible");
    expect(await aside.locator(".c-meta").textContent()).toMatch(/^Matthew Henry, 1706-1714.*Reformed\/Puritan\.$/);
    expect(await aside.locator(".c-section").count()).toBeGreaterThan(0);
    expect(await aside.locator(".c-section.covers").count()).toBeGreaterThan(0);
    const [text, side] = await page.evaluate(() => [
      document.querySelector("main")!.getBoundingClientRect().toJSON(),
      document.querySelector("aside.commentary")!.getBoundingClientRect().toJSON(),
    ]);
    expect(side.left).toBeGreaterThanOrEqual(text.right);
    expect(side.top).toBeLessThan(900);
    // Beside the verse the reader was sent to: the verse in view, the panel at the section on it.
    expect(await inViewport(page, "#v16")).toBe(true);
    const covers = await page.evaluate(() => {
      const a = document.querySelector("aside.commentary")!.getBoundingClientRect();
      const c = document.querySelector(".c-section.covers")!.getBoundingClientRect();
      return c.top >= a.top && c.top < a.bottom;
    });
    expect(covers).toBe(true);
    // The section's own heading shows below the panel's sticky title bar, not hidden under it.
    const [head, heading] = await page.evaluate(() => [
      document.querySelector("aside.commentary .c-head")!.getBoundingClientRect().toJSON(),
      document.querySelector(".c-section.covers h3")!.getBoundingClientRect().toJSON(),
    ]);
    expect(heading.top).toBeGreaterThanOrEqual(head.bottom);
    const headingOnTop = await page.evaluate(() => {
      const r = document.querySelector(".c-section.covers h3")!.getBoundingClientRect();
      return document.elementFromPoint(r.left + 4, r.top + r.height / 2)?.closest(".c-section.covers h3") !== null;
    });
    expect(headingOnTop).toBe(true);
    await screenshot(page, "study-commentary-desktop");
    expect(await lowContrastText(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await lowContrastText(page)).toEqual([]);
    await screenshot(page, "study-commentary-desktop-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await aside.locator(".c-close").click();
    expect(await aside.isVisible()).toBe(false);
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it("when a psalm's commentary is opened on a phone, then Spurgeon is offered and shows under the text", async () => {
    await page.goto(`${srv.url}/read/PSA/23`);
    expect(await page.locator("button[data-commentary]").evaluateAll((bs) => bs.map((b) => b.getAttribute("data-commentary")))).toEqual(["mhcc", "tdavid", "scofield"]);
    await page.goto(`${srv.url}/read/JHN/3`);
    expect(await page.locator("button[data-commentary=tdavid]").count()).toBe(0);
    await page.goto(`${srv.url}/read/PSA/23`);
    await page.locator(".commentary-menu summary").click();
    await page.locator("button[data-commentary=tdavid]").click();
    await page.locator("aside.commentary").waitFor({ state: "visible" });
    expect(await page.locator("aside.commentary .c-meta").textContent()).toContain("Charles H. Spurgeon");
    expect(await inViewport(page, "aside.commentary h2")).toBe(true);
    await screenshot(page, "study-commentary-phone");
  });

  it("when the translation has no word tags (RV1909), then only the commentary is offered", async () => {
    await page.goto(`${srv.url}/read/JHN/3?bible_id=spa-rv1909`);
    expect(await page.locator(".study button[data-tool]").count()).toBe(0);
    expect(await page.locator(".commentary-menu summary").textContent()).toBe("Comentario (inglés)");
  });

  it("when the gloss's lexicon link is followed, then a readable page shows the entry, not JSON", async () => {
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    await page.locator("button[data-tool=words]").click();
    await page.waitForFunction(() => document.body.classList.contains("words-on"));
    await word(16, "loved").click();
    await page.locator(".gloss a.gloss-link").click();
    await page.waitForURL(/\/lexicon\/G25$/);
    const res = await page.request.get(page.url());
    expect(res.headers()["content-type"]).toMatch(/^text\/html/);
    expect(await page.locator("h1 .lemma").textContent()).toBe("ἀγαπάω");
    expect(await page.locator("h1 .lemma").getAttribute("lang")).toBe("grc");
    expect(await page.locator("dd").first().textContent()).toBe("to love (in a social or moral sense)");
    // Where the KJV uses it, each verse a link into the reader in the KJV; the JSON is one link away for developers.
    const first = page.locator(".lexicon-refs a").first();
    expect(await first.getAttribute("href")).toMatch(/^\/read\/[1-4]?[A-Z]{2,3}\/\d+\?verse=\d+(-\d+)?&bible_id=eng-kjv$/);
    expect(await page.locator('a[href="/v1/lexicon/G25"]').count()).toBe(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await smallTapTargets(page)).toEqual([]);
    expect(await lowContrastText(page)).toEqual([]);
    await screenshot(page, "lexicon-entry-phone");
    await first.click();
    await page.waitForURL(/\/read\//);
    expect(problems).toEqual([]);
  });

  it("when all pages ran, then no CSP violation or script error was reported", () => {
    expect(problems).toEqual([]);
  });
});
