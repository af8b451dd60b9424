/**
 * Embeds every search window (the windows the corpus worker cuts: corpusPassages over eng-web, the 66
 * books then the deuterocanon) with the Universal Sentence Encoder lite, into a scratch file:
 *   nice -n 19 taskset -c 1 node --import tsx bench/use/embed-windows.ts /tmp/i27-use [wasm|purejs]
 * writes <dir>/windows.json (ids, the corpus hash of the window texts) and <dir>/vectors.f32 (512 floats a
 * window, L2-normalised by the model), checkpointing every 40 batches so a stopped run resumes.
 * With --verses (into another directory): one vector a verse of every chapter that has windows.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bookById } from "../../src/scripture/books.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { corpusPassages } from "../../src/scripture/search/search-windows.js";
// @ts-expect-error plain JS scratch module
import { loadUse } from "./use-model.mjs";

const dir = process.argv[2] ?? "/tmp/i27-use";
const backend = process.argv[3] ?? "purejs";
mkdirSync(dir, { recursive: true });
const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
// --verses: one vector a verse instead of a window (ids BOOK.C.V; a psalm's superscription joins verse 1).
const passages = process.argv.includes("--verses")
  ? corpusPassages(web).flatMap((p, i, all) => {
      if (i > 0 && all[i - 1]!.book === p.book && all[i - 1]!.chapter === p.chapter) return [];
      const ch = web.chapter(p.book, p.chapter)!;
      return ch.verses.map((v, k) => ({ ...p, id: `${p.book}.${p.chapter}.${v.verse}`, verseStart: v.verse, verseEnd: v.verse, text: k === 0 && ch.superscription ? `${ch.superscription} ${v.text}` : v.text }));
    })
  : corpusPassages(web);
const hash = createHash("sha256");
for (const p of passages) hash.update(`${p.id}\t${p.text}\n`);
const corpusHash = hash.digest("hex").slice(0, 16);
const DIM = 512;
const vecPath = join(dir, "vectors.f32");
const donePath = join(dir, "done.json");
const vectors = new Float32Array(passages.length * DIM);
let done = new Uint8Array(passages.length);
if (existsSync(vecPath) && existsSync(donePath) && (JSON.parse(readFileSync(donePath, "utf8")) as { corpusHash: string }).corpusHash === corpusHash) {
  const buf = readFileSync(vecPath);
  vectors.set(new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4));
  done = Uint8Array.from((JSON.parse(readFileSync(donePath, "utf8")) as { done: number[] }).done);
}
writeFileSync(join(dir, "windows.json"), JSON.stringify({ corpusHash, dim: DIM, ids: passages.map((p) => p.id) }));
const use = await loadUse(backend);
// Similar lengths together, so a batch pads little.
// The 66 books only unless asked (the deuterocanon is ranked only on request): --all embeds it too.
const common = process.argv.includes("--all") ? passages.length : passages.findIndex((p) => bookById(p.book)?.canon === "deuterocanon");
const order = passages.map((_, i) => i).filter((i) => !done[i] && i < common).sort((a, b) => passages[a]!.text.length - passages[b]!.text.length);
const save = () => {
  writeFileSync(vecPath, new Uint8Array(vectors.buffer));
  writeFileSync(donePath, JSON.stringify({ corpusHash, done: Array.from(done) }));
};
const t0 = performance.now();
let n = 0;
for (let b = 0; b < order.length; b += 16) {
  const idx = order.slice(b, b + 16);
  const out = (await use.embed(idx.map((i) => passages[i]!.text))) as Float32Array[];
  idx.forEach((i, k) => { vectors.set(out[k]!, i * DIM); done[i] = 1; });
  n += idx.length;
  if ((b / 16) % 40 === 39) {
    save();
    console.log(`${new Date().toISOString()} ${n}/${order.length} windows, ${((performance.now() - t0) / n).toFixed(1)} ms each`);
  }
}
save();
console.log(`${new Date().toISOString()} done: ${n} windows in ${((performance.now() - t0) / 1000).toFixed(0)} s (${backend}); corpus ${corpusHash}`);
