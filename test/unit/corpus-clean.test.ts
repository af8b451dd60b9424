import { beforeAll, describe, expect, it } from "vitest";
import { ALL_BOOKS as BOOKS } from "../../src/scripture/books.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { TRANSLATIONS } from "../../src/scripture/translations.js";

let library: BibleLibrary;
beforeAll(() => {
  library = loadBibleLibrary();
});

const textsById = new Map<string, { ref: string; text: string }[]>();

/** Every superscription and verse of a translation, with its reference. */
function allTexts(bibleId: string): { ref: string; text: string }[] {
  const cached = textsById.get(bibleId);
  if (cached !== undefined) return cached;
  const bible = library.get(bibleId);
  if (bible === undefined) throw new Error(`${bibleId} not loaded`);
  const out: { ref: string; text: string }[] = [];
  for (const book of BOOKS) {
    for (let chapter = 1; chapter <= book.verseCounts.length; chapter += 1) {
      const text = bible.chapter(book.id, chapter);
      if (text?.superscription !== undefined) out.push({ ref: `${book.id} ${chapter} title`, text: text.superscription });
      for (const v of text?.verses ?? []) out.push({ ref: `${book.id} ${chapter}:${v.verse}`, text: v.text });
    }
  }
  textsById.set(bibleId, out);
  return out;
}

function offenders(bibleId: string, pattern: RegExp): string[] {
  return allTexts(bibleId)
    .filter(({ text }) => pattern.test(text))
    .map(({ ref, text }) => `${ref}: ${text.match(pattern)?.[0] ?? ""}`);
}

const IDS = TRANSLATIONS.map((translation) => translation.id);

describe.each(IDS)("%s is clean text", (id) => {
  it.each([
    ["markup", /[<>]|&(amp|lt|gt|quot|apos);/],
    ["USFM markers", /\\/],
    ["control characters", /[\u0000-\u001f]/],
    ["pilcrows", /¶/],
    ["doubled or edge whitespace", /\s{2}|^\s|\s$/],
    ["a space before a comma, period, semicolon or colon", /\S* [,.;:]/],
    // A lower-case letter straight before an upper-case one is how cut markup glues words ("theLORD").
    ["lowercase-uppercase joins", /\S*\p{Ll}\p{Lu}\S*/u],
    // The end of a quotation glued to the next sentence ("me?”He said", 19 WEB verses once).
    ["a letter or digit straight after a closing quotation mark", /\S*[”»][\p{L}\p{N}]\S*/u],
    ["a letter or digit straight before an opening quotation mark", /\S*[\p{L}\p{N}][“«]\S*/u],
    ["a letter straight after a comma, semicolon, colon, question or exclamation mark", /\S*\p{L}[,;:?!]\p{L}\S*/u],
    ["a letter straight after a full stop and before a capital", /\S*\p{L}\.\p{Lu}\S*/u],
    ["letters glued to digits", /\S*(?:\p{L}\p{N}|\p{N}\p{L})\S*/u],
    // A space left where markup ended: "me?’ ”", "come’ ?”" (the WEB prints "me?’”" and "come’?”" elsewhere).
    ["a space before a closing quotation mark or bracket", /\S* [”»)\]]/u],
    ["a space before a question or exclamation mark", /\S* [?!]/u],
    ["a space after an opening quotation mark or bracket", /[“«(\[¿¡] \S*/u],
  ])("has no %s", (_, pattern) => {
    expect(offenders(id, pattern)).toEqual([]);
  });

  it("has no empty verse", () => {
    expect(allTexts(id).filter(({ text }) => text === "")).toEqual([]);
  });
});

// Spots where the modules put a footnote, a title or a supplied word flush between two words: stripping
// markup naively glues them ("Godcreated"). Each pair must appear separated, and never glued anywhere.
const JOINS: [string, string, number, number, string, string][] = [
  ["eng-web", "GEN", 1, 1, "God", "created"],
  ["eng-web", "GEN", 4, 1, "knew", "Eve"],
  ["eng-web", "JHN", 3, 16, "born", "Son"],
  ["eng-web", "MAT", 3, 13, "Jordan", "to"],
  ["eng-web", "PSA", 104, 4, "messengers", "winds"],
  ["eng-web", "EZK", 1, 26, "sapphire", "stone"],
  ["eng-web", "MRK", 1, 4, "baptizing", "in"],
  ["eng-web", "EPH", 4, 11, "shepherds", "and"],
  ["eng-web", "REV", 20, 14, "Hades", "were"],
  ["eng-kjv", "PSA", 3, 1, "LORD,", "how"],
  ["spa-rv1909", "2KI", 18, 2, "madre fué", "Abi"],
  ["spa-rv1909", "JDG", 4, 2, "se llamaba", "Sísara"],
  ["spa-rv1909", "2CH", 3, 3, "Estas", "son las medidas de que Salomón"],
  ["spa-rv1909", "JDG", 4, 2, "ejército", "se llamaba"],
];

describe("no glued words", () => {
  it.each(JOINS)("%s %s %i:%i reads %j %j with a space", (id, book, chapter, number, left, right) => {
    const text = library.get(id)?.verses(book, chapter, number)[0]?.text ?? "";
    expect(text).toContain(`${left} ${right}`);
  });

  it.each(IDS)("%s never has one of the known pairs glued", (id) => {
    const glued = JOINS.map(([, , , , left, right]) => `${left}${right}`);
    const found = allTexts(id).filter(({ text }) => glued.some((join) => text.includes(join)));
    expect(found).toEqual([]);
  });

  it("keeps the RV1909's enclitic pronouns on their verb and free pronouns apart", () => {
    const rv = allTexts("spa-rv1909").map(({ text }) => text).join("\n");
    expect(rv).toContain("oyéndolo");
    expect(rv).toMatch(/Josué los /);
    expect(rv).not.toMatch(/Josuélos/);
  });

  it("keeps the KJV's words that the module splits across elements whole", () => {
    const kjv = allTexts("eng-kjv").map(({ text }) => text).join("\n");
    expect(kjv).toMatch(/\binasmuch\b/);
    expect(kjv).not.toMatch(/\bin asmuch\b/);
  });
});
