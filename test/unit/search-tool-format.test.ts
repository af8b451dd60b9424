import { describe, expect, it } from "vitest";
import { formatSearchResults } from "../../graphs/chat/tools/search-scripture.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import type { SearchResult } from "../../src/scripture/search/search.js";

const web = loadBibleLibrary().get("eng-web")!;
const verse = (book: string, chapter: number, v: number) => web.verses(book, chapter, v)[0]!.text;

function result(book_id: string, book: string, chapter: number, verses: number[], similarity = 0.7): SearchResult {
  const text = web.verses(book_id, chapter, 1, 200).map((v) => v.text).join(" ");
  return {
    reference: `${book} ${chapter}`,
    book,
    book_id,
    chapter,
    text,
    similarity,
    highlights: verses.map((v) => ({ verse: v, text: verse(book_id, chapter, v), url: `/read/${book_id}/${chapter}?verse=${v}` })),
    url: `/read/${book_id}/${chapter}`,
  };
}

describe("what the model reads of a scripture search", () => {
  it("when the search names the verses that matched, then each chapter shows them whole and numbered with a verse either side, not the chapter's opening", () => {
    const out = formatSearchResults([result("MAT", "Matthew", 18, [22, 21]), result("MAT", "Matthew", 6, [12, 14, 15], 0.56)], { bibleId: "eng-web", bible: web });
    const [mat18, mat6] = out.split("\n## ");
    expect(mat18!.split("\n")[0]).toBe("## Matthew 18 (eng-web, relevance 0.70; best verses 21, 22)");
    expect(mat18!.split("\n").slice(1).map((l) => Number(l.split(" ")[0]))).toEqual([20, 21, 22, 23]);
    expect(mat18).toContain(`21 ${verse("MAT", 18, 21)}`);
    expect(mat18).not.toContain(verse("MAT", 18, 1));
    // 11-13, 13-15 and 14-16 join into one run.
    expect(mat6!.split("\n").slice(1, -1).map((l) => Number(l.split(" ")[0]))).toEqual([11, 12, 13, 14, 15, 16]);
    expect(out.trimEnd().endsWith("Use lookup_passage to read a passage in full before quoting beyond what is shown.")).toBe(true);
  });

  it("when the matched verses are far apart or at the chapter's edges, then the gap is marked and no verse is invented", () => {
    const out = formatSearchResults([result("PSA", "Psalm", 23, [1, 6])], { bibleId: "eng-web", bible: web });
    expect(out.split("\n").slice(1, -1)).toEqual([`1 ${verse("PSA", 23, 1)}`, `2 ${verse("PSA", 23, 2)}`, "[…]", `5 ${verse("PSA", 23, 5)}`, `6 ${verse("PSA", 23, 6)}`]);
  });

  it("when the search says its matches are weak, then the result says so first", () => {
    const out = formatSearchResults([result("RUT", "Ruth", 1, [1])], { bibleId: "eng-web", bible: web, lowConfidence: true });
    expect(out.split("\n")[0]).toMatch(/^Weak matches only/);
  });

  it("when the search names no verse, then the chapter's opening is shown as before", () => {
    const r = { ...result("RUT", "Ruth", 1, []), highlights: [] };
    const out = formatSearchResults([r], { bibleId: "eng-web", bible: web });
    expect(out.split("\n")[0]).toBe("## Ruth 1 (eng-web, relevance 0.70)");
    expect(out).toContain(verse("RUT", 1, 1));
  });

  it("when the matched verses are shown, then they cost fewer characters than the chapter opening and clipped verses did", () => {
    const results = [result("MAT", "Matthew", 18, [21, 22]), result("MAT", "Matthew", 6, [12, 14, 15]), result("LUK", "Luke", 17, [3, 4]), result("COL", "Colossians", 3, [13])];
    const before = results
      .map((r) => `## ${r.reference} (eng-web, relevance 0.70)\nBest verses: ${r.highlights.map((h) => `${h.verse} "${h.text.slice(0, 150)}"`).join("; ")}\n${r.text.slice(0, 900)}`)
      .join("\n");
    expect(formatSearchResults(results, { bibleId: "eng-web", bible: web }).length).toBeLessThan(before.length);
  });
});
