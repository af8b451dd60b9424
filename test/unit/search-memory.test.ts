import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { corpusPassages, prepareCorpus } from "../../src/scripture/search/index.js";
import { TermVerses } from "../../src/scripture/search/term-verses.js";
import type { ChapterSource } from "../../src/scripture/search/types.js";

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const only = (books: string[]): ChapterSource => ({ chapter: (b, c) => (books.includes(b) ? web.chapter(b, c) : undefined) });

describe("what the running index keeps of each window", () => {
  it("the prepared corpus and its ranker (so the built index) hold the windows' places; their texts stay in the worker until asked for", async () => {
    const windows = corpusPassages(only(["RUT"]));
    const prepared = await prepareCorpus(only(["RUT"]));
    try {
      expect(prepared.ranker.passages).toBe(prepared.passages);
      expect(prepared.passages).toEqual(windows.map(({ text: _text, tags: _tags, ...place }) => place));
      for (const p of prepared.passages) expect(Object.keys(p)).not.toContain("text");
      const texts = await prepared.texts();
      expect(texts).toEqual(windows.map((w) => w.text));
      expect(texts[0]).toContain("judges judged");
    } finally {
      await prepared.release();
    }
  });
});

describe("TermVerses: a chapter's terms and the verses holding each, compact", () => {
  it("gives back each term's verses in order, undefined for a term the chapter lacks, with one vocabulary across chapters", () => {
    const vocabulary = new Map<string, number>();
    const a = TermVerses.from(new Map([["love", [1, 3, 16]], ["world", [16]], ["light", [19, 20, 21]]]), vocabulary);
    const b = TermVerses.from(new Map([["shepherd", [1]], ["love", [6]]]), vocabulary);
    expect([...a.get("love")!]).toEqual([1, 3, 16]);
    expect([...a.get("light")!]).toEqual([19, 20, 21]);
    expect([...a.get("world")!]).toEqual([16]);
    expect(a.get("shepherd")).toBeUndefined();
    expect(a.get("unknown")).toBeUndefined();
    expect([...b.get("love")!]).toEqual([6]);
    expect([...b.get("shepherd")!]).toEqual([1]);
    expect(vocabulary.size).toBe(4);
  });

  it("holds a chapter larger than 16-bit offsets allow", () => {
    const lists = new Map(Array.from({ length: 700 }, (_, t) => [`t${t}`, Array.from({ length: 100 }, (_, v) => v + 1)] as const));
    const big = TermVerses.from(lists, new Map());
    expect([...big.get("t699")!]).toEqual(Array.from({ length: 100 }, (_, v) => v + 1));
    expect(big.get("t0")!.length).toBe(100);
  });
});
