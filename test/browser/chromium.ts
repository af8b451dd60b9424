import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { beforeEach } from "vitest";

/**
 * Which Chromium the browser tests drive. By default the one inside the `@sparticuz/chromium` npm package
 * (a devDependency, so `npm ci` brings it; it is unpacked once into the temp folder). CHROMIUM_PATH picks
 * any other build instead, e.g. Debian's (`apt-get install chromium`, `CHROMIUM_PATH=/usr/bin/chromium`).
 * A browser is never downloaded.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || undefined;

const execFileP = promisify(execFile);
const require = createRequire(import.meta.url);
const NPM_CHROMIUM_ENTRY = require.resolve("@sparticuz/chromium");
const NPM_CHROMIUM_VERSION = (JSON.parse(readFileSync(packageJson(NPM_CHROMIUM_ENTRY), "utf8")) as { version: string }).version;

function packageJson(entry: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && dir.endsWith(join("@sparticuz", "chromium"))) return join(dir, "package.json");
  }
  throw new Error(`No package.json above ${entry}`);
}

// Without the background-networking flags Chromium keeps dialling Google, which this closed network refuses.
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--no-zygote",
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

/** The reason browser tests cannot run (CHROMIUM_PATH names a missing file), or undefined. */
export function chromiumMissing(): Error | undefined {
  if (CHROMIUM_PATH === undefined || existsSync(CHROMIUM_PATH)) return undefined;
  return new Error(
    `CHROMIUM_PATH is ${CHROMIUM_PATH}, which does not exist. Unset it to use the Chromium of the @sparticuz/chromium ` +
      "npm package (installed by npm ci), or point it at an installed browser. The tests never download a browser.",
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

/**
 * The npm package's Chromium, unpacked (brotli, ~210 MB) into `$TMPDIR/biblical-chat-chromium-<version>`
 * on first use and reused afterwards. The package's own unpacker writes straight into the temp folder, where
 * two test files starting at once would each see the other's half-written binary, so it runs in a child
 * process aimed at a private folder that is then renamed into place in one step (the first rename wins).
 * A fontconfig file adds the package's fonts to the system's, so text renders even where no fonts are
 * installed.
 */
export async function npmChromium(): Promise<{ executablePath: string; fontconfig: string }> {
  const dir = join(tmpdir(), `biblical-chat-chromium-${NPM_CHROMIUM_VERSION}`);
  const found = { executablePath: join(dir, "chromium"), fontconfig: join(dir, "fonts.conf") };
  if (existsSync(found.fontconfig)) return found;
  const staging = await mkdtemp(`${dir}.unpacking-`);
  try {
    const script = `const { default: c } = await import(${JSON.stringify(NPM_CHROMIUM_ENTRY)}); await c.executablePath();`;
    await execFileP(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, TMPDIR: staging } });
    await writeFile(
      join(staging, "fonts.conf"),
      `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${join(dir, "fonts")}</dir>
  <cachedir>${join(dir, "fontconfig-cache")}</cachedir>
</fontconfig>
`,
    );
    await rename(staging, dir);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    // Another process renamed its copy into place first: use that one.
    if (!existsSync(found.fontconfig)) throw err;
  }
  return found;
}

/** A headless Chromium with a throwaway profile. */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<Chromium> {
  const missing = chromiumMissing();
  if (missing) throw missing;
  const browser = CHROMIUM_PATH ? { executablePath: CHROMIUM_PATH, env: {} } : await npmChromium().then((c) => ({
    executablePath: c.executablePath,
    env: { FONTCONFIG_FILE: c.fontconfig },
  }));
  const profile = await mkdtemp(join(tmpdir(), "biblical-chat-chromium-profile-"));
  await mkdir(SCREENSHOTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
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
