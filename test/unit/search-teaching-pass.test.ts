/**
 * The teaching signals' build (corpus-worker.ts buildTeachingSignals) reads each commentary file once and
 * hands it to every builder, instead of keeping every file parsed for three separate passes: the same
 * signals as the separate builders, from one read of each file.
 */
import { describe, expect, it, vi } from "vitest";

const reads = vi.hoisted(() => [] as string[]);
vi.mock("../../src/study/data.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/study/data.js")>();
  return {
    ...actual,
    readGzipJson: (dir: string, relative: string) => {
      reads.push(relative);
      return actual.readGzipJson(dir, relative);
    },
  };
});

const { loadBibleLibrary } = await import("../../src/scripture/corpus.js");
const { corpusPassages } = await import("../../src/scripture/search/search-windows.js");
const { buildTeachingSignals } = await import("../../src/scripture/search/corpus-worker.js");
const { passageChapters, passagePrior } = await import("../../src/scripture/search/expansion.js");
const { chapterCommentaryTokens, commentaryField } = await import("../../src/scripture/search/commentary-field.js");
const { Bm25Index } = await import("../../src/scripture/search/bm25.js");
const { listShares } = await import("../../src/scripture/search/listness.js");

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const BOOKS = ["RUT", "PSA", "ROM"];
const passages = corpusPassages({ chapter: (b, c) => (BOOKS.includes(b) ? web.chapter(b, c) : undefined) });

describe("the teaching signals' build", () => {
  it("reads each commentary file once, and every citing commentary's file on every book", () => {
    reads.length = 0;
    buildTeachingSignals(passages);
    const commentaries = reads.filter((r) => r.startsWith("commentaries/"));
    expect(commentaries.length).toBeGreaterThan(66);
    expect(new Set(commentaries).size).toBe(commentaries.length);
    // Citations of a corpus book come from commentaries on other books (Romans cites Genesis).
    expect(commentaries).toContain("commentaries/scofield/GEN.json.gz");
    expect(commentaries).toContain("commentaries/tdavid/PSA.json.gz");
  });

  it("gives what the separate builders give: the prior, the list shares and the commentary field", () => {
    const signals = buildTeachingSignals(passages);
    const chapters = passageChapters(passages);
    expect([...signals.prior]).toEqual([...passagePrior(passages)]);
    expect([...signals.listShare]).toEqual([...listShares(passages)]);
    const separate = commentaryField(chapters);
    const fromTokens = new Bm25Index(chapterCommentaryTokens(chapters)).toData();
    for (const data of [separate, fromTokens]) {
      expect(signals.commentary.terms).toEqual(data.terms);
      expect([...signals.commentary.norms]).toEqual([...data.norms]);
      expect([...signals.commentary.idf]).toEqual([...data.idf]);
      expect([...signals.commentary.offsets]).toEqual([...data.offsets]);
      expect([...signals.commentary.docs]).toEqual([...data.docs]);
      expect([...signals.commentary.tfs]).toEqual([...data.tfs]);
    }
    expect(signals.commentary.size).toBe(chapters.length);
  });
});

describe("a keyword index from term counts", () => {
  it("is the index its documents' tokens give (terms, norms, postings)", () => {
    const docs = [["grace", "faith", "grace"], [], ["faith", "works", "law", "faith"]];
    const counts = docs.map((d) => {
      const m = new Map<string, number>();
      for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
      return m;
    });
    const a = new Bm25Index(docs).toData();
    const b = new Bm25Index(counts).toData();
    expect(b.terms).toEqual(a.terms);
    expect([...b.norms]).toEqual([...a.norms]);
    expect([...b.docs]).toEqual([...a.docs]);
    expect([...b.tfs]).toEqual([...a.tfs]);
    expect(new Bm25Index(counts).scores(["faith", "grace"])).toEqual(new Bm25Index(docs).scores(["faith", "grace"]));
  });
});
