import { describe, expect, it } from "vitest";
import { searchResponseBody, TEXT_CACHE_BYTES, textCacheSize } from "../../src/http/search/body.js";

const result = (text: string, extra: Record<string, unknown> = {}) => ({
  reference: "Psalm 46",
  book: "Psalms",
  book_id: "PSA",
  chapter: 46,
  text,
  similarity: 0.5123,
  highlights: [{ verse: 10, text: "“Be still, and know that I am God.”", url: "/read/eng-web/PSA/46#v10" }],
  url: "/read/eng-web/PSA/46",
  ...extra,
});
const body = (results: ReturnType<typeof result>[], query = "be still") => ({ results, query, bible_id: "eng-web", total: results.length, type: "semantic_hybrid", low_confidence: false });
const json = (b: ReturnType<typeof body>) => Buffer.from(JSON.stringify(b), "utf8");

describe("search response body", () => {
  it("when results hold quotes, backslashes, accents, curly quotes, astral and lone surrogate characters, then the bytes are JSON.stringify's, the second time from the cache too", () => {
    const texts = ['He said, "Peace!" \\ / \n\t', "¿Quién era Rut? Moisés, Josué", "God’s word — “a lamp”", "emoji 🙏 and a lone \ud800 surrogate", ""];
    const b = body(texts.map((t) => result(t)), 'a "quoted" query ’ \u0001');
    expect(searchResponseBody(b).equals(json(b))).toBe(true);
    expect(searchResponseBody(b).equals(json(b))).toBe(true);
  });

  it("when there are no results, then the bytes are JSON.stringify's", () => {
    const b = body([]);
    expect(searchResponseBody(b).equals(json(b))).toBe(true);
  });

  it("when a result's other fields hold the stand-in character, then the result is stringified whole and the bytes still match", () => {
    const b = body([result("plain text", { reference: "odd \u0001 reference" }), result("odd \u0001 text")]);
    expect(searchResponseBody(b).equals(json(b))).toBe(true);
  });

  it("when many distinct chapter texts pass through, then the cache stays within its byte budget", () => {
    const chunk = "x".repeat(64 * 1024);
    for (let i = 0; i < (2 * TEXT_CACHE_BYTES) / chunk.length; i++) {
      const b = body([result(`${i} ${chunk}`)]);
      expect(searchResponseBody(b).equals(json(b))).toBe(true);
    }
    const size = textCacheSize();
    expect(size.bytes).toBeLessThanOrEqual(TEXT_CACHE_BYTES);
    expect(size.entries).toBeGreaterThan(0);
  });
});
