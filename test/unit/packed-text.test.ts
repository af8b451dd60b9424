import { describe, expect, it } from "vitest";
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
