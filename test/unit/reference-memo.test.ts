import { describe, expect, it } from "vitest";
import { MEMO_BYTES, memoSize, parseReferences } from "../../src/scripture/reference-parser.js";

describe("the reference parser's memo is bounded in bytes, not only in entries", () => {
  it("when thousands of distinct long texts are parsed, then the memo stays under MEMO_BYTES and keeps working", () => {
    const filler = "and so it was written long ago ".repeat(12);
    for (let i = 0; i < 3000; i++) parseReferences(`${filler} John 3:${(i % 36) + 1} ${i}`, "prose");
    const { entries, bytes } = memoSize();
    expect(bytes).toBeLessThanOrEqual(MEMO_BYTES);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(3000);
    expect(parseReferences("See John 3:16.", "prose").map((f) => f.ref)).toEqual([{ book: "JHN", chapter: 3, verseStart: 16 }]);
  });

  it("when one text is too large for the memo, then it is parsed and not kept", () => {
    const before = memoSize().bytes;
    const huge = `${"word ".repeat(30_000)}John 3:16`;
    expect(parseReferences(huge, "prose").length).toBeGreaterThanOrEqual(0);
    expect(memoSize().bytes - before).toBeLessThan(MEMO_BYTES / 16);
  });
});
