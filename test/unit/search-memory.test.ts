import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { prepareCorpus } from "../../src/scripture/search/index.js";
import type { ChapterSource } from "../../src/scripture/search/types.js";

const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
const only = (books: string[]): ChapterSource => ({ chapter: (b, c) => (books.includes(b) ? web.chapter(b, c) : undefined) });

describe("what the running index keeps of each window", () => {
  it("the ranker (and so the built index) holds the windows' places, not their texts, which stay with the prepared corpus", async () => {
    const prepared = await prepareCorpus(only(["RUT"]));
    try {
      expect(prepared.passages[0]!.text).toContain("judges judged");
      expect(prepared.ranker.passages.length).toBe(prepared.passages.length);
      prepared.ranker.passages.forEach((p, i) => {
        const { text: _text, tags: _tags, ...place } = prepared.passages[i]!;
        expect(p).toEqual(place);
        expect(Object.keys(p)).not.toContain("text");
      });
    } finally {
      await prepared.release();
    }
  });
});
