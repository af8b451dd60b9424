/**
 * Compiles the service (src/ and graphs/) to plain JavaScript in dist/, so production runs without the
 * tsx loader: `node scripts/build.mjs` always builds, `--if-stale` builds only when the sources changed
 * since the last build (a content hash), which is how `npm start` builds once and then starts at once.
 *
 * Files keep their place (src/x.ts -> dist/src/x.js) and every other top-level entry of the repository
 * (data/, prompts/, package.json...) is linked into dist/, so paths that code resolves relative to its
 * own file (`new URL("../../prompts/", import.meta.url)`) find the same files from dist/ as from the
 * sources. Non-TypeScript files under src/ and graphs/ (the pages' assets) are copied beside them.
 * esbuild only strips types; `npm run typecheck` is what checks them.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(ROOT, "dist");
const STAMP = ".build-hash";
const COMPILED = ["src", "graphs"];
// Never linked into dist/: the output itself, what Node finds by walking up anyway, and VCS state.
const NOT_LINKED = new Set(["dist", "node_modules", ".git", ...COMPILED]);

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

function isSource(file) {
  return file.endsWith(".ts") && !file.endsWith(".d.ts") && !file.endsWith(".test.ts");
}

/** Top-level entries linked into dist/. */
function linkedEntries() {
  return readdirSync(ROOT).filter((entry) => !NOT_LINKED.has(entry) && !entry.startsWith("dist.tmp-") && (!entry.startsWith(".") || entry === ".env"));
}

/**
 * A hash of every input: file names and contents under the compiled folders, the top-level entries to
 * link (a new folder such as data/... must be linked too), this script and esbuild's version.
 */
function inputHash(files) {
  const h = createHash("sha256");
  h.update(`${linkedEntries().sort().join("\0")}\0`);
  // esbuild itself is imported only to build: the check that runs on every start stays cheap.
  h.update(readFileSync(createRequire(import.meta.url).resolve("esbuild/package.json")));
  h.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const file of files) {
    h.update(`\0${relative(ROOT, file)}\0`);
    h.update(readFileSync(file));
  }
  return h.digest("hex");
}

export async function buildDist({ ifStale = false } = {}) {
  const files = COMPILED.flatMap((d) => filesUnder(join(ROOT, d)));
  const hash = inputHash(files);
  const stampFile = join(OUT, STAMP);
  if (ifStale && existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === hash) return { built: false, ms: 0 };

  const started = performance.now();
  // Build beside the old output, then swap, so an interrupted build never leaves a half-written dist/.
  const tmp = `${OUT}.tmp-${process.pid}`;
  const { build } = await import("esbuild");
  rmSync(tmp, { recursive: true, force: true });
  await build({
    entryPoints: files.filter(isSource),
    outdir: tmp,
    outbase: ROOT,
    format: "esm",
    platform: "node",
    target: "node20",
    bundle: false,
    logLevel: "warning",
  });
  for (const file of files.filter((f) => !f.endsWith(".ts"))) {
    const target = join(tmp, relative(ROOT, file));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  for (const entry of linkedEntries()) symlinkSync(join("..", entry), join(tmp, entry));
  writeFileSync(join(tmp, STAMP), `${hash}\n`);
  rmSync(OUT, { recursive: true, force: true });
  renameSync(tmp, OUT);
  return { built: true, ms: Math.round(performance.now() - started) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const ifStale = process.argv.includes("--if-stale");
  buildDist({ ifStale }).then(
    ({ built, ms }) => {
      if (built) process.stderr.write(`build: compiled src/ and graphs/ to dist/ in ${ms} ms\n`);
    },
    (err) => {
      process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
