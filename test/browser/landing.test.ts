import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { startPagesApp } from "./app.js";
import { cumulativeLayoutShift, lowContrastText, recordLayoutShift, smallTapTargets, tabOrder } from "./audit.js";
import { chromiumMissing, failEachTestWithoutChromium, launchChromium, screenshot, watchProblems, type Chromium } from "./chromium.js";
import type { PagesApp } from "./app.js";

let srv: PagesApp;
let browser: Chromium;
let page: Page;
let problems: string[];

beforeAll(async () => {
  srv = await startPagesApp();
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

describe("the landing page in Chromium", () => {
  it("when / opens on a phone, then it fits, does not shift, and the example request names this server", async () => {
    await page.goto(`${srv.url}/`);
    expect(await page.locator("h1").textContent()).toBe("Biblical Chat");
    expect(await page.locator("[data-origin]").first().textContent()).toBe(srv.url);
    expect(await page.locator("pre.example").textContent()).toContain(`curl -s ${srv.url}/v1/chat/completions`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const { cls, shifts } = await cumulativeLayoutShift(page);
    expect(cls, shifts.join("\n")).toBeLessThan(0.01);
    await screenshot(page, "landing-phone", true);
  });

  it("when checked like Lighthouse, then tap targets are 44 px and text contrast is 4.5:1 in light and dark", async () => {
    expect(await smallTapTargets(page)).toEqual([]);
    expect(await lowContrastText(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await lowContrastText(page)).toEqual([]);
    await screenshot(page, "landing-phone-dark");
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("when only the keyboard is used, then every link is reached with a visible focus and Enter follows it", async () => {
    await page.goto(`${srv.url}/`);
    const order = await tabOrder(page);
    const hrefs = order.map((o) => o.href);
    for (const want of ["/read/JHN/3?verse=16", "/lab", "/openapi.json", "/v1/translations", "/v1/models"]) expect(hrefs).toContain(want);
    expect(order.filter((o) => !o.indicator).map((o) => o.label)).toEqual([]);
    await page.goto(`${srv.url}/`);
    for (;;) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate(() => document.activeElement?.getAttribute("href"))) === "/lab") break;
    }
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/lab$/);
  });

  it("when opened at a desktop width, then the content keeps a readable measure", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${srv.url}/`);
    const width = await page.locator("main").evaluate((el) => el.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(800);
    await screenshot(page, "landing-desktop", true);
  });

  it("when all pages ran, then no CSP violation or script error was reported", () => {
    expect(problems).toEqual([]);
  });
});
