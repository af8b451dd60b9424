import { describe, expect, it } from "vitest";
import { PassageRanker, DEFAULT_FUSION } from "../../src/scripture/search/ranker.js";
import { CONCEPTS } from "../../src/scripture/search/concepts.js";
import { TITLES, matchTitles, parseTitleLine, parseTitleRange } from "../../src/scripture/search/titles.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import type { Passage } from "../../src/scripture/search/types.js";

const passage = (book: string, chapter: number, v: number, text: string, testament: "OT" | "NT" = "NT"): Passage => ({
  id: `${book}.${chapter}.${v}-${v + 5}`,
  book,
  chapter,
  verseStart: v,
  verseEnd: v + 5,
  testament,
  text,
});

const passages = [
  passage("GEN", 1, 1, "in the beginning god created the heavens and the earth", "OT"),
  passage("PSA", 23, 1, "the lord is my shepherd i shall not want green pastures", "OT"),
  passage("LUK", 10, 25, "a samaritan had compassion on the man beaten by robbers"),
  passage("LUK", 10, 31, "a priest and a levite passed by on the other side"),
  passage("LUK", 15, 11, "a man had two sons the younger wasted his property"),
  passage("JHN", 10, 11, "i am the good shepherd who lays down his life for the sheep"),
];
const ranker = new PassageRanker(passages, passages.map((p) => tokenize(p.text)));
const key = (r: { book: string; chapter: number }) => `${r.book} ${r.chapter}`;

describe("fusion and chapter aggregation", () => {
  it("when windows of one chapter match, then the chapter appears once, scored by its best window", () => {
    const ranked = ranker.rank({ tokens: tokenize("samaritan priest"), dense: null, titles: [] }, 5);
    expect(ranked.map(key)).toEqual(["LUK 10"]);
  });

  it("when dense hits agree with keywords, then they add up; similarities stay in [0, 1] and descend", () => {
    const dense = [
      { index: 5, score: 0.9 },
      { index: 1, score: 0.2 },
    ];
    const ranked = ranker.rank({ tokens: tokenize("shepherd"), dense, titles: [] }, 5);
    expect(ranked.map(key)).toEqual(["JHN 10", "PSA 23"]);
    for (const r of ranked) expect(r.similarity).toBeGreaterThan(0), expect(r.similarity).toBeLessThanOrEqual(1);
    expect(ranked[0]!.similarity).toBeGreaterThan(ranked[1]!.similarity);
  });

  it("when only dense hits exist, then they rank alone (a paraphrase with no shared word)", () => {
    const ranked = ranker.rank({ tokens: tokenize("wayward child"), dense: [{ index: 4, score: 0.6 }], titles: [] }, 5);
    expect(ranked.map(key)).toEqual(["LUK 15"]);
  });

  it("when a title matches, then its chapter outranks keyword matches elsewhere", () => {
    const titles = matchTitles("the good shepherd psalm");
    const ranked = ranker.rank({ tokens: tokenize("the good shepherd psalm"), dense: null, titles }, 5);
    expect(ranked[0] && key(ranked[0])).toBe("JHN 10");
    const prodigal = ranker.rank({ tokens: tokenize("prodigal son"), dense: null, titles: matchTitles("the prodigal son") }, 5);
    expect(prodigal.map(key)[0]).toBe("LUK 15");
  });

  it("when two matched topics both teach a chapter, then it outranks a chapter only the first topic lists first; two titles on one chapter count once", () => {
    const topic = (line: string) => ({ ...parseTitleLine(line, "topic") });
    const shepherd = topic("shepherd: PSA 23, JHN 10");
    const sacrifice = topic("sacrifice: JHN 10, LUK 15");
    const m = (entry: ReturnType<typeof topic>) => ({ entry, length: 1, coverage: 0.5 });
    const both = ranker.rank({ tokens: [], dense: null, titles: [m(shepherd), m(sacrifice)] }, 5);
    expect(both.map(key).slice(0, 2)).toEqual(["JHN 10", "PSA 23"]);
    const alone = ranker.rank({ tokens: [], dense: null, titles: [m(shepherd)] }, 5);
    expect(alone.map(key)[0]).toBe("PSA 23");
    const title = parseTitleLine("The good shepherd|I am the good shepherd: JHN 10");
    const twice = ranker.rank({ tokens: [], dense: null, titles: [m(title), m(title)] }, 5);
    const once = ranker.rank({ tokens: [], dense: null, titles: [m(title)] }, 5);
    expect(twice[0]!.similarity).toBe(once[0]!.similarity);
  });

  it("when a range filter is given, then nothing outside it ranks, titles included", () => {
    const ranked = ranker.rank({ tokens: tokenize("shepherd"), dense: [{ index: 5, score: 0.9 }], titles: matchTitles("good shepherd"), range: [0, 2] }, 5);
    expect(ranked.map(key)).toEqual(["PSA 23"]);
  });

  it("when RRF is chosen, then it ranks too (kept for the measured comparison)", () => {
    const ranked = ranker.rank({ tokens: tokenize("shepherd"), dense: [{ index: 1, score: 0.5 }], titles: [] }, 5, { ...DEFAULT_FUSION, mode: "rrf" });
    expect(ranked.map(key)).toContain("PSA 23");
  });
});

describe("passage titles and concepts", () => {
  it("when the table loads, then there are 300+ titles and every range exists", () => {
    expect(TITLES.length).toBeGreaterThanOrEqual(300);
    expect(CONCEPTS.length).toBeGreaterThan(100);
    for (const t of [...TITLES, ...CONCEPTS.map((c) => c.entry)]) expect(t.ranges.length).toBeGreaterThan(0);
  });

  it.each([
    ["LUK 10:25-37", { book: "LUK", chapter: 10, chapterEnd: 10, verseStart: 25, verseEnd: 37 }],
    ["EXO 20", { book: "EXO", chapter: 20, chapterEnd: 20, verseStart: 1, verseEnd: 26 }],
    ["GEN 6-8", { book: "GEN", chapter: 6, chapterEnd: 8, verseStart: 1, verseEnd: 22 }],
    ["GEN 1:1-2:3", { book: "GEN", chapter: 1, chapterEnd: 2, verseStart: 1, verseEnd: 3 }],
  ])("when parsing %s, then %j", (text, expected) => {
    expect(parseTitleRange(text)).toEqual(expected);
  });

  it("when a range is malformed or names a missing chapter, then parsing throws", () => {
    expect(() => parseTitleRange("XYZ 1")).toThrow();
    expect(() => parseTitleRange("JUD 2")).toThrow();
    expect(() => parseTitleLine("Nothing: ")).toThrow();
  });

  it.each([
    ["the Good Samaritan", "LUK"],
    ["Jonah and the whale", "JON"],
    ["what happened at Pentecost?", "ACT"],
    ["el buen samaritano", "LUK"],
    ["the whole armour of God", "EPH"],
    ["the armor of God", "EPH"],
    ["the beatitudes", "MAT"],
  ])("when the query is %j, then the matched title points to %s", (q, book) => {
    const m = matchTitles(q).filter((x) => x.entry.kind === "title");
    expect(m[0]?.entry.ranges[0]?.book).toBe(book);
  });

  it("when a longer name matches, then shorter names inside it do not ('death of Jesus' is not the topic death)", () => {
    const m = matchTitles("the death of Jesus");
    expect(m.map((x) => x.entry.names[0])).toEqual(["The crucifixion"]);
  });

  it("when a word only shares a stem with a title, then it does not match ('crossing' is not 'the cross')", () => {
    expect(matchTitles("crossing the lake").map((x) => x.entry.names[0])).not.toContain("The crucifixion");
  });

  it("when the asker puts a few words inside a long name, then it still matches; a two-word name or a wider gap does not", () => {
    const lines = ["The fool says there is no God: PSA 14", "Living water: JHN 4"];
    const entries = lines.map((l) => parseTitleLine(l));
    const names = (q: string) => matchTitles(q, entries).map((x) => x.entry.names[0]);
    expect(names("the fool says in his heart there is no God")).toEqual(["The fool says there is no God"]);
    expect(names("the fool says one thing but in his heart there is no God")).toEqual([]);
    expect(names("living by the water")).toEqual([]);
  });
});

describe("care: chapters a matched care concept avoids", () => {
  it("when the best chapter is avoided, then it falls below the one it outscored; without the avoid list the order is as before", () => {
    const tokens = tokenize("shepherd");
    const plain = ranker.rank({ tokens, dense: null, titles: [] }, 5);
    expect(plain.map(key)).toHaveLength(2);
    const [first, second] = plain.map(key) as [string, string];
    const [book, chapter] = first.split(" ") as [string, string];
    const avoided = ranker.rank({ tokens, dense: null, titles: [], avoid: [{ book, chapter: Number(chapter) }] }, 5);
    expect(avoided.map(key)).toEqual([second, first]);
    expect(avoided[1]!.similarity).toBeCloseTo(plain[0]!.similarity * DEFAULT_FUSION.avoid, 3);
    expect(ranker.rank({ tokens, dense: null, titles: [] }, 5)).toEqual(plain);
  });
});
