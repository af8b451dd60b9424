import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { checkQuotes, createQuoteStream } from "../../src/scripture/quotes/index.js";
import { AFTER_LIMIT, BLOCK_LIMIT, QUOTE_LIMIT } from "../../src/scripture/quotes/stream.js";

const library = loadBibleLibrary();
const bible = library.get("eng-web")!;

function streamed(chunks: readonly string[], bibleId = "eng-web"): { out: string; maxHeld: number; quotes: unknown[] } {
  const stream = createQuoteStream({ bible: library.get(bibleId)!, bibles: library });
  let out = "";
  let maxHeld = 0;
  for (const chunk of chunks) {
    out += stream.push(chunk);
    maxHeld = Math.max(maxHeld, stream.held);
  }
  return { out: out + stream.flush(), maxHeld, quotes: [...stream.quotes] };
}

function cut(text: string, points: readonly number[]): string[] {
  const cuts = [...new Set(points.map((point) => point % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let last = 0;
  for (const point of [...cuts, text.length]) {
    chunks.push(text.slice(last, point));
    last = point;
  }
  return chunks;
}

// Pieces of answers as models write them: faithful and misquoted quotations, attributions before,
// after and in parentheses, block quotes, code, references that do not exist.
const FRAGMENTS = [
  "God's love is shown in John 3:16: ",
  '"For God so loved the world, that he gave his one and only Son."',
  '"For God so loved the world, that he gave his only born Son"',
  " (John 3:16)",
  " (Philippians 4:13)",
  '"I can do all things through Christ who strengthens me"',
  "As Romans 8:28 says, ",
  '"all things work together for good for those who love God."',
  "«Porque de tal manera amó Dios al mundo»",
  " (Juan 3:16).",
  '"Blessed are the cheerful" (Matthew 5:49)',
  "Psalm 23 opens with ",
  "“The LORD is my shepherd, I shall not want.”",
  "> For God so loved the world that he gave his one and only Son",
  "> — John 3:16",
  "> I am the way, the truth, and the life.",
  "Jesus says in John 14:6:",
  "`code \"x\" (John 3:16)`",
  "```\n\"quoted in code\" (John 3:16)\n```",
  ' — John 3:16',
  "It is called \"the gospel in a nutshell\"",
  "Amen.",
  "He said \"hello\" to me",
  '"',
  "“",
  "”",
  "«",
  "»",
  " (Philippians 4:12)",
  '"For God so loved the world, that he gave his only born Son," says Jn 3:17',
  "John 3:17 says: ",
  "the KJV reads ",
  '"Charity suffereth long, and is kind"',
  " (1 Corinthians 13:4, KJV)",
  "the NIV has ",
  " (John 3:16, NIV)",
  "Romans 8:28 does not say ",
  '"all things are good"',
  'Under "Immortality" you will find 2Th 2:16',
];
const JOINERS = ["", " ", "\n", ", ", ". ", "\n\n", ": "];

const answerText = fc
  .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom(...JOINERS)), { maxLength: 10 })
  .map((parts) => parts.map(([fragment, joiner]) => fragment + joiner).join(""));
const cutPoints = fc.array(fc.nat(), { maxLength: 30 });
const HOLD_BOUND = QUOTE_LIMIT + AFTER_LIMIT + BLOCK_LIMIT;

describe("createQuoteStream", () => {
  it("when prose holds no quotation mark, then every chunk comes back at once", () => {
    const stream = createQuoteStream({ bible, bibles: library });
    expect(stream.push("God so loved the world that he gave ")).toBe("God so loved the world that he gave ");
    expect(stream.push("his only Son (John 3:16). ")).toBe("his only Son (John 3:16). ");
    expect(stream.held).toBe(0);
  });

  it("when a quotation streams in, then the text before it goes out at once and the quotation once its reference is known", () => {
    const stream = createQuoteStream({ bible, bibles: library });
    expect(stream.push('John 3:16 says: "For God so loved')).toBe("John 3:16 says: ");
    expect(stream.push(" the world, that he gave his one and only Son")).toBe("");
    expect(stream.push('" and ')).toBe('"For God so loved the world, that he gave his only born Son" and ');
    expect(stream.quotes.map((q) => q.status)).toEqual(["corrected"]);
  });

  it("when a quotation is never closed, then the text behind it flows after a bounded wait", () => {
    const stream = createQuoteStream({ bible, bibles: library });
    const long = `"${"and so on ".repeat(70)}`;
    expect(stream.push(long)).toBe(long);
  });
});

describe("properties", () => {
  it("when an answer is chunked anywhere, then the stream equals checkQuotes", () => {
    fc.assert(
      fc.property(answerText, cutPoints, (text, points) => {
        const whole = checkQuotes(text, { bible, bibles: library });
        const parts = streamed(cut(text, points));
        expect(parts.out).toBe(whole.text);
        expect(parts.quotes).toEqual(whole.quotes);
        expect(parts.maxHeld).toBeLessThanOrEqual(HOLD_BOUND);
      }),
      { numRuns: 1500 },
    );
  }, 600_000);

  it("when an answer is streamed one character at a time, then the stream equals checkQuotes", () => {
    fc.assert(
      fc.property(answerText, (text) => {
        expect(streamed([...text]).out).toBe(checkQuotes(text, { bible, bibles: library }).text);
      }),
      { numRuns: 300 },
    );
  }, 600_000);

  it("when any string over quotation characters is chunked anywhere, then the stream equals checkQuotes", () => {
    const alphabet = fc.constantFrom(...'JohnForGdslvewrt3:16 "“”«»()>`\n.,—-PsalmHezkih2'.split(""));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 80 }).map((chars) => chars.join("")), cutPoints, (text, points) => {
        expect(streamed(cut(text, points)).out).toBe(checkQuotes(text, { bible, bibles: library }).text);
      }),
      { numRuns: 1500 },
    );
  }, 600_000);

  it("when the text is any unicode string, then the check never throws and keeps text without quotation marks", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), cutPoints, (text, points) => {
        const whole = checkQuotes(text, { bible, bibles: library }).text;
        expect(streamed(cut(text, points)).out).toBe(whole);
        if (!/["“«>]/.test(text)) expect(whole).toBe(text);
      }),
      { numRuns: 1000 },
    );
  }, 600_000);

  it("when the translation is the KJV or the RV1909, then chunking changes nothing either", () => {
    for (const bibleId of ["eng-kjv", "spa-rv1909"]) {
      fc.assert(
        fc.property(answerText, cutPoints, (text, points) => {
          expect(streamed(cut(text, points), bibleId).out).toBe(checkQuotes(text, { bible: library.get(bibleId)!, bibles: library }).text);
        }),
        { numRuns: 300 },
      );
    }
  }, 600_000);
});
