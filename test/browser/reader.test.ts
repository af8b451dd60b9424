import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startPagesApp } from "./app.js";
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
    expect(await page.locator(".go").isVisible()).toBe(false);
    await page.selectOption("#bible-id", "eng-kjv");
    await page.waitForURL(/bible_id=eng-kjv/);
    expect(path()).toBe("/read/ROM/8?bible_id=eng-kjv&verse=28-30");
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

  it("when all pages ran, then no CSP violation or script error was reported", () => {
    expect(problems).toEqual([]);
  });
});
