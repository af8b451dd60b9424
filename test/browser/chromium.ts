import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { beforeEach } from "vitest";

/** Debian's chromium; a browser is never downloaded. CHROMIUM_PATH overrides it for other systems. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// Without the background-networking flags Chromium keeps dialling Google, which this closed network refuses.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const SCREENSHOTS = join(process.cwd(), "test-results", "screenshots");

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** The reason browser tests cannot run, or undefined when the Chromium binary is there. */
export function chromiumMissing(): Error | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  return new Error(
    `Browser tests need Chromium at ${CHROMIUM_PATH} (Debian: apt-get install -y chromium, or set CHROMIUM_PATH). ` +
      "They never download a browser.",
  );
}

/**
 * Makes every test of the file fail with chromiumMissing()'s message when the binary is absent: a
 * failing hook in beforeAll would only mark the tests skipped, and a missing browser must never pass
 * for a skip.
 */
export function failEachTestWithoutChromium(): void {
  beforeEach(() => {
    const missing = chromiumMissing();
    if (missing) throw missing;
  });
}

/** A headless Chromium with a throwaway profile. */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<Chromium> {
  const missing = chromiumMissing();
  if (missing) throw missing;
  const profile = await mkdtemp(join(tmpdir(), "biblical-chat-chromium-"));
  await mkdir(SCREENSHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport,
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export const screenshot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });

/** Collects the CSP violations and script errors a page reports, so a test can demand none. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/Failed to load resource/.test(msg.text())) problems.push(`console: ${msg.text()}`);
  });
  return problems;
}

/** True when the element's box lies inside the visible viewport. */
export async function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  });
}
