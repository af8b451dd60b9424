import { describe, expect, it } from "vitest";
import { useTestSearch } from "../helpers/chroma.js";

/** Words people remember, on a real index of a few books (real Chroma, real KJV, WEB and RV1909). */
const BOOKS = ["EXO", "RUT", "1SA", "2CH", "JOB", "PSA", "LUK", "PHP"];
const svcOf = useTestSearch({ books: BOOKS });

const search = (query: string, bibleId = "eng-web") => svcOf().search.search({ query, bibleId, limit: 5 });

describe("search: words people remember", () => {
  it("when a line is typed in the KJV's words, then its chapter comes first with the remembered verse highlighted", async () => {
    const { results, lowConfidence } = await search("the battle is the lords");
    expect(`${results[0]?.book_id} ${results[0]?.chapter}`).toBe("1SA 17");
    expect(results[0]!.highlights[0]!.verse).toBe(47);
    expect(lowConfidence).toBe(false);
    const lamp = await search("thy word is a lamp unto my feet");
    expect(`${lamp.results[0]?.book_id} ${lamp.results[0]?.chapter}`).toBe("PSA 119");
    expect(lamp.results[0]!.highlights[0]!.verse).toBe(105);
  });

  it("when the same line is typed in the WEB's words, then it is found too, and the part of it 2 Chronicles holds ranks in the top 5", async () => {
    const { results } = await search("the battle is Yahweh's");
    const chapters = results.map((r) => `${r.book_id} ${r.chapter}`);
    expect(chapters[0]).toBe("1SA 17");
    expect(chapters).toContain("2CH 20");
  });

  it("when a query is only common words, then it is not emptied: the verse that words them is found", async () => {
    const { results, lowConfidence } = await search("i can do all things");
    expect(results[0]?.book_id).toBe("PHP");
    expect(results[0]?.chapter).toBe(4);
    expect(results[0]!.highlights[0]!.text).toMatch(/I can do all things/);
    expect(lowConfidence).toBe(false);
    const full = await search("I can do all things through Christ");
    expect(`${full.results[0]?.book_id} ${full.results[0]?.chapter}`).toBe("PHP 4");
  });

  it("when a query of common words names scripture itself ('the bible'), then it still returns passages", async () => {
    const { results } = await search("the bible");
    expect(results.length).toBeGreaterThan(0);
  });

  it("when the asker reads the RV1909, then a remembered KJV line still finds its chapter, in Spanish", async () => {
    const { results } = await search("the battle is the LORD's", "spa-rv1909");
    expect(results[0]?.reference).toBe("1 Samuel 17");
    expect(results[0]!.highlights[0]!.text).toMatch(/Jehová/);
  });
});

describe("keyword_search: verse-level hits", () => {
  it("when the words are 'be still', then Psalm 46:10 is among the verses, each verse once", async () => {
    const { results } = await svcOf().search.keyword({ query: "be still", bibleId: "eng-web", limit: 10 });
    const refs = results.map((r) => r.reference);
    expect(refs).toContain("Psalm 46:10");
    expect(new Set(refs).size).toBe(refs.length);
    for (const r of results) {
      expect(r.reference).toMatch(/ \d+:\d+$/);
      expect(r.url).toMatch(/^\/read\/[1-3A-Z]{3}\/\d+\?verse=\d+$/);
    }
  });

  it("when a word fills many overlapping windows, then no verse is listed twice and the list spans passages", async () => {
    const { results } = await svcOf().search.keyword({ query: "love", bibleId: "eng-web", limit: 25 });
    const refs = results.map((r) => r.reference);
    expect(refs.length).toBe(25);
    expect(new Set(refs).size).toBe(25);
    expect(new Set(refs.map((r) => r.replace(/:\d+$/, ""))).size).toBeGreaterThan(5);
    for (const r of results) expect(r.text.toLowerCase()).toContain("lov");
  });

  it("when a filter names a book, then every verse is from that book", async () => {
    const { results } = await svcOf().search.keyword({ query: "be still", bibleId: "eng-kjv", book: "PSA", limit: 10 });
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r.reference).toMatch(/^Psalm /);
    expect(results.map((r) => r.reference)).toContain("Psalm 46:10");
  });
});

describe("search: names across languages", () => {
  for (const bibleId of ["eng-web", "spa-rv1909"]) {
    it(`when a Spanish question names Ruth in modern spelling ("Rut"), then Ruth's chapters come first (${bibleId})`, async () => {
      const { results, lowConfidence } = await search("¿Quién era Rut?", bibleId);
      expect(results.length).toBeGreaterThan(0);
      expect(results.slice(0, 3).every((r) => r.book_id === "RUT")).toBe(true);
      expect(lowConfidence).toBe(false);
    });
  }

  it("when a Spanish question names Moisés, then the chapters are Exodus chapters of Moses, not Job or Luke", async () => {
    const { results } = await search("¿Quién fue Moisés?", "spa-rv1909");
    expect(results[0]?.book_id).toBe("EXO");
    expect(results[0]!.text).toMatch(/Moisés/);
    expect(results.slice(0, 3).some((r) => r.book_id === "JOB")).toBe(false);
  });
});
