/**
 * Scans every chapter of every shipped translation for text that is not scripture but sits inside a
 * verse: a glossary, preface or appendix after a book's end (the WEB's glossary once sat inside
 * Revelation 22:21), an epistle subscription ("Fué escrita de Corinto ..."), a translator's note.
 * Each check fails on the defect it looks for; see docs/corpus.md.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_BOOKS } from "../../src/scripture/books.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { TRANSLATIONS } from "../../src/scripture/translations.js";

let library: BibleLibrary;
beforeAll(() => {
  library = loadBibleLibrary();
});

const IDS = TRANSLATIONS.map((translation) => translation.id);

interface Entry { ref: string; book: string; chapter: number; verse: number; text: string }

function entries(bibleId: string): Entry[] {
  const bible = library.get(bibleId);
  if (bible === undefined) throw new Error(`${bibleId} not loaded`);
  const out: Entry[] = [];
  for (const book of ALL_BOOKS) {
    for (let chapter = 1; chapter <= book.verseCounts.length; chapter += 1) {
      const text = bible.chapter(book.id, chapter);
      if (text === undefined) continue;
      if (text.superscription !== undefined) out.push({ ref: `${book.id} ${chapter}:0`, book: book.id, chapter, verse: 0, text: text.superscription });
      for (const v of text.verses) out.push({ ref: `${book.id} ${chapter}:${v.verse}`, book: book.id, chapter, verse: v.verse, text: v.text });
    }
  }
  return out;
}

// The longest genuine verse is 575 characters (RV1909 Job 39:30, which holds the KJV's 40:1-5); an
// appendix is thousands (the WEB glossary was about 60,000).
const LONGEST_VERSE = 800;

// Verses longer than that for a reason that is scripture: the WEB's Greek Esther sets four of the Greek
// additions inside single verses, in square brackets, where they stand in the Greek text.
const LONG_EXPLAINED: Readonly<Record<string, string>> = {
  "eng-web ESG 1:1": "Addition A (Mordecai's dream) before 1:1",
  "eng-web ESG 3:13": "Addition B (the king's first letter)",
  "eng-web ESG 5:1": "Addition D (Esther before the king)",
  "eng-web ESG 8:13": "Addition E (the king's second letter)",
};

// Words that head front or back matter, or close an epistle with its subscription, in either language.
const APPENDIX_MARKERS =
  /\b(?:Glossary|Glosario|Preface|Prefacio|Appendix|Apéndice|Introduction to|Copyright|Public Domain|Dominio público|World English Bible|eBible|Reina[- ]Valera|King James)\b|\bWritten (?:to|from) the \p{Lu}\p{L}+ from\b|\b[Ff]ué escrita (?:de|desde)\b|\bfootnote\b/u;

// A verse more than this many times as long as the same verse in every other translation holds
// something the others do not.
const LENGTH_RATIO = 2.2;
const RATIO_FLOOR = 150;

// Verses that hold more than their peers for a reason that is scripture, not an appendix.
const EXPLAINED: Readonly<Record<string, string>> = {
  // docs/corpus.md: the WEB puts the doxology Romans 16:25-27 after 14:23, inside 14:23.
  "eng-web ROM 14:23": "doxology placed after 14:23",
  // The RV1909 keeps two of its verses in one slot where its numbering differs from the KJV's.
  "spa-rv1909 NUM 13:33": "holds the KJV's 13:32-33",
  "spa-rv1909 JDG 14:20": "holds the KJV's 14:19-20",
  "spa-rv1909 1SA 24:5": "Hebrew numbering of 1 Samuel 24",
  "spa-rv1909 1SA 24:12": "Hebrew numbering of 1 Samuel 24",
  "spa-rv1909 1SA 24:22": "Hebrew numbering of 1 Samuel 24",
  "spa-rv1909 1KI 22:53": "holds the KJV's 22:52-53",
  "spa-rv1909 1CH 21:25": "Hebrew numbering of 1 Chronicles 21",
  "spa-rv1909 2CH 33:10": "holds the KJV's 33:10-11",
  "spa-rv1909 JOB 39:30": "holds the KJV's 40:1-5",
};

describe.each(IDS)("%s has no appendix inside a verse", (id) => {
  it(`has no verse or title longer than ${LONGEST_VERSE} characters`, () => {
    const long = entries(id).filter((entry) => entry.text.length > LONGEST_VERSE).map((entry) => `${id} ${entry.ref}`);
    expect(long.filter((ref) => LONG_EXPLAINED[ref] === undefined)).toEqual([]);
    expect(Object.keys(LONG_EXPLAINED).filter((ref) => ref.startsWith(`${id} `) && !long.includes(ref))).toEqual([]);
  });

  it("has no front matter, back matter or subscription words", () => {
    const marked = entries(id)
      .filter((entry) => APPENDIX_MARKERS.test(entry.text))
      .map((entry) => `${entry.ref}: ${entry.text.match(APPENDIX_MARKERS)?.[0] ?? ""}`);
    expect(marked).toEqual([]);
  });

  it(`has no verse ${LENGTH_RATIO}x as long as the same verse in every other translation, unless explained`, () => {
    const others = IDS.filter((other) => other !== id).map((other) => library.get(other));
    const outliers: string[] = [];
    for (const entry of entries(id)) {
      if (entry.verse === 0 || entry.text.length < RATIO_FLOOR) continue;
      const peers = others.map((bible) => bible?.verses(entry.book, entry.chapter, entry.verse)[0]?.text.length ?? 0).filter((n) => n > 0);
      if (peers.length === 0) continue;
      if (entry.text.length > LENGTH_RATIO * Math.max(...peers)) outliers.push(`${id} ${entry.ref}`);
    }
    const unexplained = outliers.filter((ref) => EXPLAINED[ref] === undefined);
    expect(unexplained).toEqual([]);
    // An explanation that no longer matches anything is stale: remove it.
    const stale = Object.keys(EXPLAINED).filter((ref) => ref.startsWith(`${id} `) && !outliers.includes(ref));
    expect(stale).toEqual([]);
  });

  it("ends every book's last verse as the book ends, not with added matter", () => {
    // The last verse of a book is where back matter lands; it must be no longer than the book's longest
    // other verse (a closing blessing is short).
    const all = entries(id);
    const byBook = new Map<string, Entry[]>();
    for (const entry of all) if (entry.verse > 0) (byBook.get(entry.book) ?? byBook.set(entry.book, []).get(entry.book))?.push(entry);
    const swollen: string[] = [];
    for (const [book, list] of byBook) {
      const last = list.at(-1);
      if (last === undefined || list.length < 2) continue;
      const longestOther = Math.max(...list.slice(0, -1).map((entry) => entry.text.length));
      if (last.text.length > longestOther) swollen.push(`${book}: ${last.ref} ${last.text.length} > ${longestOther}`);
    }
    expect(swollen).toEqual([]);
  });
});

describe("the scan catches the defects it looks for", () => {
  it("flags the WEB glossary as it used to sit in Revelation 22:21", () => {
    const glossary = "The grace of the Lord Jesus Christ be with all the saints. Amen. World English Bible Glossary Abaddon is Hebrew for destruction.";
    expect(APPENDIX_MARKERS.test(glossary)).toBe(true);
    expect(APPENDIX_MARKERS.test("Amén. Fué escrita de Corinto á los Romanos, enviada por medio de Febe")).toBe(true);
    expect(APPENDIX_MARKERS.test("Written to the Romans from Corinthus, and sent by Phebe servant of the church at Cenchrea.")).toBe(true);
    expect(APPENDIX_MARKERS.test("These things I have written to you who believe in the name of the Son of God")).toBe(false);
  });
});
