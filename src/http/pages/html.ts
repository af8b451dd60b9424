import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Escapes text for HTML content and double-quoted attributes alike. */
export function esc(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export const ASSETS_DIR = fileURLToPath(new URL("./assets/", import.meta.url));

/**
 * Asset URLs carry a hash of their content, so the files can be cached for a year and a deploy still
 * reaches every browser at once.
 */
export function assetVersions(dir = ASSETS_DIR): ReadonlyMap<string, string> {
  const versions = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    versions.set(name, createHash("sha256").update(readFileSync(dir + name)).digest("hex").slice(0, 10));
  }
  return versions;
}

export interface PageAssets {
  url(name: string): string;
}

export function pageAssets(versions: ReadonlyMap<string, string>): PageAssets {
  return {
    url(name) {
      const v = versions.get(name);
      if (!v) throw new Error(`Unknown page asset ${name}`);
      return `/assets/${name}?v=${v}`;
    },
  };
}

export interface Layout {
  title: string;
  lang?: string;
  body: string;
  scripts?: string[];
  bodyClass?: string;
}

/** The shell of every page: phone viewport, one stylesheet, module scripts only (the CSP forbids inline). */
export function layout(assets: PageAssets, page: Layout): string {
  const scripts = (page.scripts ?? []).map((s) => `<script type="module" src="${esc(assets.url(s))}"></script>`).join("\n");
  return `<!doctype html>
<html lang="${esc(page.lang ?? "en")}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(page.title)}</title>
<link rel="stylesheet" href="${esc(assets.url("site.css"))}">
${scripts}
</head>
<body${page.bodyClass ? ` class="${esc(page.bodyClass)}"` : ""}>
${page.body}
</body>
</html>
`;
}
