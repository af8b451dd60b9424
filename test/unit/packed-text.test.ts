import { describe, expect, it } from "vitest";
import { jsonArrayItems } from "../../src/study/data.js";
import { PackedTexts } from "../../src/study/packed-text.js";

describe("PackedTexts: texts kept deflated, given back whole", () => {
  it("gives back each text as given (two-byte and astral characters, empty texts), undefined outside the range", () => {
    const texts = ["In the beginning", "", "“Blessed” is the man — ‘selah’", "𝔊𝔯𝔢𝔢𝔨 ἀγάπη", "x".repeat(100_000)];
    const packed = new PackedTexts(texts);
    expect(packed.length).toBe(texts.length);
    texts.forEach((t, i) => expect(packed.get(i)).toBe(t));
    for (const i of [-1, texts.length, 1.5, Number.NaN]) expect(packed.get(i)).toBeUndefined();
  });

  it("holds repetitive text in less than its UTF-8 size", () => {
    const chapter = JSON.stringify(Array.from({ length: 40 }, (_, v) => [["and he said", "H559"], " unto them, ", [`verse ${v}`, "H1697"]]));
    const packed = new PackedTexts([chapter, chapter]);
    expect(packed.byteLength).toBeLessThan(Buffer.byteLength(chapter) / 2);
  });
});

describe("jsonArrayItems: a JSON array's elements one at a time", () => {
  const items = (v: unknown, space?: number) => [...jsonArrayItems(Buffer.from(JSON.stringify(v, null, space), "utf8"))].map((t) => JSON.parse(t) as unknown);

  it("gives back every element, whatever its strings hold (brackets, commas, escaped quotes and backslashes, non-ASCII)", () => {
    const rows = [
      [1, 0, 0, null, 'He said, "Come [and] see" {now}, \\ and \\"so\\"'],
      [2, 3, 5, "Exposition", "“Blessed” — ἀγάπη 𝔊, ]]}},,"],
      { nested: [[1, [2]], { a: "]" }] },
      "a string",
      42,
      true,
      null,
    ];
    expect(items(rows)).toEqual(rows);
    expect(items(rows, 2)).toEqual(rows);
    expect(items([])).toEqual([]);
  });

  it("a file that is not a JSON array, or is cut short, is an error, not a short list", () => {
    expect(() => [...jsonArrayItems(Buffer.from('{"a": 1}'))]).toThrow(SyntaxError);
    expect(() => [...jsonArrayItems(Buffer.from('[[1, "x"], [2, "y"'))]).toThrow(SyntaxError);
  });
});
