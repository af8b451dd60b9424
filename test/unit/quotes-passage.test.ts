import { describe, expect, it } from "vitest";
import { loadBibleLibrary, type Bible } from "../../src/scripture/corpus.js";
import { foldingFor } from "../../src/scripture/quotes/normalize.js";
import { loadPassage } from "../../src/scripture/quotes/passage.js";

const web = loadBibleLibrary().get("eng-web")!;
const folding = foldingFor("eng-web");

/** A translation with the WEB's id whose verses read otherwise (another object, as a test or a reload makes). */
function shadow(of: Bible, text: string): Bible {
  return { ...of, id: of.id, chapter: of.chapter.bind(of), layout: of.layout.bind(of), verses: (book, chapter, from, to) => of.verses(book, chapter, from, to).map((v) => ({ ...v, text })) } as Bible;
}

describe("loadPassage: the passages read last are kept", () => {
  it("when the same passage is asked again, then it is the one read before, and another reference reads its own", () => {
    const chapter = loadPassage(web, { book: "JHN", chapter: 3 }, folding);
    expect(loadPassage(web, { book: "JHN", chapter: 3 }, folding)).toBe(chapter);
    const verse = loadPassage(web, { book: "JHN", chapter: 3, verseStart: 16 }, folding);
    expect(verse).not.toBe(chapter);
    expect(verse.verses).toBe(1);
    expect(verse.wholeChapter).toBe(false);
    expect(chapter.verses).toBe(36);
    expect(chapter.wholeChapter).toBe(true);
    expect(loadPassage(web, { book: "JHN", chapter: 3, verseStart: 16, verseEnd: 17 }, folding).verses).toBe(2);
  });

  it("when another Bible object has the same id, then its own verses are read, not the kept ones", () => {
    const ref = { book: "ROM", chapter: 8, verseStart: 28 };
    const real = loadPassage(web, ref, folding);
    const other = loadPassage(shadow(web, "Other words entirely."), ref, folding);
    expect(other.text).toBe("Other words entirely.");
    expect(real.text).not.toBe(other.text);
    expect(loadPassage(web, ref, folding).text).toBe(real.text);
  });

  it("when many passages have been read since, then an early one is read afresh, with the same words", () => {
    const first = loadPassage(web, { book: "PSA", chapter: 23 }, folding);
    for (let chapter = 1; chapter <= 40; chapter++) loadPassage(web, { book: "GEN", chapter }, folding);
    const again = loadPassage(web, { book: "PSA", chapter: 23 }, folding);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
