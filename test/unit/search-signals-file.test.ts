import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { SIGNALS_FILE } from "../../src/scripture/search/corpus-worker.js";
import { decodeDerived, encodeDerived, readDerived } from "../../src/scripture/search/derived-file.js";
import { prepareCorpus, type PreparedCorpus } from "../../src/scripture/search/index.js";
import type { Bm25Index } from "../../src/scripture/search/bm25.js";
import type { ChapterSource } from "../../src/scripture/search/types.js";

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const only = (books: string[]): ChapterSource => ({ chapter: (b, c) => (books.includes(b) ? web.chapter(b, c) : undefined) });
const BOOKS = ["RUT", "EZR", "PSA"];

/** What the ranker holds of the teaching signals, as plain values (the commentary field's data included). */
function signalsOf(p: PreparedCorpus) {
  return { prior: p.ranker.prior, listShare: p.ranker.listShare, commentary: (p.ranker.commentaryField as Bm25Index).toData() };
}

async function prepared(dataDir?: string) {
  const p = await prepareCorpus(only(BOOKS), dataDir === undefined ? {} : { dataDir });
  try {
    return { from: p.signalsFrom, signals: signalsOf(p) };
  } finally {
    await p.release();
  }
}

describe("the teaching signals kept in DATA_DIR", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "signals-"));
  const file = join(dataDir, "search", SIGNALS_FILE);
  let built: Awaited<ReturnType<typeof prepared>>["signals"];

  it("are built and written on a first start, then read, identical, on the next", async () => {
    const none = await prepared();
    expect(none.from).toBe("built");
    built = none.signals;
    expect(built.prior!.length).toBeGreaterThan(100);
    const first = await prepared(dataDir);
    expect(first.from).toBe("built");
    expect(readFileSync(file).length).toBeGreaterThan(1000);
    const second = await prepared(dataDir);
    expect(second.from).toBe("stored");
    expect(second.signals).toEqual(built);
    expect(first.signals).toEqual(built);
  }, 120_000);

  it("a damaged file is not trusted: built again, and written over", async () => {
    const good = readFileSync(file);
    const bad = Buffer.from(good);
    bad[bad.length - 5] = bad[bad.length - 5]! ^ 0xff;
    writeFileSync(file, bad);
    const again = await prepared(dataDir);
    expect(again.from).toBe("built");
    expect(again.signals).toEqual(built);
    expect(readFileSync(file).equals(good)).toBe(true);
    writeFileSync(file, good.subarray(0, good.length - 100));
    expect((await prepared(dataDir)).from).toBe("built");
    expect((await prepared(dataDir)).from).toBe("stored");
  }, 120_000);

  it("a file written for another corpus (or code, or commentary data) is not trusted", async () => {
    const good = readFileSync(file);
    const text = good.toString("latin1");
    const key = /"key":"([0-9a-f]{64})"/.exec(text)![1]!;
    writeFileSync(file, Buffer.from(text.replace(key, "0".repeat(64)), "latin1"));
    const again = await prepared(dataDir);
    expect(again.from).toBe("built");
    expect(again.signals).toEqual(built);
    expect(readFileSync(file).toString("latin1")).toContain(key);
  }, 120_000);
});

describe("the derived-data file format", () => {
  const value = { k1: 1.2, terms: ["a", "b"], nested: [{ v: new Float64Array([Math.PI, -0, NaN]) }], f: new Float32Array([0.1, 2.5]), i: new Int32Array([1, -7]) };

  it("gives back every value and typed array, each array in a buffer of its own", () => {
    const back = decodeDerived(encodeDerived("k", value), "k") as typeof value;
    expect(back).toEqual(value);
    expect(back.f).toBeInstanceOf(Float32Array);
    expect(Object.is(back.nested[0]!.v[1], -0)).toBe(true);
    expect(back.f.buffer).not.toBe(back.i.buffer);
    expect(back.f.byteOffset).toBe(0);
  });

  it("reads as absent under another key, truncated, with a flipped byte, or not in the format", () => {
    const bytes = encodeDerived("k", value);
    expect(decodeDerived(bytes, "other")).toBeUndefined();
    expect(decodeDerived(bytes.subarray(0, bytes.length - 1), "k")).toBeUndefined();
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 1;
    expect(decodeDerived(flipped, "k")).toBeUndefined();
    expect(decodeDerived(Buffer.from("{}"), "k")).toBeUndefined();
    expect(readDerived(join(tmpdir(), "no-such-derived-file"), "k")).toBeUndefined();
  });
});
