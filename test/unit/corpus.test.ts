import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOKS, DEUTEROCANON } from "../../src/scripture/books.js";
import { DEFAULT_BIBLES_DIR, loadBibleLibrary, type Bible, type BibleLibrary } from "../../src/scripture/corpus.js";
import { TRANSLATIONS } from "../../src/scripture/translations.js";

let library: BibleLibrary;
let loadMs = 0;
let loadCpuMs = 0;

beforeAll(() => {
  const start = performance.now();
  const cpu = process.cpuUsage();
  library = loadBibleLibrary();
  // Translations other than the default are read on first use: read them all inside the timing.
  for (const translation of TRANSLATIONS) library.get(translation.id);
  const used = process.cpuUsage(cpu);
  loadMs = performance.now() - start;
  loadCpuMs = (used.user + used.system) / 1000;
});

function bible(id: string): Bible {
  const found = library.get(id);
  if (found === undefined) throw new Error(`${id} not loaded`);
  return found;
}

function verse(bibleId: string, book: string, chapter: number, number: number): string | undefined {
  return bible(bibleId).verses(book, chapter, number)[0]?.text;
}

const IDS = TRANSLATIONS.map((translation) => translation.id);

describe("the Bible library", () => {
  it("loads the three shipped translations with their names and languages", () => {
    expect(library.ids()).toEqual(["eng-web", "eng-kjv", "spa-rv1909"]);
    for (const translation of TRANSLATIONS) {
      expect(bible(translation.id)).toMatchObject({
        id: translation.id,
        name: translation.name,
        language: translation.language,
      });
    }
    expect(library.get("spa-niv-2022")).toBeUndefined();
  });

  // CPU time, not wall time: the figure must not depend on what else the machine runs.
  it("loads all three in well under a second of CPU", () => {
    console.log(`corpus load: ${loadMs.toFixed(0)} ms wall, ${loadCpuMs.toFixed(0)} ms CPU for ${IDS.length} translations`);
    expect(loadCpuMs).toBeLessThan(1000);
  });

  it("fails fast on a data directory without the files", () => {
    expect(() => loadBibleLibrary({ dir: "/nonexistent" })).toThrow(/missing/);
  });

  it("reads the default translation at once and another only when it is first asked for", () => {
    const dir = mkdtempSync(join(tmpdir(), "bc-bibles-"));
    try {
      copyFileSync(join(DEFAULT_BIBLES_DIR, "eng-web.json"), join(dir, "eng-web.json"));
      writeFileSync(join(dir, "eng-kjv.json"), "{ not json");
      const lazy = loadBibleLibrary({ dir, ids: ["eng-web", "eng-kjv"] });
      expect(lazy.ids()).toEqual(["eng-web", "eng-kjv"]);
      expect(lazy.get("eng-web")?.verses("JHN", 3, 16)[0]?.text).toContain("For God so loved the world");
      expect(() => lazy.get("eng-kjv")).toThrow();
      writeFileSync(join(dir, "eng-web.json"), "{ not json");
      expect(() => loadBibleLibrary({ dir, ids: ["eng-web", "eng-kjv"] })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("counts", () => {
  it.each([
    ["eng-web", 31095],
    ["eng-kjv", 31102],
    ["spa-rv1909", 31084],
  ])("%s has 1,189 chapters and %i verses with text", (id, verses) => {
    let chapters = 0;
    let count = 0;
    for (const book of BOOKS) {
      for (let chapter = 1; bible(id).chapter(book.id, chapter) !== undefined; chapter += 1) {
        chapters += 1;
        count += bible(id).chapter(book.id, chapter)?.verses.length ?? 0;
      }
    }
    expect(chapters).toBe(1189);
    expect(count).toBe(verses);
  });

  it("keeps the book table's verse counts equal to the highest verse any translation has", () => {
    for (const book of BOOKS) {
      book.verseCounts.forEach((expected, index) => {
        const highest = Math.max(
          ...IDS.map((id) => bible(id).chapter(book.id, index + 1)?.verses.at(-1)?.verse ?? 0),
        );
        expect(highest, `${book.id} ${index + 1}`).toBe(expected);
      });
    }
  });

  it.each([
    ["LUK", 17, 36], ["ACT", 8, 37], ["ACT", 15, 34], ["ACT", 24, 7], ["ROM", 16, 25], ["ROM", 16, 27],
  ])("the WEB leaves %s %i:%i to a footnote, the KJV has it", (book, chapter, number) => {
    expect(verse("eng-web", book, chapter, number)).toBeUndefined();
    expect(verse("eng-kjv", book, chapter, number)).toBeTruthy();
  });

  it("keeps the WEB's Romans 14:24-26 and 3 John 15 inside the last verse the module numbers", () => {
    expect(verse("eng-web", "ROM", 14, 23)).toContain("to the only wise God, through Jesus Christ");
    expect(verse("eng-web", "3JN", 1, 14)).toMatch(/face to face\. Peace be to you\..*Greet the friends by name\.$/);
  });

  it("keeps the RV1909's own numbering where it follows the Hebrew chapters", () => {
    expect(verse("eng-kjv", "JON", 1, 17)).toMatch(/^Now the LORD had prepared a great fish/);
    expect(verse("spa-rv1909", "JON", 1, 17)).toBeUndefined();
    expect(verse("spa-rv1909", "JON", 2, 1)).toMatch(/^Mas Jehová había prevenido un gran pez/);
  });
});

describe("text", () => {
  it.each([
    ["eng-web", "GEN", 1, 1, "In the beginning, God created the heavens and the earth."],
    ["eng-web", "JHN", 3, 16,
      "For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life."],
    ["eng-web", "PSA", 23, 1, "Yahweh is my shepherd; I shall lack nothing."],
    ["eng-web", "GEN", 4, 1, "The man knew Eve his wife. She conceived, and gave birth to Cain, and said, “I have gotten a man with Yahweh’s help.”"],
    ["eng-kjv", "GEN", 1, 1, "In the beginning God created the heaven and the earth."],
    ["eng-kjv", "JHN", 3, 16,
      "For God so loved the world, that he gave his only begotten Son, that whosoever believeth in him should not perish, but have everlasting life."],
    ["eng-kjv", "PSA", 23, 1, "The LORD is my shepherd; I shall not want."],
    ["eng-kjv", "JHN", 11, 35, "Jesus wept."],
    ["spa-rv1909", "GEN", 1, 1, "En el principio crió Dios los cielos y la tierra."],
    ["spa-rv1909", "JHN", 3, 16,
      "Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito, para que todo aquel que en él cree, no se pierda, mas tenga vida eterna."],
    ["spa-rv1909", "PSA", 23, 1, "Jehová es mi pastor; nada me faltará."],
    ["spa-rv1909", "1CO", 13, 1, "Si yo hablase lenguas humanas y angélicas, y no tengo caridad, vengo á ser como metal que resuena, ó címbalo que retiñe."],
    ["spa-rv1909", "PSA", 119, 1, "Bienaventurados los perfectos de camino; los que andan en la ley de Jehová."],
    ["spa-rv1909", "EXO", 6, 3, "Y aparecí á Abraham, á Isaac y á Jacob bajo el nombre de Dios Omnipotente, mas en mi nombre JEHOVÁ no me notifiqué á ellos."],
  ])("%s %s %i:%i reads as printed", (id, book, chapter, number, text) => {
    expect(verse(id, book, chapter, number)).toBe(text);
  });

  it.each([
    ["eng-web", 3, "A Psalm by David, when he fled from Absalom his son."],
    ["eng-web", 23, "A Psalm by David."],
    ["eng-kjv", 3, "A Psalm of David, when he fled from Absalom his son."],
    ["spa-rv1909", 3, "Salmo de David, cuando huía de delante de Absalom su hijo."],
    ["spa-rv1909", 23, "Salmo de David."],
  ])("%s Psalm %i has its title as the superscription", (id, psalm, title) => {
    expect(bible(id).chapter("PSA", psalm)?.superscription).toBe(title);
  });

  it.each(IDS)("%s: 116 psalms carry a title, Psalm 1 and 119 do not, and no other chapter does", (id) => {
    const titled = BOOKS.flatMap((book) =>
      book.verseCounts.flatMap((_, index) =>
        bible(id).chapter(book.id, index + 1)?.superscription === undefined ? [] : [`${book.id} ${index + 1}`],
      ),
    );
    expect(titled).toHaveLength(116);
    expect(titled.every((ref) => ref.startsWith("PSA "))).toBe(true);
    expect(titled).not.toContain("PSA 1");
    expect(titled).not.toContain("PSA 119");
  });

  it("drops Psalm 119's acrostic letters and the KJV's section titles", () => {
    expect(verse("eng-web", "PSA", 119, 1)).toBe("Blessed are those whose ways are blameless, who walk according to Yahweh’s law.");
    expect(verse("eng-kjv", "PSA", 119, 9)).toMatch(/^Wherewithal shall a young man cleanse his way\?/);
  });

  it.each([
    ["ROM", 16, 27], ["1CO", 16, 24], ["2CO", 13, 13], ["GAL", 6, 18], ["2TI", 4, 22], ["HEB", 13, 25],
  ])("drops the RV1909's epistle subscription after %s %i:%i", (book, chapter, number) => {
    expect(verse("spa-rv1909", book, chapter, number)).toMatch(/Amén\.$/);
  });

  it("drops what follows the last book (the WEB glossary)", () => {
    expect(verse("eng-web", "REV", 22, 21)).toBe("The grace of the Lord Jesus Christ be with all the saints. Amen.");
  });
});

describe("chapter and verse access", () => {
  it("returns a chapter's verses in order with the canonical book id", () => {
    const chapter = bible("eng-web").chapter("jhn", 3);
    expect(chapter?.book).toBe("JHN");
    expect(chapter?.chapter).toBe(3);
    expect(chapter?.verses.map((v) => v.verse)).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
    expect(chapter?.superscription).toBeUndefined();
  });

  it.each([
    ["JHN", 22], ["JHN", 0], ["TOB", 15], ["Juan", 3],
  ])("has no chapter %s %i", (book, chapter) => {
    expect(bible("eng-web").chapter(book, chapter)).toBeUndefined();
  });

  it("returns ranges, skipping verses the translation leaves out", () => {
    expect(bible("eng-web").verses("LUK", 17, 35, 37).map((v) => v.verse)).toEqual([35, 37]);
    expect(bible("eng-kjv").verses("LUK", 17, 35, 37).map((v) => v.verse)).toEqual([35, 36, 37]);
    expect(bible("eng-web").verses("JHN", 21, 24, 99).map((v) => v.verse)).toEqual([24, 25]);
    expect(bible("eng-web").verses("JHN", 21, 30)).toEqual([]);
    expect(bible("eng-web").verses("XYZ", 1, 1)).toEqual([]);
  });
});

describe("the RV1909's drop caps", () => {
  it("opens no chapter with a word in capitals, and keeps the text's own capitals elsewhere", () => {
    const rv = bible("spa-rv1909");
    const capped = BOOKS.flatMap((book) =>
      book.verseCounts.flatMap((_, index) => {
        const first = rv.chapter(book.id, index + 1)?.verses[0]?.text ?? "";
        return /^[¡¿]?(?:\p{L}+\.? )?\p{Lu}{2,}(?!\p{Ll})/u.test(first) ? [`${book.id} ${index + 1}: ${first.slice(0, 30)}`] : [];
      }),
    );
    expect(capped).toEqual([]);
    expect(verse("spa-rv1909", "EXO", 28, 36)).toContain("SANTIDAD Á JEHOVÁ");
    expect(verse("spa-rv1909", "PSA", 147, 1)).toMatch(/^Alabad á JAH/);
    expect(verse("spa-rv1909", "DAN", 5, 25)).toContain("MENE, MENE, TEKEL");
  });
});

describe("the deuterocanon (eng-web only)", () => {
  it("has 14 books, 199 chapters and 6,362 verses with text in the WEB", () => {
    const web = bible("eng-web");
    let chapters = 0;
    let verses = 0;
    for (const book of DEUTEROCANON) {
      for (let chapter = 1; web.chapter(book.id, chapter) !== undefined; chapter += 1) {
        chapters += 1;
        verses += web.chapter(book.id, chapter)?.verses.length ?? 0;
      }
      expect(web.hasBook(book.id), book.id).toBe(true);
    }
    expect(chapters).toBe(199);
    expect(verses).toBe(6362);
  });

  it("keeps the book table's verse counts equal to the WEB's highest verse", () => {
    for (const book of DEUTEROCANON) {
      book.verseCounts.forEach((expected, index) => {
        expect(bible("eng-web").chapter(book.id, index + 1)?.verses.at(-1)?.verse, `${book.id} ${index + 1}`).toBe(expected);
      });
    }
  });

  it.each([
    ["SIR", 2, 1, /^My son, if you come to serve the Lord, prepare your soul for temptation\.$/],
    ["2MA", 12, 45, /those who die in godliness.*he made the atoning sacrifice for those who had died, that they might be released from their sin\.$/],
    ["TOB", 4, 15, /^And what you yourself hate, do to no man\./],
    ["WIS", 7, 26, /^For she is a reflection of everlasting light/],
    ["1MA", 2, 1, /^In those days Mattathias/],
    ["PS2", 1, 1, /^I was small among my brothers/],
  ])("reads %s %i:%i", (book, chapter, number, text) => {
    expect(verse("eng-web", book, chapter, number)).toMatch(text);
  });

  it.each(["eng-kjv", "spa-rv1909"])("%s does not have them", (id) => {
    for (const book of DEUTEROCANON) {
      expect(bible(id).hasBook(book.id)).toBe(false);
      expect(bible(id).chapter(book.id, 1)).toBeUndefined();
    }
    expect(bible(id).hasBook("JHN")).toBe(true);
  });
});

describe("layout (optional data beside the text)", () => {
  it("marks the WEB's Psalm 23 as a stanza of indented lines, leaving the text as it is", () => {
    const layout = bible("eng-web").layout("PSA", 23);
    const first = layout?.verses.find((v) => v.verse === 1);
    expect(first?.marks).toEqual([
      { at: 0, kind: "stanza" },
      { at: 0, kind: "line", indent: 1 },
      { at: 23, kind: "line", indent: 2 },
    ]);
    expect(verse("eng-web", "PSA", 23, 1)?.slice(23)).toBe("I shall lack nothing.");
  });

  it("marks the Magnificat's lines after Mary's words of introduction", () => {
    const marks = bible("eng-web").layout("LUK", 1)?.verses.find((v) => v.verse === 46)?.marks;
    const text = verse("eng-web", "LUK", 1, 46) ?? "";
    const line = marks?.find((mark) => mark.kind === "line");
    expect(text.slice(0, line?.at)).toBe("Mary said, ");
    expect(text.slice(line?.at)).toMatch(/^“My soul magnifies the Lord\./);
  });

  it.each([
    ["eng-web", "PSA", 42, 1, "BOOK 2"],
    ["eng-web", "PSA", 119, 9, "BETH"],
    ["eng-kjv", "PSA", 119, 9, "ב BETH."],
    ["spa-rv1909", "PSA", 119, 9, "BETH"],
    ["eng-web", "BAR", 6, 1, "The Letter of Jeremy (Jeremiah)"],
  ])("%s %s %i has the heading before verse %i: %j", (id, book, chapter, number, heading) => {
    expect(bible(id).layout(book, chapter)?.headings).toContainEqual({ verse: number, text: heading });
  });

  it("decodes a chapter's layout once and shares it frozen", () => {
    const first = bible("eng-web").layout("PSA", 119);
    expect(bible("eng-web").layout("PSA", 119)).toBe(first);
    expect(Object.isFrozen(first?.verses[0]?.marks)).toBe(true);
  });

  it("has no headings in prose chapters and no layout for a chapter that does not exist", () => {
    expect(bible("eng-web").layout("JHN", 3)?.headings).toEqual([]);
    expect(bible("eng-web").layout("JHN", 30)).toBeUndefined();
    expect(bible("eng-kjv").layout("SIR", 1)).toBeUndefined();
  });

  it.each(IDS)("%s: every mark is inside its verse, and lines start at a word", (id) => {
    const b = bible(id);
    const bad: string[] = [];
    let lines = 0;
    for (const book of [...BOOKS, ...DEUTEROCANON]) {
      for (let chapter = 1; b.chapter(book.id, chapter) !== undefined; chapter += 1) {
        for (const { verse: number, marks } of b.layout(book.id, chapter)?.verses ?? []) {
          const text = verse(id, book.id, chapter, number) ?? "";
          for (const mark of marks) {
            if (mark.kind === "line") lines += 1;
            const ok = mark.at >= 0 && mark.at <= text.length && (mark.at === 0 || mark.at === text.length || text[mark.at - 1] === " ");
            if (!ok || (mark.kind !== "stanza-end" && mark.at === text.length)) bad.push(`${book.id} ${chapter}:${number} ${mark.kind}@${mark.at}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
    if (id !== "spa-rv1909") expect(lines).toBeGreaterThan(2000);
  });
});
