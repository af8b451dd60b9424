import { describe, expect, it } from "vitest";
import fixtures from "../fixtures/references.json" with { type: "json" };
import { ALL_BOOKS } from "../../src/scripture/books.js";
import { parseReferences } from "../../src/scripture/reference-parser.js";
import { mayOpenPassageQuery } from "../../src/scripture/reference-segments.js";
import {
  findReferences,
  formatReference,
  parsePassageQuery,
  readerPath,
  type ScriptureRef,
} from "../../src/scripture/references.js";

interface Row {
  text: string;
  /** [offset, text as written, reader path] per reference, in order. */
  refs: [number, string, string][];
  note?: string;
}

const rows = fixtures as Row[];

describe("findReferences over the fixture table", () => {
  it("has at least 400 cases, positives and negatives", () => {
    expect(rows.length).toBeGreaterThanOrEqual(400);
    expect(rows.filter((row) => row.refs.length === 0).length).toBeGreaterThanOrEqual(100);
  });

  it.each(rows.map((row) => [row.text, row] as const))("when the text is %j, then it finds exactly the listed references", (_, row) => {
    const found = findReferences(row.text);
    expect(found.map((item) => [item.start, item.text, readerPath(item.ref)])).toEqual(row.refs);
    for (const item of found) expect(row.text.slice(item.start, item.end)).toBe(item.text);
  });
});

describe("findReferences: the passage behind the text", () => {
  const cases: [string, ScriptureRef][] = [
    ["John 3:16", { book: "JHN", chapter: 3, verseStart: 16 }],
    ["Romans 8:28-30", { book: "ROM", chapter: 8, verseStart: 28, verseEnd: 30 }],
    ["Psalm 23", { book: "PSA", chapter: 23 }],
    ["Matthew 5-7", { book: "MAT", chapter: 5, chapterEnd: 7 }],
    ["Genesis 1:1-2:3", { book: "GEN", chapter: 1, verseStart: 1, chapterEnd: 2, verseEnd: 3 }],
    ["Jude 5", { book: "JUD", chapter: 1, verseStart: 5 }],
    ["Jude 1", { book: "JUD", chapter: 1 }],
    ["Psalms 23:1-6", { book: "PSA", chapter: 23, verseStart: 1, verseEnd: 6 }],
    ["John 3:16‑17", { book: "JHN", chapter: 3, verseStart: 16, verseEnd: 17 }],
    ["1 Corintios 13", { book: "1CO", chapter: 13 }],
    ["Apocalipsis 21:4", { book: "REV", chapter: 21, verseStart: 4 }],
  ];
  it.each(cases)("when the text is %j, then the reference is %j", (text, ref) => {
    expect(findReferences(text).map((item) => item.ref)).toEqual([ref]);
  });
});

describe("parsePassageQuery", () => {
  const passages: [string, ScriptureRef][] = [
    ["John 3:16", { book: "JHN", chapter: 3, verseStart: 16 }],
    ["Gen 1", { book: "GEN", chapter: 1 }],
    ["gen 1", { book: "GEN", chapter: 1 }],
    ["1 Cor 13:4-7", { book: "1CO", chapter: 13, verseStart: 4, verseEnd: 7 }],
    ["jn 3 16", { book: "JHN", chapter: 3, verseStart: 16 }],
    ["  psalm 23  ", { book: "PSA", chapter: 23 }],
    ["John 3:16?", { book: "JHN", chapter: 3, verseStart: 16 }],
    ["Romans 8:28, 31", { book: "ROM", chapter: 8, verseStart: 28 }],
    ["juan 3:16", { book: "JHN", chapter: 3, verseStart: 16 }],
    ["salmos 23", { book: "PSA", chapter: 23 }],
    ["is 53", { book: "ISA", chapter: 53 }],
    ["Rev 21", { book: "REV", chapter: 21 }],
    ["Sirach 2:1", { book: "SIR", chapter: 2, verseStart: 1 }],
    ["2 macc 12:45", { book: "2MA", chapter: 12, verseStart: 45 }],
    ["psalm 151", { book: "PS2", chapter: 1 }],
    ["1 Macabeos 2:1", { book: "1MA", chapter: 2, verseStart: 1 }],
  ];
  it.each(passages)("when the query is %j, then it is the passage %j", (query, ref) => {
    expect(parsePassageQuery(query)).toEqual(ref);
  });

  const searches = [
    "John", "love your enemies", "John 3:16 love", "the good shepherd", "", "   ", "John 22:5",
    "Psalm 152", "Susanna 1:1", "John 3:16 and Romans 8:28", "what does John 3:16 mean", "2 cats", "3:16",
  ];
  it.each(searches)("when the query is %j, then it is a search, not a passage", (query) => {
    expect(parsePassageQuery(query)).toBeNull();
  });
});

describe("formatReference and readerPath", () => {
  const cases: [ScriptureRef, string, string, string][] = [
    [{ book: "JHN", chapter: 3, verseStart: 16 }, "John 3:16", "Juan 3:16", "/read/JHN/3?verse=16"],
    [{ book: "ROM", chapter: 8, verseStart: 28, verseEnd: 30 }, "Romans 8:28-30", "Romanos 8:28-30", "/read/ROM/8?verse=28-30"],
    [{ book: "PSA", chapter: 23 }, "Psalm 23", "Salmo 23", "/read/PSA/23"],
    [{ book: "PSA", chapter: 120, chapterEnd: 134 }, "Psalms 120-134", "Salmos 120-134", "/read/PSA/120"],
    [{ book: "GEN", chapter: 1, verseStart: 1, chapterEnd: 2, verseEnd: 3 }, "Genesis 1:1-2:3", "Génesis 1:1-2:3", "/read/GEN/1?verse=1"],
    [{ book: "1CO", chapter: 13 }, "1 Corinthians 13", "1 Corintios 13", "/read/1CO/13"],
    [{ book: "REV", chapter: 21, verseStart: 4 }, "Revelation 21:4", "Apocalipsis 21:4", "/read/REV/21?verse=4"],
    [{ book: "JUD", chapter: 1, verseStart: 5, verseEnd: 5 }, "Jude 1:5", "Judas 1:5", "/read/JUD/1?verse=5"],
    [{ book: "SIR", chapter: 2, verseStart: 1 }, "Sirach 2:1", "Eclesiástico 2:1", "/read/SIR/2?verse=1"],
    [{ book: "2MA", chapter: 12, verseStart: 45 }, "2 Maccabees 12:45", "2 Macabeos 12:45", "/read/2MA/12?verse=45"],
    [{ book: "PS2", chapter: 1, verseStart: 4, verseEnd: 5 }, "Psalm 151:4-5", "Salmo 151:4-5", "/read/PS2/1?verse=4-5"],
    [{ book: "PS2", chapter: 1 }, "Psalm 151", "Salmo 151", "/read/PS2/1"],
  ];
  it.each(cases)("when the reference is %j, then it reads %j / %j and opens %j", (ref, en, es, path) => {
    expect(formatReference(ref, "en")).toBe(en);
    expect(formatReference(ref, "es")).toBe(es);
    expect(readerPath(ref)).toBe(path);
  });

  it("when any fixture reference is formatted in either language, then it parses back to itself", () => {
    for (const row of rows) {
      for (const found of findReferences(row.text)) {
        for (const lang of ["en", "es"] as const) {
          expect(parsePassageQuery(formatReference(found.ref, lang)), `${row.text} (${lang})`).toEqual(found.ref);
        }
      }
    }
  });
});

describe("a passage query needs a digit after a letter", () => {
  // parsePassageQuery skips the parser for a query without one (most search questions); this keeps the
  // premise true if the parser's options change (e.g. a book alone becoming a reference).
  const names = ALL_BOOKS.flatMap((b) => [b.id, b.osis, b.name, b.nameEs, ...b.abbreviations]);
  const texts = names.flatMap((n) => [n, `${n} iii`, `${n} three`, `${n} chapter one`, `first ${n}`, `${n}:`]);
  texts.push("Psalm twenty-three", "Salmo veintitrés", "Juan tres dieciséis", "II Cor xiii", "Ps. cxix", "Jude", "Obadiah", "Philemon");

  it("when a text has no digit after a letter, then the parser finds no reference in it, so skipping it changes nothing", () => {
    expect(texts.length).toBeGreaterThan(1000);
    const found = texts.filter((t) => !/\p{L}.*\d/su.test(t) && parseReferences(t, "query").length > 0);
    expect(found).toEqual([]);
  });

  it("when the query is a reference, then it is still parsed ('Jude 1', 'jn 3 16', '1 Cor 13:4-7')", () => {
    expect(parsePassageQuery("Jude 1")).toMatchObject({ book: "JUD", chapter: 1 });
    expect(parsePassageQuery("jn 3 16")).toMatchObject({ book: "JHN", chapter: 3, verseStart: 16 });
    expect(parsePassageQuery("1 Cor 13:4-7")).toMatchObject({ book: "1CO", chapter: 13, verseStart: 4, verseEnd: 7 });
    expect(parsePassageQuery("how do I forgive my brother")).toBeNull();
  });
});

describe("a passage query opens with a word a book's name can open with (mayOpenPassageQuery)", () => {
  // parsePassageQuery skips the parser (about 1 ms a new text) for a query whose first word opens no
  // book name; this keeps the premise true: wherever the parser reads a reference at the start of a
  // text, the check lets the text through.
  const FILLER = /^[\s,;.:!?&¿¡"'“”-]*$/;
  const ordinals = ["1", "2", "3", "I", "II", "III", "First", "Second", "Third", "1st", "2nd", "3rd", "Primera", "Segunda", "Tercera de", "Cuarta", "1a", "2do", "2to", "1 de", "IV", "4th"];
  const forms = (n: string) => [`${n} 3:16`, `${n.toLowerCase()} 3 16`, `${n}. 2:1`, `¿${n} 1:1?`, `“${n} 1:2”`, `${n}3:16`, `${n.replace(/ /g, "")} 1:1`, `${n.slice(0, 3)} 1:1`, `${n.toUpperCase()} 1:1-4`];
  const texts = ALL_BOOKS.flatMap((b) =>
    [b.id, b.osis, b.name, b.nameEs, ...b.abbreviations].flatMap((label) => {
      const bare = label.replace(/^[1-4]\s*/, "");
      return [...forms(label), ...(bare !== label ? ordinals.flatMap((o) => forms(`${o} ${bare}`)) : [])];
    }),
  );
  texts.push("Letter of Jeremiah 1:3", "Epistle of Jeremy 1:2", "Jeremy's Letter 1:4", "Cantarde los Cantares 2:1", "Deute ronomy 6:4", "San Juan 3:16", "Primera de Juan 4:8");

  it("when the parser reads a reference at a text's start, then the text may open a passage query", () => {
    expect(texts.length).toBeGreaterThan(10_000);
    const opening = texts.filter((t) => {
      const first = parseReferences(t, "query")[0];
      return first !== undefined && FILLER.test(t.slice(0, first.start));
    });
    expect(opening.length).toBeGreaterThan(5_000);
    expect(opening.filter((t) => !mayOpenPassageQuery(t))).toEqual([]);
  });

  it("when a question opens with a word no book's name opens with, then it is no passage query, whatever it names", () => {
    for (const q of ["What does John 3:16 teach about God's love?", "how does Romans 8:28 apply", "Explain Gen 1:1", "¿Qué dice Juan 3:16?"]) {
      expect(mayOpenPassageQuery(q), q).toBe(false);
      expect(parsePassageQuery(q), q).toBeNull();
    }
    expect(parsePassageQuery("Gen3:16")).toEqual({ book: "GEN", chapter: 3, verseStart: 16 });
    expect(parsePassageQuery("  “Cantar de los Cantares 2:1”")).toMatchObject({ book: "SNG", chapter: 2, verseStart: 1 });
  });
});
