import { describe, expect, it } from "vitest";
import { Bm25Index } from "../../src/scripture/search/bm25.js";
import { stem, tokenize, words } from "../../src/scripture/search/tokenizer.js";

describe("tokenizer", () => {
  it.each([
    ["forgiving", "forgiv"],
    ["forgive", "forgiv"],
    ["forgives", "forgiv"],
    ["forgiveness", "forgiv"],
    ["loved", "lov"],
    ["loving", "lov"],
    ["mercies", "merci"],
    ["mercy", "merci"],
    ["merciful", "merci"],
    ["running", "run"],
    ["commandments", "commandment"],
    ["loveth", "lov"],
    ["cross", "cross"],
    ["jesus", "jesus"],
    ["god", "god"],
  ])("when stemming %s, then %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it("when text has apostrophes, accents and stopwords, then only content terms remain", () => {
    expect(words("God’s “Word” — Génesis")).toEqual(["god", "word", "genesis"]);
    expect(tokenize("What does the Bible say about forgiving my brother's sins?")).toEqual(["forgiv", "brother", "sin"]);
  });

  it("when the query is archaic, then it meets the modern wording", () => {
    expect(tokenize("he that loveth")).toEqual(tokenize("he that loves"));
  });
});

describe("BM25", () => {
  const docs = [
    ["shepherd", "sheep", "pastur"],
    ["sheep", "goat"],
    ["king", "david", "king"],
    ["shepherd"],
  ];
  const bm25 = new Bm25Index(docs);

  it("when a rare term is asked, then only documents holding it score and shorter ones score higher", () => {
    const s = bm25.scores(["shepherd"]);
    expect(s[1]).toBe(0);
    expect(s[2]).toBe(0);
    expect(s[3]!).toBeGreaterThan(s[0]!);
  });

  it("when a term is rarer, then its idf is higher", () => {
    expect(bm25.idf("goat")).toBeGreaterThan(bm25.idf("sheep"));
    expect(bm25.idf("absent")).toBe(0);
  });

  it("when a query repeats a term, then it counts once; term frequency saturates", () => {
    expect(Array.from(bm25.scores(["king", "king"]))).toEqual(Array.from(bm25.scores(["king"])));
    const single = new Bm25Index([["king"], ["king", "king"]]).scores(["king"]);
    expect(single[1]! / single[0]!).toBeLessThan(2);
  });
});
