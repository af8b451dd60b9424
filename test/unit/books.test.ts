import { describe, expect, it } from "vitest";
import {
  ALL_BOOKS,
  BOOKS,
  DEUTEROCANON,
  booksInCanon,
  bookById,
  chapterCount,
  findBook,
  isValidRef,
  normalizeBookName,
  verseCount,
} from "../../src/scripture/books.js";

const USFM_ORDER =
  "GEN EXO LEV NUM DEU JOS JDG RUT 1SA 2SA 1KI 2KI 1CH 2CH EZR NEH EST JOB PSA PRO ECC SNG ISA JER LAM " +
  "EZK DAN HOS JOL AMO OBA JON MIC NAM HAB ZEP HAG ZEC MAL MAT MRK LUK JHN ACT ROM 1CO 2CO GAL EPH PHP " +
  "COL 1TH 2TH 1TI 2TI TIT PHM HEB JAS 1PE 2PE 1JN 2JN 3JN JUD REV";

// OSIS ids as bible-passage-reference-parser and SWORD spell them.
const OSIS_ORDER =
  "Gen Exod Lev Num Deut Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth Job Ps Prov Eccl Song " +
  "Isa Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal Matt Mark Luke John Acts " +
  "Rom 1Cor 2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm Heb Jas 1Pet 2Pet 1John 2John 3John " +
  "Jude Rev";

describe("the book table", () => {
  it("lists the 66 books of the Protestant canon in canonical order", () => {
    expect(BOOKS.map((book) => book.id).join(" ")).toBe(USFM_ORDER);
    expect(BOOKS.map((book) => book.osis).join(" ")).toBe(OSIS_ORDER);
    expect(BOOKS.map((book) => book.order)).toEqual(BOOKS.map((_, index) => index + 1));
  });

  it("splits 39 Old Testament books from 27 New Testament books at Matthew", () => {
    expect(BOOKS.filter((book) => book.testament === "OT")).toHaveLength(39);
    expect(BOOKS.filter((book) => book.testament === "NT")).toHaveLength(27);
    expect(bookById("MAL")?.testament).toBe("OT");
    expect(bookById("MAT")?.testament).toBe("NT");
  });

  it("counts 1,189 chapters and 31,102 verses (KJV versification)", () => {
    const chapters = BOOKS.reduce((sum, book) => sum + book.verseCounts.length, 0);
    const verses = BOOKS.reduce((sum, book) => sum + book.verseCounts.reduce((a, b) => a + b, 0), 0);
    expect(chapters).toBe(1189);
    expect(verses).toBe(31102);
  });

  it.each([
    ["GEN", 50], ["PSA", 150], ["ISA", 66], ["MAL", 4], ["OBA", 1], ["MAT", 28], ["JHN", 21], ["ACT", 28],
    ["ROM", 16], ["PHM", 1], ["2JN", 1], ["3JN", 1], ["JUD", 1], ["REV", 22],
  ])("%s has %i chapters", (id, chapters) => {
    expect(chapterCount(id)).toBe(chapters);
  });

  it("follows the 66 with the WEB's 14 deuterocanonical books, marked by canon", () => {
    expect(DEUTEROCANON.map((book) => book.id).join(" ")).toBe("TOB JDT ESG WIS SIR BAR 1MA 2MA 1ES MAN PS2 3MA 2ES 4MA");
    expect(ALL_BOOKS).toHaveLength(80);
    expect(ALL_BOOKS.map((book) => book.order)).toEqual(ALL_BOOKS.map((_, index) => index + 1));
    expect(BOOKS.every((book) => book.canon === "common")).toBe(true);
    expect(DEUTEROCANON.every((book) => book.canon === "deuterocanon" && book.testament === "OT")).toBe(true);
    expect(DEUTEROCANON.map((book) => [book.id, book.verseCounts.length])).toEqual([
      ["TOB", 14], ["JDT", 16], ["ESG", 10], ["WIS", 19], ["SIR", 51], ["BAR", 6], ["1MA", 16], ["2MA", 15],
      ["1ES", 9], ["MAN", 1], ["PS2", 1], ["3MA", 7], ["2ES", 16], ["4MA", 18],
    ]);
  });

  it("says which canon has which book", () => {
    expect(booksInCanon("protestant")).toEqual(BOOKS);
    expect(booksInCanon("catholic").slice(66).map((book) => book.id)).toEqual(["TOB", "JDT", "ESG", "WIS", "SIR", "BAR", "1MA", "2MA"]);
    expect(booksInCanon("orthodox").slice(66)).toEqual(DEUTEROCANON);
  });

  it("names the deuterocanon in English and Spanish", () => {
    expect(Object.fromEntries(DEUTEROCANON.map((book) => [book.id, [book.name, book.nameEs]]))).toMatchObject({
      TOB: ["Tobit", "Tobías"], SIR: ["Sirach", "Eclesiástico"], WIS: ["Wisdom", "Sabiduría"],
      "1MA": ["1 Maccabees", "1 Macabeos"], "2MA": ["2 Maccabees", "2 Macabeos"], PS2: ["Psalm 151", "Salmo 151"],
    });
  });

  it("carries Spanish names in the Reina-Valera style", () => {
    const names = Object.fromEntries(BOOKS.map((book) => [book.id, book.nameEs]));
    expect(names).toMatchObject({
      GEN: "Génesis", EXO: "Éxodo", SNG: "Cantares", MAT: "Mateo", JHN: "Juan", ACT: "Hechos",
      ROM: "Romanos", "1CO": "1 Corintios", JAS: "Santiago", REV: "Apocalipsis",
    });
  });
});

describe("findBook", () => {
  it.each([
    ["GEN", "GEN"], ["gen", "GEN"], ["Genesis", "GEN"], ["Génesis", "GEN"], ["GENESIS", "GEN"], ["Gn", "GEN"],
    ["Exodus", "EXO"], ["Éxodo", "EXO"], ["exodo", "EXO"], ["Ex", "EXO"],
    ["Judges", "JDG"], ["Jueces", "JDG"], ["Jue", "JDG"],
    ["1 Samuel", "1SA"], ["I Samuel", "1SA"], ["1Sam", "1SA"], ["First Samuel", "1SA"],
    ["2 Kings", "2KI"], ["II Kings", "2KI"], ["2 Reyes", "2KI"], ["2Kgs", "2KI"],
    ["1 Chronicles", "1CH"], ["1 Crónicas", "1CH"],
    ["Psalms", "PSA"], ["Psalm", "PSA"], ["Ps", "PSA"], ["Ps.", "PSA"], ["Salmos", "PSA"], ["Salmo", "PSA"],
    ["Song of Songs", "SNG"], ["Song of Solomon", "SNG"], ["Song", "SNG"], ["Cantares", "SNG"],
    ["Cantar de los Cantares", "SNG"], ["SNG", "SNG"],
    ["Ecclesiastes", "ECC"], ["Eclesiastés", "ECC"], ["Qoheleth", "ECC"],
    ["Isaías", "ISA"], ["Is", "ISA"], ["Ezequiel", "EZK"], ["Ezek", "EZK"], ["Abdías", "OBA"],
    ["Sofonías", "ZEP"], ["Zacarías", "ZEC"], ["Malaquías", "MAL"],
    ["Matthew", "MAT"], ["Mt", "MAT"], ["Mateo", "MAT"], ["San Mateo", "MAT"],
    ["Mark", "MRK"], ["Mc", "MRK"], ["Marcos", "MRK"], ["Mi", "MIC"], ["Micah", "MIC"],
    ["Luke", "LUK"], ["Lucas", "LUK"], ["Lc", "LUK"],
    ["John", "JHN"], ["Jn", "JHN"], ["Juan", "JHN"], ["JUAN", "JHN"], ["Jhn", "JHN"],
    ["Acts", "ACT"], ["Hechos", "ACT"], ["Hch", "ACT"],
    ["Romans", "ROM"], ["Romanos", "ROM"], ["Rom", "ROM"],
    ["1 Cor", "1CO"], ["1co", "1CO"], ["1 Cor.", "1CO"], ["1Cor", "1CO"], ["I Corinthians", "1CO"],
    ["1 Corintios", "1CO"], ["Primera de Corintios", "1CO"], ["2 Corintios", "2CO"],
    ["Gálatas", "GAL"], ["Galatas", "GAL"], ["Filipenses", "PHP"], ["Phil", "PHP"], ["Flp", "PHP"],
    ["Filemón", "PHM"], ["Phlm", "PHM"],
    ["1 Tesalonicenses", "1TH"], ["1 Thess", "1TH"], ["2 Timoteo", "2TI"], ["Tito", "TIT"],
    ["Hebrews", "HEB"], ["Hebreos", "HEB"], ["James", "JAS"], ["Santiago", "JAS"], ["Stg", "JAS"],
    ["1 Pedro", "1PE"], ["1 Pet", "1PE"],
    ["1 John", "1JN"], ["1 Juan", "1JN"], ["1 de Juan", "1JN"], ["1jn", "1JN"], ["3 John", "3JN"],
    ["Jude", "JUD"], ["Judas", "JUD"],
    ["Revelation", "REV"], ["Revelations", "REV"], ["Rev", "REV"], ["Apocalipsis", "REV"], ["Ap", "REV"],
    ["  john  ", "JHN"],
    ["Tobit", "TOB"], ["Tobías", "TOB"], ["Judith", "JDT"], ["Judit", "JDT"], ["Sirach", "SIR"], ["Ecclesiasticus", "SIR"],
    ["Eclesiástico", "SIR"], ["Sir", "SIR"], ["Wisdom", "WIS"], ["Wisdom of Solomon", "WIS"], ["Sabiduría", "WIS"],
    ["1 Maccabees", "1MA"], ["I Maccabees", "1MA"], ["1 Macabeos", "1MA"], ["2 Macc", "2MA"], ["IV Maccabees", "4MA"],
    ["4 Macabeos", "4MA"], ["Baruch", "BAR"], ["Greek Esther", "ESG"], ["1 Esdras", "1ES"], ["2 Esdras", "2ES"],
    ["Prayer of Manasseh", "MAN"], ["Psalm 151", "PS2"], ["Esdras", "EZR"], ["Esther", "EST"],
  ])("finds %j as %s", (query, id) => {
    expect(findBook(query)?.id).toBe(id);
  });

  it.each(["", "Susanna", "Bel and the Dragon", "Maccabees", "Hezekiah", "Juan 3", "4 John", "Book"])(
    "finds nothing for %j",
    (query) => {
      expect(findBook(query)).toBeUndefined();
    },
  );

  it("resolves every id, OSIS id, name and abbreviation back to its own book", () => {
    for (const book of ALL_BOOKS) {
      for (const label of [book.id, book.osis, book.name, book.nameEs, ...book.abbreviations]) {
        expect(findBook(label)?.id, label).toBe(book.id);
      }
    }
  });

  it("folds accents, case, dots and ordinals to one key", () => {
    expect(normalizeBookName("I Corintios")).toBe("1corintios");
    expect(normalizeBookName("1 Cor.")).toBe("1cor");
    expect(normalizeBookName("Éxodo")).toBe("exodo");
  });
});

describe("bookById", () => {
  it("takes USFM ids in any case and nothing else", () => {
    expect(bookById("jhn")?.name).toBe("John");
    expect(bookById("1CO")?.name).toBe("1 Corinthians");
    expect(bookById("John")).toBeUndefined();
  });
});

describe("verse counts and reference validity", () => {
  it.each([
    ["GEN", 1, 31], ["PSA", 117, 2], ["PSA", 119, 176], ["JHN", 3, 36], ["LUK", 17, 37], ["ACT", 15, 41],
    ["ROM", 14, 23], ["ROM", 16, 27], ["3JN", 1, 14], ["REV", 12, 17], ["MAL", 4, 6], ["JUD", 1, 25],
  ])("%s %i has %i verses", (id, chapter, verses) => {
    expect(verseCount(id, chapter)).toBe(verses);
  });

  it.each([
    ["JHN", 3, 16, true], ["JHN", 3, undefined, true], ["Juan", 3, 16, true], ["JHN", 22, 5, false],
    ["JHN", 21, 25, true], ["JHN", 21, 26, false], ["JUD", 1, 25, true], ["JUD", 2, 1, false],
    ["GEN", 0, undefined, false], ["GEN", 1, 0, false], ["GEN", 1.5, undefined, false], ["GEN", 1, 2.5, false],
    ["PSA", 150, 6, true], ["PSA", 151, 1, false], ["TOB", 1, 1, true], ["TOB", 15, 1, false],
    ["2MA", 12, 45, true], ["2MA", 12, 46, false], ["SIR", 51, 30, true], ["Nonsense", 1, 1, false],
  ] as const)("%s %s:%s valid = %s", (book, chapter, verse, valid) => {
    expect(isValidRef(book, chapter, verse)).toBe(valid);
  });

  it("accepts a Book object as well as an id", () => {
    const john = bookById("JHN");
    expect(john).toBeDefined();
    if (john === undefined) return;
    expect(chapterCount(john)).toBe(21);
    expect(isValidRef(john, 3, 16)).toBe(true);
  });

  it("answers 0 for what does not exist", () => {
    expect(chapterCount("XYZ")).toBe(0);
    expect(verseCount("GEN", 51)).toBe(0);
    expect(verseCount("GEN", -1)).toBe(0);
  });
});
