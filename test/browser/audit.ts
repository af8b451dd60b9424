import type { Page } from "playwright-core";

/**
 * Lighthouse-style checks run inside the page: layout shift, tap-target size, text contrast and
 * keyboard reach. Each returns the offending elements (described for the failure message), so a
 * test demands an empty list.
 */

/** Call before page.goto: records every layout shift from the first paint on. */
export async function recordLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node }[] }[]) {
        if (entry.hadRecentInput) continue;
        w.__cls += entry.value;
        w.__shifts.push(`${entry.value.toFixed(4)} ${entry.sources?.map((s) => (s.node as Element | undefined)?.outerHTML?.slice(0, 80)).join(" | ")}`);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The cumulative layout shift since navigation, read after load has settled (two frames and a pause). */
export async function cumulativeLayoutShift(page: Page): Promise<{ cls: number; shifts: string[] }> {
  await page.waitForLoadState("load");
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))));
  return page.evaluate(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    return { cls: w.__cls, shifts: w.__shifts };
  });
}

const describeScript = `
  window.__describe = (el) => {
    const cls = el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "";
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + cls + " «" + (el.textContent || "").trim().slice(0, 30) + "»";
  };`;

/**
 * Interactive elements smaller than `min` px in either dimension. Targets inside a sentence (an inline
 * element whose block also holds other text: verse numbers, a tappable word, a link in a footnote) are
 * exempt, as WCAG 2.5.5 and Lighthouse exempt them; so is anything not rendered.
 */
export async function smallTapTargets(page: Page, min = 44): Promise<string[]> {
  await page.evaluate(describeScript);
  return page.evaluate((min) => {
    const describe = (window as unknown as { __describe: (el: Element) => string }).__describe;
    const blockOf = (el: Element): Element => {
      let b = el.parentElement!;
      while (b.parentElement && getComputedStyle(b).display.startsWith("inline")) b = b.parentElement;
      return b;
    };
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll("a[href], button, select, input:not([type=hidden]), textarea, summary, [tabindex]"))) {
      const style = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || style.visibility === "hidden") continue;
      if (el.closest("details:not([open])") && el.tagName !== "SUMMARY" && !el.closest("summary")) continue;
      // In running text: inline itself, or set out of flow from inside an inline (a verse number hung in
      // the margin of a poetic line, whose size the line's height constrains).
      const parentInline = el.parentElement !== null && getComputedStyle(el.parentElement).display === "inline";
      if (style.display === "inline" || (style.position === "absolute" && parentInline)) {
        const block = blockOf(el);
        const own = (el.textContent ?? "").trim().length;
        if ((block.textContent ?? "").trim().length > own + 2) continue;
      }
      if (r.width < min - 0.5 || r.height < min - 0.5) out.push(`${describe(el)} ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
    }
    return out;
  }, min);
}

/**
 * Text whose colour against its effective background is below `min`:1 (WCAG relative luminance). The
 * background is composited from the element up to the root; text over images would need more, and the
 * pages have none.
 */
export async function lowContrastText(page: Page, min = 4.5): Promise<string[]> {
  await page.evaluate(describeScript);
  return page.evaluate((min) => {
    const describe = (window as unknown as { __describe: (el: Element) => string }).__describe;
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) throw new Error(`unparsed colour ${c}`);
      const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      return [p[0]!, p[1]!, p[2]!, p[3] ?? 1];
    };
    const over = (top: RGBA, under: RGBA): RGBA => {
      const a = top[3];
      return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
    };
    const background = (el: Element): RGBA => {
      const layers: RGBA[] = [];
      for (let e: Element | null = el; e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
      const dark = matchMedia("(prefers-color-scheme: dark)").matches;
      let bg: RGBA = dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
      for (const layer of layers.reverse()) bg = over(layer, bg);
      return bg;
    };
    const lum = ([r, g, b]: RGBA) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !(n.textContent ?? "").trim()) continue;
      seen.add(el);
      const style = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || style.visibility === "hidden" || el.closest("[hidden], details:not([open]) > :not(summary)")) continue;
      const bg = background(el);
      const fg = over(parse(style.color), bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < min) out.push(`${describe(el)} ${ratio.toFixed(2)}:1 (${style.color} on rgb(${bg.slice(0, 3).map(Math.round).join(", ")}))`);
    }
    return out;
  }, min);
}

/**
 * Presses Tab from the top of the page until focus comes back round (or `max` presses) and returns what
 * took focus, each with whether a focus indicator showed (an outline or a box shadow).
 */
export async function tabOrder(page: Page, max = 200): Promise<{ label: string; href: string | null; visible: boolean; indicator: boolean }[]> {
  await page.evaluate(describeScript);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.evaluate(() => window.scrollTo(0, 0));
  const seen: { label: string; href: string | null; visible: boolean; indicator: boolean }[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    const info = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return {
        label: (window as unknown as { __describe: (el: Element) => string }).__describe(el),
        href: el.getAttribute("href"),
        visible: r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight,
        indicator: (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none",
      };
    });
    if (!info || (seen.length > 0 && info.label === seen[0]!.label)) break;
    seen.push(info);
  }
  return seen;
}
