import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { commentaryTerms, loadExpansion } from "../../src/scripture/search/expansion.js";
import { corpusPassages, prepareCorpus } from "../../src/scripture/search/index.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import type { ChapterSource } from "../../src/scripture/search/types.js";

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const only = (books: string[]): ChapterSource => ({ chapter: (b, c) => (books.includes(b) ? web.chapter(b, c) : undefined) });

describe("document expansion from the shipped commentaries", () => {
  it("gives a window the commentary's words its own text lacks, never references or numbers", () => {
    const passages = corpusPassages(only(["EPH"]));
    const terms = commentaryTerms(passages);
    const i = passages.findIndex((p) => p.chapter === 4 && p.verseStart <= 31 && p.verseEnd >= 31);
    expect(terms[i]!.length).toBe(10);
    const own = new Set(tokenize(passages[i]!.text));
    for (const t of terms[i]!) {
      expect(own.has(t)).toBe(false);
      expect(t).not.toMatch(/\d/);
    }
  });

  it("the shipped file knows every window of today's windowing (rerun npm run ingest:expansion when it does not)", () => {
    const passages = corpusPassages(only(["RUT", "PHM", "EPH", "PSA"]));
    const shipped = loadExpansion(passages);
    expect(shipped.every((t) => t.length === 10)).toBe(true);
  });

  it("adds the words to the window's keyword terms, not to its text or its length", async () => {
    const prepared = await prepareCorpus(only(["EPH"]));
    try {
      const i = prepared.passages.findIndex((p) => p.chapter === 4 && p.verseStart <= 31 && p.verseEnd >= 31);
      const added = loadExpansion(corpusPassages(only(["EPH"])))[i]!;
      expect(added.length).toBeGreaterThan(0);
      expect(tokenize((await prepared.texts())[i]!)).not.toEqual(expect.arrayContaining(added));
      for (const t of added) expect(prepared.ranker.bm25.sparse([t]).docs).toContain(i);
    } finally {
      await prepared.release();
    }
  });
});

describe("which passages teach: the commentary prior", () => {
  it("ranks a chapter the commentators dwell on above a genealogy or an inventory of offerings", async () => {
    const { commentaryPrior } = await import("../../src/scripture/search/expansion.js");
    const chapters = [
      { book: "EPH", chapter: 4, verses: 32 },
      { book: "1CH", chapter: 1, verses: 54 },
      { book: "NUM", chapter: 7, verses: 89 },
      { book: "MAT", chapter: 5, verses: 48 },
    ];
    const prior = commentaryPrior(chapters);
    expect(Math.min(prior[0]!, prior[3]!)).toBeGreaterThan(Math.max(prior[1]!, prior[2]!));
    for (const p of prior) expect(p >= 0 && p <= 1).toBe(true);
  });

  it("is part of every prepared corpus's ranker, one value per chapter, in the ranker's chapter order", async () => {
    const { passageChapters, passagePrior } = await import("../../src/scripture/search/expansion.js");
    const prepared = await prepareCorpus(only(["EPH", "NUM"]));
    try {
      const { chapters, prior } = prepared.ranker;
      expect(prior?.length).toBe(chapters.length);
      expect(passageChapters(prepared.passages).map((c) => `${c.book} ${c.chapter}`)).toEqual(chapters.map((c) => `${c.book} ${c.chapter}`));
      expect([...prior!]).toEqual([...passagePrior(prepared.passages)]);
    } finally {
      await prepared.release();
    }
  });
});
