import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startPagesApp } from "./app.js";
import { cumulativeLayoutShift, lowContrastText, recordLayoutShift, smallTapTargets, tabOrder } from "./audit.js";
import { chromiumMissing, failEachTestWithoutChromium, inViewport, launchChromium, screenshot, watchProblems, type Chromium } from "./chromium.js";
import type { Listening } from "../helpers/listen.js";

let srv: Listening;
let browser: Chromium;
let page: Page;
let problems: string[];

beforeAll(async () => {
  srv = await startPagesApp();
  // A phone-sized window: the reader must work there first.
  if (chromiumMissing()) return;
  browser = await launchChromium({ width: 390, height: 844 });
  page = await browser.context.newPage();
  problems = watchProblems(page);
  await recordLayoutShift(page);
});
failEachTestWithoutChromium();
afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

const path = () => new URL(page.url()).pathname + new URL(page.url()).search;

describe("the reader in Chromium", () => {
  it("when a linked verse is opened, then it is highlighted and scrolled into view", async () => {
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    await expect(page.locator("#v16").getAttribute("class")).resolves.toBe("verse hl");
    expect(await inViewport(page, "#v16")).toBe(true);
    expect(await inViewport(page, "h1")).toBe(false);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    const fontSize = await page.locator(".chapter-text").evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(fontSize).toBeGreaterThanOrEqual(16);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, "reader-john-3-16-phone");
  });

  it("when next and previous are clicked, then chapters follow and cross book boundaries", async () => {
    await page.locator("a[rel=next]").first().click();
    await page.waitForURL(/\/read\/JHN\/4$/);
    expect(await page.locator("h1").textContent()).toBe("John 4");
    await page.locator("a[rel=prev]").first().click();
    await page.locator("a[rel=prev]").first().click();
    await page.waitForURL(/\/read\/JHN\/2$/);

    await page.goto(`${srv.url}/read/MAL/4`);
    await page.locator("a[rel=next]").first().click();
    await page.waitForURL(/\/read\/MAT\/1$/);
    expect(await page.locator("h1").textContent()).toBe("Matthew 1");
    await page.locator("a[rel=prev]").first().click();
    await page.waitForURL(/\/read\/MAL\/4$/);
  });

  it("when the book and chapter lists are used, then they lead to that chapter", async () => {
    await page.locator("details.books summary").click();
    await page.getByRole("link", { name: "Romans", exact: true }).click();
    await page.waitForURL(/\/read\/ROM\/1$/);
    await page.locator("details.chapters summary").click();
    await screenshot(page, "reader-romans-chapters-open");
    await page.locator(".chapter-list").getByRole("link", { name: "8", exact: true }).click();
    await page.waitForURL(/\/read\/ROM\/8$/);
    expect(await page.locator("h1").textContent()).toBe("Romans 8");
  });

  it("when the translation is changed, then the chapter reloads in it with the highlight kept", async () => {
    await page.goto(`${srv.url}/read/ROM/8?verse=28-30`);
    expect(await page.locator(".translations .menu-list").isVisible()).toBe(false);
    await page.locator("details.translations summary").click();
    await page.getByRole("link", { name: "King James Version" }).click();
    await page.waitForURL(/bible_id=eng-kjv/);
    expect(path()).toBe("/read/ROM/8?verse=28-30&bible_id=eng-kjv");
    expect(await page.locator("#v28").textContent()).toContain("all things work together for good");
    expect(await page.locator(".verse.hl").count()).toBe(3);
    expect(await inViewport(page, "#v28")).toBe(true);
  });

  it("when a psalm is read in dark mode, then its superscription shows and the colours follow the system", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${srv.url}/read/PSA/51?verse=10`);
    expect(await page.locator(".superscription").textContent()).toMatch(/David/);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe("rgb(21, 23, 26)");
    await screenshot(page, "reader-psalm-51-dark");
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("when a chapter does not exist, then the friendly page says so", async () => {
    const res = await page.goto(`${srv.url}/read/JHN/22`);
    expect(res?.status()).toBe(404);
    expect(await page.locator("main").textContent()).toContain("John has no chapter 22");
    await screenshot(page, "reader-not-found");
  });

  it("when a browser opens an address no page has, then it gets the not-found page, not a JSON error", async () => {
    const res = await page.goto(`${srv.url}/reader/JHN/3`);
    expect(res?.status()).toBe(404);
    expect(res?.headers()["content-type"]).toMatch(/^text\/html/);
    expect(await page.locator("h1").textContent()).toBe("Not found");
    await page.locator('main a[href="/read/PSA/23"]').click();
    await page.waitForURL(/\/read\/PSA\/23$/);
    await page.goBack();
    await screenshot(page, "page-not-found");
  });

  it("when a chapter is scrolled, then the compact header with the reference, the translation and prev/next stays on screen", async () => {
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    expect(await inViewport(page, ".reader-bar")).toBe(true);
    expect(await page.locator(".reader-bar").evaluate((el) => el.getBoundingClientRect().top)).toBe(0);
    expect(await page.locator(".reader-bar .ref").textContent()).toBe("John 3:16");
    const height = await page.locator(".reader-bar").evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeLessThanOrEqual(60);
    // The highlighted verse is not hidden under the header.
    const [barBottom, verseTop] = await page.evaluate(() => [
      document.querySelector(".reader-bar")!.getBoundingClientRect().bottom,
      document.querySelector("#v16")!.getBoundingClientRect().top,
    ]);
    expect(verseTop).toBeGreaterThan(barBottom);
    await page.locator(".reader-bar details.translations summary").click();
    await screenshot(page, "reader-john-3-16-phone-menu");
    await page.keyboard.press("Escape");
    expect(await page.locator(".translations .menu-list").isVisible()).toBe(false);
    await page.mouse.wheel(0, 1500);
    await page.waitForFunction(() => window.scrollY > 900);
    expect(await inViewport(page, ".reader-bar")).toBe(true);
    await page.locator(".reader-bar a[rel=next]").click();
    await page.waitForURL(/\/read\/JHN\/4$/);
  });

  it("when a chapter is laid out at phone and desktop widths, then no verse number ends a line", async () => {
    for (const [width, ref] of [[390, "JHN/3"], [1280, "JHN/3"], [390, "ROM/8"], [360, "PSA/119"]] as const) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`${srv.url}/read/${ref}`);
      const stranded = await page.evaluate(() => {
        const out: string[] = [];
        for (const vn of Array.from(document.querySelectorAll<HTMLElement>(".vn"))) {
          const text = vn.nextSibling;
          if (!text || text.nodeType !== Node.TEXT_NODE) continue;
          const range = document.createRange();
          range.setStart(text, 1);
          range.setEnd(text, 2);
          const word = range.getClientRects()[0];
          const number = vn.getClientRects()[0];
          // The first letter of the verse starts on the number's line, to its right.
          if (!word || !number || word.top > number.bottom || word.left < number.left) out.push(vn.textContent ?? "?");
        }
        return out;
      });
      expect(stranded, `${ref} at ${width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  });

  it("when checked like Lighthouse, then no layout shift on load, tap targets of 44 px, contrast 4.5:1 in light and dark", async () => {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${srv.url}/read/PSA/23?verse=4`);
      const { cls, shifts } = await cumulativeLayoutShift(page);
      expect(cls, shifts.join("\n")).toBeLessThan(0.01);
      expect(await lowContrastText(page), scheme).toEqual([]);
      await page.locator("details.chapters summary").click();
      await page.locator(".reader-bar details.translations summary").click();
      expect(await smallTapTargets(page), scheme).toEqual([]);
      expect(await lowContrastText(page), scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("when only the keyboard is used, then the skip link, the header and the menus work with a visible focus", async () => {
    await page.goto(`${srv.url}/read/JHN/3`);
    const order = await tabOrder(page, 12);
    expect(order[0]!.label).toMatch(/^a\.skip/);
    expect(order.slice(1, 4).map((o) => o.label)).toEqual([
      expect.stringMatching(/^a\.step «‹»/),
      expect.stringMatching(/^a\.step «›»/),
      expect.stringMatching(/^summary «Translation: WEB»/),
    ]);
    expect(order.filter((o) => !o.indicator || !o.visible).map((o) => o.label)).toEqual([]);
    // The skip link moves focus to the text; the translation menu opens with Enter and its links follow with Enter.
    await page.goto(`${srv.url}/read/JHN/3`);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("text");
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    await page.locator(".reader-bar summary").focus();
    await page.keyboard.press("Enter");
    expect(await page.locator(".translations .menu-list").isVisible()).toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(/bible_id=eng-kjv/);
    expect(path()).toBe("/read/JHN/3?verse=16&bible_id=eng-kjv");
    await page.locator(".reader-bar a[rel=prev]").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/read\/JHN\/2\?bible_id=eng-kjv$/);
  });

  it("when read on a desktop, then the text keeps a readable measure and the header spans the window", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${srv.url}/read/JHN/3?verse=16`);
    const main = await page.locator("main").evaluate((el) => el.getBoundingClientRect().width);
    expect(main).toBeLessThanOrEqual(720);
    expect(await page.locator(".reader-bar").evaluate((el) => el.getBoundingClientRect().width)).toBe(1280);
    await screenshot(page, "reader-john-3-16-desktop");
    await page.goto(`${srv.url}/read/PSA/23`);
    await screenshot(page, "reader-psalm-23-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${srv.url}/read/PSA/23`);
    await screenshot(page, "reader-psalm-23-phone");
  });

  it("when a psalm is read, then it is set as poetry: stanzas of lines, continuation lines indented, Selah apart", async () => {
    await page.goto(`${srv.url}/read/PSA/23`);
    expect(await page.locator(".chapter-text .stanza").count()).toBeGreaterThanOrEqual(1);
    const lines = await page.locator(".chapter-text .line").evaluateAll((els) =>
      els.map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return { cls: el.className, text: el.textContent ?? "", left: range.getClientRects()[0]!.left };
      }),
    );
    expect(lines[0]).toMatchObject({ cls: "line l1", text: "1Yahweh is my shepherd; " });
    expect(lines[1]).toMatchObject({ cls: "line l2", text: "I shall lack nothing." });
    expect(lines[1]!.left).toBeGreaterThan(lines[0]!.left);
    expect(lines.length).toBeGreaterThanOrEqual(12);
    // Each line starts on a line of its own.
    const tops = await page.locator(".chapter-text .line").evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
    expect(new Set(tops).size).toBe(tops.length);
    await page.goto(`${srv.url}/read/PSA/46`);
    expect(await page.locator(".line.selah").count()).toBeGreaterThanOrEqual(1);
    await page.goto(`${srv.url}/read/PSA/42`);
    expect(await page.locator("h2.heading").first().textContent()).toBe("BOOK 2");
    await screenshot(page, "reader-psalm-42-phone");
    // Prose keeps its paragraphs.
    await page.goto(`${srv.url}/read/JHN/3`);
    expect(await page.locator(".chapter-text > p").count()).toBeGreaterThan(1);
  });

  it("when the RV1909 is read, then chapter openings are in normal case and Psalm 119's letters are headings", async () => {
    await page.goto(`${srv.url}/read/1CO/13?bible_id=spa-rv1909`);
    expect(await page.locator("#v1").textContent()).toMatch(/^1\u00a0Si yo hablase lenguas/);
    expect(await page.locator("#v1").evaluate((el) => getComputedStyle(el).textTransform)).toBe("none");
    await screenshot(page, "reader-1co-13-rv1909-phone");
    await page.goto(`${srv.url}/read/PSA/119?bible_id=spa-rv1909`);
    expect(await page.locator("h1").textContent()).toBe("Salmo 119");
    expect(await page.locator("h2.heading").first().textContent()).toBe("ALEPH");
  });

  it("when a deuterocanonical book is opened in the KJV, then the WEB's text shows under a visible note and links keep the KJV", async () => {
    await page.goto(`${srv.url}/read/SIR/2?verse=1&bible_id=eng-kjv`);
    const note = page.locator(".note.fallback");
    expect(await note.textContent()).toBe("Sirach is not in the King James Version; shown in the World English Bible.");
    expect(await inViewport(page, ".note.fallback")).toBe(true);
    expect(await page.locator(".edition").textContent()).toBe("World English Bible");
    expect(await page.locator("#v1").textContent()).toContain("My son, if you come to serve the Lord");
    expect(await page.locator(".reader-bar a[rel=next]").getAttribute("href")).toBe("/read/SIR/3?bible_id=eng-kjv");
    expect(await lowContrastText(page)).toEqual([]);
    await screenshot(page, "reader-sirach-2-kjv-fallback-phone");
    await page.locator("details.books summary").click();
    await page.getByRole("link", { name: "Romans", exact: true }).click();
    await page.waitForURL(/\/read\/ROM\/1\?bible_id=eng-kjv$/);
    expect(await page.locator(".note.fallback").count()).toBe(0);
    expect(await page.locator(".edition").textContent()).toBe("King James Version");
    // In the RV1909 the page stays Spanish around the English text.
    await page.goto(`${srv.url}/read/TOB/4?bible_id=spa-rv1909`);
    expect(await page.locator("html").getAttribute("lang")).toBe("es");
    expect(await page.locator("h1").textContent()).toBe("Tobías 4");
    expect(await page.locator("main").getAttribute("lang")).toBe("en");
    expect(await page.locator(".note.fallback").textContent()).toBe("Tobías no está en la Reina-Valera 1909; se muestra en la World English Bible.");
  });

  it("when all pages ran, then no CSP violation or script error was reported", () => {
    expect(problems).toEqual([]);
  });
});
