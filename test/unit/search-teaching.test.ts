import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { chapterCitations, citationPrior, citationsIn, inboundCitations } from "../../src/scripture/search/citations.js";
import { chapterCommentaryTokens } from "../../src/scripture/search/commentary-field.js";
import { corpusPassages, prepareCorpus, type PreparedCorpus } from "../../src/scripture/search/index.js";
import { listShares } from "../../src/scripture/search/listness.js";
import { PhraseIndex } from "../../src/scripture/search/phrases.js";
import { DEFAULT_FUSION, type FusionOptions } from "../../src/scripture/search/ranker.js";
import { phraseBoost, phraseTranslations } from "../../src/scripture/search/search.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import type { ChapterSource } from "../../src/scripture/search/types.js";

const library = loadBibleLibrary();
const web = library.get("eng-web")!;
const only = (books: string[]): ChapterSource => ({ chapter: (b, c) => (books.includes(b) ? web.chapter(b, c) : undefined) });
const key = (r: { book: string; chapter: number }) => `${r.book} ${r.chapter}`;
const parse = (c: string) => ({ book: c.split(" ")[0]!, chapter: Number(c.split(" ")[1]) });

describe("the commentaries' cross-references", () => {
  it("reads full book names, the singular Psalm, numbered books and '; 3:29' continuations in the same book", () => {
    const text = "WRITER: Paul (Romans 1:1). No respect of persons; Romans 2:11; 3:29. See 1 Corinthians 13:4-7 and Psalm 23:1, 4. Hezekiah 3:4 is no book.";
    expect(citationsIn(text).map((c) => `${c.book} ${c.chapter}:${c.verse}`)).toEqual(["ROM 1:1", "ROM 2:11", "ROM 3:29", "1CO 13:4", "PSA 23:1", "PSA 23:4"]);
  });

  it("counts a verse once per section, and never a section's citations of its own chapter", () => {
    const dir = mkdtempSync(join(tmpdir(), "citations-"));
    mkdirSync(join(dir, "commentaries", "scofield"), { recursive: true });
    const sections = [
      [1, 16, 16, "Note", "Ruth 1:16 is the vow; compare Ruth 2:3 and Ruth 2:3 again, and Genesis 12:1."],
      [2, 3, 3, "Note", "The field of Boaz (Ruth 2:3); the kinsman, Ruth 1:16."],
    ];
    writeFileSync(join(dir, "commentaries", "scofield", "RUT.json.gz"), gzipSync(JSON.stringify(sections)));
    const counts = inboundCitations(dir, ["RUT"]);
    expect(Object.fromEntries(counts)).toEqual({ "RUT.2.3": 1, "GEN.12.1": 1, "RUT.1.16": 1 });
    expect(chapterCitations(counts).get("RUT.2")).toBe(1);
  });

  it("ranks the chapters the shipped commentaries point readers to above a genealogy, a census list and an inventory", () => {
    const prior = citationPrior(["EPH 4", "MAT 5", "ROM 8", "1CH 1", "EZR 2", "NUM 7"].map(parse));
    expect(Math.min(prior[0]!, prior[1]!, prior[2]!)).toBeGreaterThan(Math.max(prior[3]!, prior[4]!, prior[5]!));
    for (const p of prior) expect(p >= 0 && p <= 1).toBe(true);
  });
});

describe("which windows are lists", () => {
  it("gives a census list's windows a high share of rare names and numbers, and teaching windows a low one", () => {
    const passages = corpusPassages(only(["EZR", "PRO", "EPH", "MAT"]));
    const share = listShares(passages);
    const of = (book: string, chapter: number) => passages.flatMap((p, i) => (p.book === book && p.chapter === chapter ? [share[i]!] : []));
    expect(Math.max(...of("EZR", 2))).toBeGreaterThan(0.5);
    for (const [b, c] of [["PRO", 15], ["EPH", 4], ["MAT", 19]] as const) expect(Math.max(...of(b, c))).toBeLessThan(0.1);
  });

  it("counts every word of a window longer than its scratch arrays (1,024 words), and of the windows after it", () => {
    // Window 0: 1,500 words, of them 300 "Parosh" (a rare name: capitalized, in one window) and 200 "five" (a number).
    const long = [...Array(1000).fill("the people went"), ...Array(300).fill("Parosh"), ...Array(200).fill("five")].join(" ");
    const window = (text: string) => ({ id: text.slice(0, 8), book: "EZR", chapter: 2, verseStart: 1, verseEnd: 1, testament: "OT", text }) as Parameters<typeof listShares>[0][number];
    const share = listShares([window(long), window("Zattu and the people five"), window("the people went")]);
    expect(share[0]).toBeCloseTo(500 / 3500, 6);
    expect(share[1]).toBeCloseTo(2 / 5, 6);
    expect(share[2]).toBe(0);
  });
});

describe("teaching signals in the ranker (a prepared corpus of lists, psalms, proverbs and epistles)", () => {
  let prepared: PreparedCorpus;
  beforeAll(async () => {
    prepared = await prepareCorpus(only(["EZR", "NEH", "NUM", "PSA", "PRO", "MAT", "EPH"]));
  }, 60_000);
  afterAll(() => prepared?.release());
  /** Keyword signals only, no teaching signal: the word matches alone. */
  const bare: FusionOptions = { ...DEFAULT_FUSION, commentary: 0, list: 0, prior: 0, shortPrior: 0 };
  const top = (q: string, fusion: FusionOptions, n = 5) => prepared.ranker.rank({ tokens: tokenize(q), dense: null, titles: [] }, n, fusion).map(key);

  it("every prepared corpus carries the list shares (one per window) and the commentary field (one document per chapter)", () => {
    expect(prepared.ranker.listShare?.length).toBe(prepared.passages.length);
    expect(prepared.ranker.commentaryField?.size).toBe(prepared.ranker.chapters.length);
  });

  it("on the words alone, 'children' finds the census lists first; damping lists, or the teaching prior, puts the teaching first", () => {
    expect(top("children", bare, 2).sort()).toEqual(["EZR 2", "NEH 7"]);
    for (const fusion of [{ ...bare, list: DEFAULT_FUSION.list }, { ...bare, shortPrior: DEFAULT_FUSION.shortPrior }, DEFAULT_FUSION]) {
      const ranked = top("children", fusion);
      expect(ranked).not.toContain("EZR 2");
      expect(ranked).not.toContain("NEH 7");
      expect(ranked).toContain("EPH 6");
    }
  });

  it("the commentary field finds a chapter by what its commentary says, a word its own text does not hold", () => {
    const [t] = tokenize("traveller");
    const plain = top("traveller", bare, 10);
    const added = top("traveller", { ...bare, commentary: DEFAULT_FUSION.commentary }, 10).filter((c) => !plain.includes(c));
    expect(added.length).toBeGreaterThan(0);
    const windows = new Set(prepared.ranker.bm25.sparse([t!]).docs);
    for (const c of added) {
      const id = prepared.ranker.chapterId(parse(c).book, parse(c).chapter)!;
      expect(prepared.passages.some((_, i) => windows.has(i) && prepared.ranker.chapterOf[i] === id)).toBe(false);
      expect(chapterCommentaryTokens([parse(c)])[0]).toContain(t);
    }
  });

  it("the prior and the commentary field reorder chapters but do not raise their evidence (what the confidence reads); similarity follows the order", () => {
    const rank = (f: FusionOptions) => prepared.ranker.rank({ tokens: tokenize("children"), dense: null, titles: [] }, 20, f);
    const evidenceOnly = new Map(rank({ ...DEFAULT_FUSION, commentary: 0, prior: 0, shortPrior: 0 }).map((r) => [key(r), r.similarity]));
    const full = rank(DEFAULT_FUSION);
    const shared = full.filter((r) => evidenceOnly.has(key(r)) && r.window !== undefined);
    expect(shared.length).toBeGreaterThan(5);
    for (const r of shared) expect(r.evidence).toBeCloseTo(evidenceOnly.get(key(r))!, 6);
    expect(full.map(key)).not.toEqual([...evidenceOnly.keys()]);
    const sims = full.map((r) => r.similarity);
    expect(sims).toEqual([...sims].sort((a, b) => b - a));
  });

  it("a short query that names a passage or a remembered line is not a topic search: no teaching signal reorders it", () => {
    const line = { entry: { kind: "title" as const, names: [], phrases: [], ranges: [{ book: "PSA", chapter: 23, chapterEnd: 23, verseStart: 1, verseEnd: 1 }] }, length: 2, coverage: 1, weight: 1 };
    const general: FusionOptions = { ...DEFAULT_FUSION, commentary: 0, list: 0, shortPrior: DEFAULT_FUSION.prior };
    const run = (f: FusionOptions) => prepared.ranker.rank({ tokens: tokenize("children"), dense: null, titles: [line] }, 10, f);
    expect(run(DEFAULT_FUSION)).toEqual(run(general));
  });

  it("a longer question is ranked on its own words: no commentary field, no list damping, the general prior weight", () => {
    const q = "how should I raise my children when they disobey and lie to me";
    expect(new Set(tokenize(q)).size).toBeGreaterThan(DEFAULT_FUSION.short);
    const general: FusionOptions = { ...DEFAULT_FUSION, commentary: 0, list: 0, shortPrior: DEFAULT_FUSION.prior };
    const full = (f: FusionOptions) => prepared.ranker.rank({ tokens: tokenize(q), dense: null, titles: [] }, 10, f);
    expect(full(DEFAULT_FUSION)).toEqual(full(general));
    // and a short one is not: the same signals change its ranking
    expect(top("children", DEFAULT_FUSION, 10)).not.toEqual(top("children", general, 10));
  });
});

describe("a remembered line against a wording many verses share", () => {
  let phrases: PhraseIndex;
  beforeAll(() => {
    phrases = new PhraseIndex(phraseTranslations(library));
  });

  it("boosts the one verse of 'I can do all things through Christ' fully, and each of the many verses holding 'young men' far less", () => {
    const line = phrases.match("i can do all things through christ", 20, 0.6);
    const php = line.findIndex((h) => h.book === "PHP" && h.chapter === 4 && h.verse === 13);
    expect(php).toBeGreaterThanOrEqual(0);
    expect(line.map(phraseBoost(line))[php]!.weight).toBe(1);
    const common = phrases.match("young men", 20, 0.6);
    expect(common.length).toBeGreaterThan(8);
    for (const b of common.map(phraseBoost(common))) expect(b.weight!).toBeLessThanOrEqual(0.5);
  });

  it("counts verses per matched wording: a whole line keeps its full boost beside many verses that share only part of it", () => {
    const whole = { book: "1SA", chapter: 17, verse: 47, bibleIds: ["eng-kjv"], coverage: 1, run: 5, words: ["the", "battle", "is", "the", "lords"] };
    const parts = Array.from({ length: 12 }, (_, i) => ({ book: "PSA", chapter: 20 + i, verse: 1, bibleIds: ["eng-kjv"], coverage: 0.6, run: 3, words: ["is", "the", "lords"] }));
    const all = [whole, ...parts];
    const boosts = all.map(phraseBoost(all));
    expect(boosts[0]!.weight).toBe(1);
    for (const b of boosts.slice(1)) expect(b.weight!).toBeCloseTo(0.36 * (4 / 12), 6);
  });
});
