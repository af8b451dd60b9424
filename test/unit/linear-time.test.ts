import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { limitWords } from "../../graphs/chat/answer/word-limit.js";
import { classifyByRules, needsCare } from "../../graphs/chat/preflight-rules.js";
import { distressModelProbability } from "../../graphs/chat/distress/rules.js";
import { detectCrisisLanguage, detectLanguage } from "../../src/prompts/language.js";
import { prefetchCalls } from "../../graphs/chat/prefetch.js";
import { HumanMessage } from "@langchain/core/messages";
import { parseSearchRequest } from "../../src/http/search/schema.js";
import { findBook } from "../../src/scripture/books.js";
import { loadBibleLibrary, type Bible } from "../../src/scripture/corpus.js";
import { convertLinks, createLinkStream } from "../../src/scripture/links.js";
import { checkQuotes, createQuoteStream } from "../../src/scripture/quotes/index.js";
import { findReferences, formatReference, parsePassageQuery, prepareReferences } from "../../src/scripture/references.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import { capMarkRuns, foldMarks } from "../../src/unicode.js";

/**
 * Each text path, fed long runs of the shapes that were super-linear (combining marks with descending
 * classes, "John 3 ", "www.", "{{", "a", ...), takes time that grows linearly: the time at 8n over the
 * time at n stays far below the 64 a quadratic path shows (linear is 8; the bound leaves room for a
 * machine shared with a whole test suite). Ratios, not absolute timings: the machine is
 * shared. Each time is the best of three runs, and tiny times are floored so noise cannot make a ratio.
 */
const SHAPES = [
  "\u0301\u0316\u0334\u0345", "John 3 ", "John 3:16-", "Jn 3; ", "1:1-", "www.", "{{", "${", "a", "a@", "[a](", '"a ', "& ", " ", "\n", "`", "<", "(",
  // The distress rules' phrase and hyperbole shapes of session 12 (set 5's kinds, EVERYDAY_DEATH and its lookaheads).
  "dying to ", "kill for a ", "me muero de ganas ", "morrendo de vontade ", "d'envie de ", "lol im dead ",
  // Set 6's kinds (bounded free words after a goodbye, a means after "die from").
  "goodbye ", "can you die from ", "adeus ",
  // Session 18's lexicon kinds (bounded free words before a verb, lookaheads after "nicht mehr da" and "ya no voy a estar").
  "hab mich ", "hang mich ", "keiner merkt ", "morgen bin ich nicht mehr da ", "er bringt mich ", "je me suis coupe ",
  "me voy a tirar a las ", "tomei uma caixa inteira ", "ya no voy a estar ", "hide my ", "no strength left to ",
  // Session 19's kinds (bounded free words before "so its quick", after "exhaust", around a drink, a gun, a garage).
  "deep ", "exhaust ", "so its ", "took all my ", "there is so much blood ", "im 14 and he s 30 ", "sitze im auto ",
  "in mein glas ", "gas ", "la soga esta lista ", "altura ", "pienso en irme con ", "llevo 3 dias sin comer ",
];
const N = 3000;
const GROWTH = 8;
const RATIO = 24;
const FLOOR_MS = 3;

const shape = fc.array(fc.constantFrom(...SHAPES), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""));
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const prefixed = fc.tuple(fc.constantFrom("", "J", "a", "John 3:16 "), shape);

function bestOf(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * The path at n and 8n characters of the same shape: linear means a ratio near 8. A pause of the shared
 * machine can spoil one measurement, never three in a row, so the best of three attempts counts; a
 * quadratic path fails all three.
 */
/**
 * Each run reads a text no run read before (a numbered ending): the distress rules keep their reading of
 * recent short texts, so a repeated small text would cost nothing and the ratio would measure the memo.
 */
let runs = 0;
const fresh = (text: string) => `${text} ${++runs}`;

function growth(path: (text: string) => unknown, head: string, unit: string): { small: number; large: number; ratio: number } {
  path(head + fill(unit, 64)); // warm the code path
  let best = { small: 0, large: 0, ratio: Infinity };
  for (let attempt = 0; attempt < 3 && best.ratio >= RATIO; attempt++) {
    const small = bestOf(() => path(fresh(head + fill(unit, N))));
    const large = bestOf(() => path(fresh(head + fill(unit, GROWTH * N))));
    const ratio = large / Math.max(small, FLOOR_MS);
    if (ratio < best.ratio) best = { small, large, ratio };
  }
  return best;
}

function linear(path: (text: string) => unknown) {
  fc.assert(
    fc.property(prefixed, ([head, unit]) => {
      const { ratio, small, large } = growth(path, head, unit);
      expect(ratio, `${JSON.stringify(head + unit.slice(0, 12))}: ${small.toFixed(1)} ms at ${N}, ${large.toFixed(1)} ms at ${GROWTH * N}`).toBeLessThan(RATIO);
    }),
    { numRuns: 12 },
  );
}

let bible: Bible;
beforeAll(() => {
  prepareReferences();
  bible = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
});

const ids = ["eng-web", "eng-kjv", "spa-rv1909"];
const rejected = (run: () => unknown) => {
  try {
    run();
  } catch {
    // a 400 for an over-long text is the expected outcome; its cost is what is measured
  }
};

describe("text work grows linearly with the text, whatever it holds", () => {
  it("when the search path gets a long query or book, then validation, folding and tokenizing stay linear", () => {
    linear((text) => {
      rejected(() => parseSearchRequest({ q: text, book: text }, "q", ids));
      findBook(text);
      tokenize(text);
      parsePassageQuery(text);
    });
  });

  it("when the passage path (lookup_passage, the reader's reference box) gets a long reference, then it stays linear", () => {
    linear((text) => {
      parsePassageQuery(text);
      findBook(text);
      foldMarks(text);
    });
  });

  it("when an MCP tool's arguments are long, then the schema check that refuses them stays linear", async () => {
    const { SEARCH_SCRIPTURE_SCHEMA } = await import("../../graphs/chat/tools/search-scripture.js");
    const { lookupPassageSchema } = await import("../../graphs/chat/tools/lookup-passage.js");
    const passage = lookupPassageSchema(ids);
    linear((text) => {
      SEARCH_SCRIPTURE_SCHEMA.safeParse({ query: text, book: text });
      passage.safeParse({ reference: text });
    });
  });

  it("when a chat message is long, then the preflight rules, the care check and the prefetch plan stay linear", () => {
    const references = { parsePassageQuery, formatReference, findReferences };
    linear((text) => {
      classifyByRules(text, (t) => parsePassageQuery(t) !== null, { earlierUserTexts: [text] });
      needsCare([text, text]);
      prefetchCalls({ references }, { bibleId: "eng-web" } as never, [new HumanMessage(text)]);
    });
  });

  it("when a chat message is long, then the learned distress reader's features and probability stay linear", () => {
    linear((text) => distressModelProbability(text));
  });

  it("when a chat message is long, then the language guesses for canned and crisis replies stay linear", () => {
    linear((text) => {
      detectLanguage(text);
      detectCrisisLanguage(text);
    });
  });

  it("when a model answer is long, then the word limit, the quotation check and link conversion stay linear, whole and streamed", () => {
    linear((text) => {
      limitWords(text, 2000);
      checkQuotes(text, { bible });
      convertLinks(text);
      const links = createLinkStream();
      const quotes = createQuoteStream({ bible });
      for (let i = 0; i < text.length; i += 7) {
        links.push(text.slice(i, i + 7));
        quotes.push(text.slice(i, i + 7));
      }
      links.flush();
      quotes.flush();
    });
  });
});

describe("combining marks", () => {
  it("when a run of combining marks is longer than 30, then it is cut to 30 and shorter runs are kept", () => {
    const marks = "\u0301\u0316\u0334\u0345";
    expect(capMarkRuns(`a${marks.repeat(100)}b`)).toBe(`a${marks.repeat(7)}\u0301\u0316b`);
    expect(capMarkRuns("Génesis e\u0301\u0301")).toBe("Génesis e\u0301\u0301");
  });

  it("when a book name carries thousands of marks, then it folds at once and names no book", () => {
    expect(findBook(`J${"\u0301\u0316\u0334\u0345".repeat(60_000)}`)).toBeUndefined();
    expect(findBook("Génesis")?.id).toBe("GEN");
  });
});
