/**
 * Words that name Object's own methods ("constructor", "toString", "__proto__", ...) are words like
 * any other in a question, a parameter or an answer: every lookup table keyed by such text must treat
 * them as absent (src/word-table.ts). A fuzzed "constructor love" once made search answer 500.
 */
import { describe, expect, it } from "vitest";
import { parseSearchRequest } from "../../src/http/search/schema.js";
import { findBook, normalizeBookName } from "../../src/scripture/books.js";
import { foldingFor, tokenize as quoteTokens } from "../../src/scripture/quotes/normalize.js";
import { matchConcepts } from "../../src/scripture/search/concepts.js";
import { glossSpanish } from "../../src/scripture/search/spanish.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import { wordTable } from "../../src/word-table.js";

const NAMES = Object.getOwnPropertyNames(Object.prototype).map((n) => n.toLowerCase());

describe("words that name Object's methods", () => {
  it("a table built with wordTable holds only its own keys", () => {
    const table = wordTable({ a: 1 });
    expect(table.a).toBe(1);
    for (const name of [...NAMES, "constructor", "__proto__"]) expect(table[name]).toBeUndefined();
    expect(Object.isFrozen(table)).toBe(true);
  });

  it.each(NAMES)("search tokenizing, Spanish gloss and concepts treat %s as a plain word", (name) => {
    const terms = tokenize(`${name} love`);
    expect(terms.every((t) => typeof t === "string")).toBe(true);
    expect(terms).toContain(tokenize("love")[0]);
    expect(typeof glossSpanish(`¿qué dice la biblia sobre ${name}?`)).toBe("string");
    expect(typeof glossSpanish(`${name} amor`)).toBe("string");
    expect(matchConcepts(`how do i ${name} my temper`).every((m) => typeof m.concept.id === "string")).toBe(true);
  });

  it.each(NAMES)("a book name, a testament and a quotation with %s", (name) => {
    expect(findBook(`${name} 3`)).toBeUndefined();
    expect(typeof normalizeBookName(`${name} john`)).toBe("string");
    expect(() => parseSearchRequest({ q: "love", testament: name }, "q", ["eng-web"])).toThrow(/testament/i);
    for (const bible of ["eng-web", "eng-kjv", "spa-rv1909", name]) {
      const tokens = quoteTokens(`the ${name} of love`, foldingFor(bible));
      expect(tokens.every((t) => typeof t.key === "string")).toBe(true);
    }
  });
});
