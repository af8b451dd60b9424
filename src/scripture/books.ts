/**
 * The book table: the 66 books every Christian canon has (`BOOKS`, in canonical order), then the
 * deuterocanonical books the WEB module carries (`DEUTEROCANON`), with the names and abbreviations
 * callers use in English and Spanish. Verse counts follow the KJV versification that all three shipped
 * SWORD modules use for the 66, and the WEB module's numbering for the deuterocanon (see docs/corpus.md);
 * test/unit/corpus.test.ts keeps them equal to the corpus.
 */
import { wordTable } from "../word-table.js";
import { foldMarks } from "../unicode.js";

export type Testament = "OT" | "NT";

/** "common": in every Christian canon (the 66); "deuterocanon": in the Catholic and/or Orthodox canon only. */
export type CanonSection = "common" | "deuterocanon";

/** The canons a theology can name in its front matter (`canon: catholic`). */
export const CANONS = ["protestant", "catholic", "orthodox"] as const;
export type Canon = (typeof CANONS)[number];

export interface Book {
  /** USFM id: "GEN", "1CO". */
  readonly id: string;
  /** OSIS id as SWORD and bible-passage-reference-parser spell it: "Gen", "1Cor". */
  readonly osis: string;
  readonly name: string;
  /** Reina-Valera style Spanish name. */
  readonly nameEs: string;
  readonly abbreviations: readonly string[];
  readonly testament: Testament;
  /** Which part of the table the book is in; search ranks only "common" books unless asked. */
  readonly canon: CanonSection;
  /** The canons that include the book: every one for the 66; see DEUTEROCANON for the others. */
  readonly canons: readonly Canon[];
  /** 1-based position in the table (the 66 first, then the deuterocanon). */
  readonly order: number;
  /** verseCounts[c - 1] is the number of verses in chapter c. */
  readonly verseCounts: readonly number[];
}

type Row = readonly [id: string, osis: string, name: string, nameEs: string, abbreviations: string, verseCounts: string];
type DeuteroRow = readonly [...Row, canons: string];

const OLD_TESTAMENT_BOOKS = 39;

// Generated from the SWORD modules (max verse number with text in any shipped translation).
const ROWS: readonly Row[] = [
  ["GEN", "Gen", "Genesis", "Génesis", "Gen|Gn|Ge",
    "31 25 24 26 32 22 24 22 29 32 32 20 18 24 21 16 27 33 38 18 34 24 20 67 34 35 46 22 35 43 55 32 20 31 29 43 36 30 23 23 57 38 34 34 28 34 31 22 33 26"],
  ["EXO", "Exod", "Exodus", "Éxodo", "Exod|Exo|Ex",
    "22 25 22 31 23 30 25 32 35 29 10 51 22 31 27 36 16 27 25 26 36 31 33 18 40 37 21 43 46 38 18 35 23 35 35 38 29 31 43 38"],
  ["LEV", "Lev", "Leviticus", "Levítico", "Lev|Lv|Le",
    "17 16 17 35 19 30 38 36 24 20 47 8 59 57 33 34 16 30 37 27 24 33 44 23 55 46 34"],
  ["NUM", "Num", "Numbers", "Números", "Num|Nm|Nu",
    "54 34 51 49 31 27 89 26 23 36 35 16 33 45 41 50 13 32 22 29 35 41 30 25 18 65 23 31 40 16 54 42 56 29 34 13"],
  ["DEU", "Deut", "Deuteronomy", "Deuteronomio", "Deut|Deu|Dt",
    "46 37 29 49 33 25 26 20 29 22 32 32 18 29 23 22 20 22 21 20 23 30 25 22 19 19 26 68 29 20 30 52 29 12"],
  ["JOS", "Josh", "Joshua", "Josué", "Josh|Jos|Jsh",
    "18 24 17 24 15 27 26 35 27 43 23 24 33 15 63 10 18 28 51 9 45 34 16 33"],
  ["JDG", "Judg", "Judges", "Jueces", "Judg|Jdg|Jg|Jue",
    "36 23 31 24 31 40 25 35 57 18 40 15 25 20 20 31 13 31 30 48 25"],
  ["RUT", "Ruth", "Ruth", "Rut", "Ru|Rt",
    "22 23 18 22"],
  ["1SA", "1Sam", "1 Samuel", "1 Samuel", "1 Sam|1 Sa|1 Sm|1S",
    "28 36 21 22 12 21 17 22 27 27 15 25 23 52 35 23 58 30 24 42 15 23 29 22 44 25 12 25 11 31 13"],
  ["2SA", "2Sam", "2 Samuel", "2 Samuel", "2 Sam|2 Sa|2 Sm|2S",
    "27 32 39 12 25 23 29 18 13 19 27 31 39 33 37 23 29 33 43 26 22 51 39 25"],
  ["1KI", "1Kgs", "1 Kings", "1 Reyes", "1 Kgs|1 Ki|1 Kin|1 Re|1 Rey",
    "53 46 28 34 18 38 51 66 28 29 43 33 34 31 34 34 24 46 21 43 29 53"],
  ["2KI", "2Kgs", "2 Kings", "2 Reyes", "2 Kgs|2 Ki|2 Kin|2 Re|2 Rey",
    "18 25 27 44 27 33 20 29 37 36 21 21 25 29 38 20 41 37 37 21 26 20 37 20 30"],
  ["1CH", "1Chr", "1 Chronicles", "1 Crónicas", "1 Chr|1 Chron|1 Ch|1 Cr|1 Cro",
    "54 55 24 43 26 81 40 40 44 14 47 40 14 17 29 43 27 17 19 8 30 19 32 31 31 32 34 21 30"],
  ["2CH", "2Chr", "2 Chronicles", "2 Crónicas", "2 Chr|2 Chron|2 Ch|2 Cr|2 Cro",
    "17 18 17 22 14 42 22 18 31 19 23 16 22 15 19 14 19 34 11 37 20 12 21 27 28 23 9 27 36 27 21 33 25 33 27 23"],
  ["EZR", "Ezra", "Ezra", "Esdras", "Ezr|Esd",
    "11 70 13 24 17 22 28 36 15 44"],
  ["NEH", "Neh", "Nehemiah", "Nehemías", "Neh|Ne",
    "11 20 32 23 19 19 73 18 38 39 36 47 31"],
  ["EST", "Esth", "Esther", "Ester", "Esth|Est|Es",
    "22 23 15 17 14 14 10 17 32 3"],
  ["JOB", "Job", "Job", "Job", "Jb",
    "22 13 26 21 27 30 21 22 35 22 20 25 28 22 35 22 16 21 29 29 34 30 17 25 6 14 23 28 25 31 40 22 33 37 16 33 24 41 30 24 34 17"],
  ["PSA", "Ps", "Psalms", "Salmos", "Psalm|Ps|Psa|Pss|Psm|Sal|Salmo|Sl",
    "6 12 8 8 12 10 17 9 20 18 7 8 6 7 5 11 15 50 14 9 13 31 6 10 22 12 14 9 11 12 24 11 22 22 28 12 40 22 13 17 13 11 5 26 17 11 9 14 20 23 19 9 6 7 23 13 11 11 17 12 8 12 11 10 13 20 7 35 36 5 24 20 28 23 10 12 20 72 13 19 16 8 18 12 13 17 7 18 52 17 16 15 5 23 11 13 12 9 9 5 8 28 22 35 45 48 43 13 31 7 10 10 9 8 18 19 2 29 176 7 8 9 4 8 5 6 5 6 8 8 3 18 3 3 21 26 9 8 24 13 10 7 12 15 21 10 20 14 9 6"],
  ["PRO", "Prov", "Proverbs", "Proverbios", "Prov|Pro|Prv|Pr",
    "33 22 35 27 23 35 27 36 18 32 31 28 25 35 33 33 28 24 29 30 31 29 35 34 28 28 27 28 27 33 31"],
  ["ECC", "Eccl", "Ecclesiastes", "Eclesiastés", "Eccl|Eccles|Ecc|Ec|Qoh|Qoheleth|Ecl",
    "18 26 22 16 20 12 29 17 18 20 10 14"],
  ["SNG", "Song", "Song of Solomon", "Cantares", "Song of Songs|Song|Sng|SoS|Canticles|Cant|Cantar de los Cantares|Cantar|Cnt|So",
    "17 17 11 16 16 13 13 14"],
  ["ISA", "Isa", "Isaiah", "Isaías", "Isa|Is",
    "31 22 26 6 30 13 25 22 21 34 16 6 22 32 9 14 14 7 25 6 17 25 18 23 12 21 13 29 24 33 9 20 24 17 10 22 38 22 8 31 29 25 28 28 25 13 15 22 26 11 23 15 12 17 13 12 21 14 21 22 11 12 19 12 25 24"],
  ["JER", "Jer", "Jeremiah", "Jeremías", "Jer|Jr",
    "19 37 25 31 31 30 34 22 26 25 23 17 27 22 21 21 27 23 15 18 14 30 40 10 38 24 22 17 32 24 40 44 26 22 19 32 21 28 18 16 18 22 13 30 5 28 7 47 39 46 64 34"],
  ["LAM", "Lam", "Lamentations", "Lamentaciones", "Lam|Lm|La",
    "22 22 66 22 22"],
  ["EZK", "Ezek", "Ezekiel", "Ezequiel", "Ezek|Ezk|Eze|Ez",
    "28 10 27 17 17 14 27 18 11 22 25 28 23 23 8 63 24 32 14 49 32 31 49 27 17 21 36 26 21 26 18 32 33 31 15 38 28 23 29 49 26 20 27 31 25 24 23 35"],
  ["DAN", "Dan", "Daniel", "Daniel", "Dan|Dn|Da",
    "21 49 30 37 31 28 28 27 27 21 45 13"],
  ["HOS", "Hos", "Hosea", "Oseas", "Hos|Os|Ho",
    "11 23 5 19 15 11 16 14 17 15 12 14 16 9"],
  ["JOL", "Joel", "Joel", "Joel", "Jl|Joe",
    "20 32 21"],
  ["AMO", "Amos", "Amos", "Amós", "Am|Amo",
    "15 16 15 13 27 14 17 14 15"],
  ["OBA", "Obad", "Obadiah", "Abdías", "Obad|Oba|Ob|Abd",
    "21"],
  ["JON", "Jonah", "Jonah", "Jonás", "Jon|Jnh",
    "17 10 10 11"],
  ["MIC", "Mic", "Micah", "Miqueas", "Mic|Mi|Miq",
    "16 13 12 13 15 16 20"],
  ["NAM", "Nah", "Nahum", "Nahúm", "Nah|Nam|Na",
    "15 13 19"],
  ["HAB", "Hab", "Habakkuk", "Habacuc", "Hab|Hb",
    "17 20 19"],
  ["ZEP", "Zeph", "Zephaniah", "Sofonías", "Zeph|Zep|Zp|Sof",
    "18 15 20"],
  ["HAG", "Hag", "Haggai", "Hageo", "Hag|Hg",
    "15 23"],
  ["ZEC", "Zech", "Zechariah", "Zacarías", "Zech|Zec|Zc|Zac",
    "21 13 10 14 11 15 14 23 17 12 17 14 9 21"],
  ["MAL", "Mal", "Malachi", "Malaquías", "Mal|Ml",
    "14 17 18 6"],
  ["MAT", "Matt", "Matthew", "Mateo", "Matt|Mat|Mt|San Mateo",
    "25 23 17 25 48 34 29 34 38 42 30 50 58 36 39 28 27 35 30 34 46 46 39 51 46 75 66 20"],
  ["MRK", "Mark", "Mark", "Marcos", "Mrk|Mk|Mr|Mar|Mc|San Marcos",
    "45 28 35 41 43 56 37 38 50 52 33 44 37 72 47 20"],
  ["LUK", "Luke", "Luke", "Lucas", "Luk|Lk|Lu|Lc|San Lucas",
    "80 52 38 44 39 49 50 56 62 42 54 59 35 35 32 31 37 43 48 47 38 71 56 53"],
  ["JHN", "John", "John", "Juan", "Jhn|Jn|Joh|San Juan",
    "51 25 36 54 47 71 53 59 41 42 57 50 38 31 27 33 26 40 42 31 25"],
  ["ACT", "Acts", "Acts", "Hechos", "Act|Ac|Acts of the Apostles|Hch|Hech|Hechos de los Apóstoles",
    "26 47 26 37 42 15 60 40 43 48 30 25 52 28 41 40 34 28 41 38 40 30 35 27 27 32 44 31"],
  ["ROM", "Rom", "Romans", "Romanos", "Rom|Ro|Rm",
    "32 29 31 25 21 23 25 39 33 21 36 21 14 23 33 27"],
  ["1CO", "1Cor", "1 Corinthians", "1 Corintios", "1 Cor|1 Co",
    "31 16 23 21 13 20 40 13 27 33 34 31 13 40 58 24"],
  ["2CO", "2Cor", "2 Corinthians", "2 Corintios", "2 Cor|2 Co",
    "24 17 18 18 21 18 16 24 15 18 33 21 14"],
  ["GAL", "Gal", "Galatians", "Gálatas", "Gal|Ga",
    "24 21 29 31 26 18"],
  ["EPH", "Eph", "Ephesians", "Efesios", "Eph|Ef|Efe",
    "23 22 21 32 33 24"],
  ["PHP", "Phil", "Philippians", "Filipenses", "Phil|Php|Flp|Fil",
    "30 30 21 23"],
  ["COL", "Col", "Colossians", "Colosenses", "Col",
    "29 23 25 18"],
  ["1TH", "1Thess", "1 Thessalonians", "1 Tesalonicenses", "1 Thess|1 Thes|1 Th|1 Tes|1 Ts",
    "10 20 13 18 28"],
  ["2TH", "2Thess", "2 Thessalonians", "2 Tesalonicenses", "2 Thess|2 Thes|2 Th|2 Tes|2 Ts",
    "12 17 18"],
  ["1TI", "1Tim", "1 Timothy", "1 Timoteo", "1 Tim|1 Ti|1 Tm",
    "20 15 16 16 25 21"],
  ["2TI", "2Tim", "2 Timothy", "2 Timoteo", "2 Tim|2 Ti|2 Tm",
    "18 26 17 22"],
  ["TIT", "Titus", "Titus", "Tito", "Tit|Tt",
    "16 15 15"],
  ["PHM", "Phlm", "Philemon", "Filemón", "Phlm|Phm|Philem|Flm|Film",
    "25"],
  ["HEB", "Heb", "Hebrews", "Hebreos", "Heb",
    "14 18 19 16 14 20 28 13 28 39 40 29 25"],
  ["JAS", "Jas", "James", "Santiago", "Jas|Jm|Stg|Sant",
    "27 26 18 17 20"],
  ["1PE", "1Pet", "1 Peter", "1 Pedro", "1 Pet|1 Pe|1 Pt|1 Ped",
    "25 25 22 19 14"],
  ["2PE", "2Pet", "2 Peter", "2 Pedro", "2 Pet|2 Pe|2 Pt|2 Ped",
    "21 22 18"],
  ["1JN", "1John", "1 John", "1 Juan", "1 Jn|1 Jhn|1 Jo|1 Jua",
    "10 29 24 21 21"],
  ["2JN", "2John", "2 John", "2 Juan", "2 Jn|2 Jhn|2 Jo|2 Jua",
    "13"],
  ["3JN", "3John", "3 John", "3 Juan", "3 Jn|3 Jhn|3 Jo|3 Jua",
    "14"],
  ["JUD", "Jude", "Jude", "Judas", "Jud|Jd|Jds",
    "25"],
  ["REV", "Rev", "Revelation", "Apocalipsis", "Rev|Rv|Revelations|Revelation of John|Apocalypse|Ap|Apoc|Re",
    "20 29 22 11 14 17 17 13 21 11 19 17 18 20 8 21 18 24 21 15 27 21"],
];

// The deuterocanonical books of the WEB module (engWEB2015eb), in the module's order, with the canons
// that receive them: Catholic (Trent) and Orthodox (Septuagint; 4 Maccabees in its appendix, 2 Esdras in the
// Slavonic Bible). Verse counts are the WEB's. Susanna, Bel and the Dragon and the Prayer of Azariah have no
// text in the module (its preface places them in a "Daniel (Greek)" that the NRSVA versification lacks), so
// they are not in the table.
const DEUTERO_ROWS: readonly DeuteroRow[] = [
  ["TOB", "Tob", "Tobit", "Tobías", "Tob|Tb|Tobit|Tobias",
    "22 14 17 21 22 17 16 21 6 12 18 22 17 15", "catholic orthodox"],
  ["JDT", "Jdt", "Judith", "Judit", "Jdt|Jdth",
    "16 28 10 15 24 21 32 36 14 23 23 20 20 19 13 25", "catholic orthodox"],
  ["ESG", "GkEsth", "Esther (Greek)", "Ester (griego)", "Greek Esther|Esther Greek|Additions to Esther|Add Esth|AddEsth|EsthGr|Est Gr|Ester griego|Adiciones a Ester",
    "22 23 15 17 14 14 10 17 32 13", "catholic orthodox"],
  ["WIS", "Wis", "Wisdom", "Sabiduría", "Wis|Wisd|Wisdom of Solomon|Wisd of Sol|Sab|Sb|Sabiduria de Salomon|Libro de la Sabiduria",
    "16 24 19 20 23 25 30 21 18 21 26 27 19 31 19 29 21 25 22", "catholic orthodox"],
  ["SIR", "Sir", "Sirach", "Eclesiástico", "Sir|Ecclus|Ecclesiasticus|Wisdom of Sirach|Wisdom of Ben Sira|Ben Sira|Eclo|Ecli|Sirácida|Sirac|Siracida",
    "30 18 31 31 15 37 36 19 18 31 34 18 26 27 20 30 32 33 30 31 28 27 27 34 26 29 30 26 28 25 31 24 33 26 20 26 31 34 35 30 22 25 33 23 26 20 25 25 16 29 30", "catholic orthodox"],
  ["BAR", "Bar", "Baruch", "Baruc", "Bar|Ba|Baruc|Baruj",
    "22 35 37 37 9 73", "catholic orthodox"],
  ["1MA", "1Macc", "1 Maccabees", "1 Macabeos", "1 Macc|1 Mac|1 Mc|1 Ma|1 Mcb",
    "64 70 60 61 68 63 50 32 73 89 74 53 53 49 41 24", "catholic orthodox"],
  ["2MA", "2Macc", "2 Maccabees", "2 Macabeos", "2 Macc|2 Mac|2 Mc|2 Ma|2 Mcb",
    "36 32 40 50 27 31 42 36 29 38 38 45 26 46 39", "catholic orthodox"],
  ["1ES", "1Esd", "1 Esdras", "1 Esdras", "1 Esd|1 Es|3 Esdras",
    "58 30 24 63 73 34 15 96 55", "orthodox"],
  ["MAN", "PrMan", "Prayer of Manasseh", "Oración de Manasés", "Pr Man|PrMan|Prayer of Manasses|Or Man|Oracion de Manases",
    "15", "orthodox"],
  ["PS2", "Ps151", "Psalm 151", "Salmo 151", "Ps 151|Ps151|Psalms 151|Sal 151|Salmos 151|Additional Psalm",
    "7", "orthodox"],
  ["3MA", "3Macc", "3 Maccabees", "3 Macabeos", "3 Macc|3 Mac|3 Mc|3 Ma",
    "29 33 30 21 51 41 23", "orthodox"],
  ["2ES", "2Esd", "2 Esdras", "2 Esdras", "2 Esd|2 Es|4 Esdras",
    "40 48 36 52 56 59 140 63 47 59 46 51 58 48 63 78", "orthodox"],
  ["4MA", "4Macc", "4 Maccabees", "4 Macabeos", "4 Macc|4 Mac|4 Mc|4 Ma",
    "35 24 21 26 38 35 23 29 32 21 27 19 27 20 32 25 24 24", "orthodox"],
];

function makeBook(row: Row, order: number, testament: Testament, canon: CanonSection, canons: readonly Canon[]): Book {
  const [id, osis, name, nameEs, abbreviations, verseCounts] = row;
  return Object.freeze({
    id,
    osis,
    name,
    nameEs,
    abbreviations: Object.freeze(abbreviations.split("|")),
    testament,
    canon,
    canons: Object.freeze([...canons]),
    order,
    verseCounts: Object.freeze(verseCounts.split(" ").map(Number)),
  });
}

/** The 66 books every canon has, in canonical order (order 1-66). */
export const BOOKS: readonly Book[] = Object.freeze(
  ROWS.map((row, index) => makeBook(row, index + 1, index < OLD_TESTAMENT_BOOKS ? "OT" : "NT", "common", CANONS)),
);

/** The deuterocanonical books the WEB carries (order 67-80); only eng-web has their text. */
export const DEUTEROCANON: readonly Book[] = Object.freeze(
  DEUTERO_ROWS.map(([id, osis, name, nameEs, abbreviations, verseCounts, canons], index) =>
    makeBook([id, osis, name, nameEs, abbreviations, verseCounts], ROWS.length + index + 1, "OT", "deuterocanon", canons.split(" ") as Canon[]),
  ),
);

/** The whole table: BOOKS then DEUTEROCANON; `order` is the index + 1. */
export const ALL_BOOKS: readonly Book[] = Object.freeze([...BOOKS, ...DEUTEROCANON]);

/** The books of a canon, in table order ("protestant": the 66). */
export function booksInCanon(canon: Canon): readonly Book[] {
  return ALL_BOOKS.filter((book) => book.canons.includes(canon));
}

export function isCanon(value: unknown): value is Canon {
  return typeof value === "string" && (CANONS as readonly string[]).includes(value);
}

const ORDINALS: Readonly<Record<string, string>> = wordTable({
  i: "1", ii: "2", iii: "3", iv: "4",
  "1st": "1", "2nd": "2", "3rd": "3", "4th": "4",
  first: "1", second: "2", third: "3", fourth: "4",
  primer: "1", primero: "1", primera: "1",
  segundo: "2", segunda: "2",
  tercer: "3", tercero: "3", tercera: "3",
  cuarto: "4", cuarta: "4",
});

/** Whether a folded, lowercased word is an ordinal that may open a book's name ("i", "first", "cuarta"). */
export function isOrdinalWord(word: string): boolean {
  return ORDINALS[word] !== undefined;
}

/**
 * Folds a book name to a lookup key: no accents, case, dots or spaces, and a leading ordinal
 * ("I", "First", "Primera") becomes its digit, so "I Corintios", "1 Cor." and "1co" meet.
 */
export function normalizeBookName(text: string): string {
  const words = foldMarks(text)
    .toLowerCase()
    .replace(/[.\s]+/g, " ")
    .trim()
    .split(" ");
  const first = words[0] ?? "";
  const ordinal = words.length > 1 ? ORDINALS[first] : undefined;
  if (ordinal !== undefined || /^[1234]$/.test(first)) {
    words[0] = ordinal ?? first;
    // Spanish "Primera de Juan", "1 de Juan".
    if (words[1] === "de" && words.length > 2) words.splice(1, 1);
  }
  return words.join("");
}

const BY_ID = new Map(ALL_BOOKS.map((book) => [book.id, book]));

function buildLookup(): Map<string, Book> {
  const lookup = new Map<string, Book>();
  for (const book of ALL_BOOKS) {
    for (const label of [book.id, book.osis, book.name, book.nameEs, ...book.abbreviations]) {
      const key = normalizeBookName(label);
      const taken = lookup.get(key);
      // A label shared by two books would make lookups depend on table order; fail at load instead.
      if (taken !== undefined && taken !== book) {
        throw new Error(`book label "${label}" is ambiguous: ${taken.id} and ${book.id}`);
      }
      lookup.set(key, book);
    }
  }
  return lookup;
}

const LOOKUP = buildLookup();

export function bookById(id: string): Book | undefined {
  return BY_ID.get(id.trim().toUpperCase());
}

/** Finds a book by USFM/OSIS id, English or Spanish name, or abbreviation. */
export function findBook(nameOrIdOrAbbrev: string): Book | undefined {
  return LOOKUP.get(normalizeBookName(nameOrIdOrAbbrev));
}

type BookLike = Book | string;

function resolve(book: BookLike): Book | undefined {
  return typeof book === "string" ? (bookById(book) ?? findBook(book)) : book;
}

/** 0 for an unknown book. */
export function chapterCount(book: BookLike): number {
  return resolve(book)?.verseCounts.length ?? 0;
}

/** 0 for an unknown book or a chapter it does not have. */
export function verseCount(book: BookLike, chapter: number): number {
  if (!Number.isInteger(chapter) || chapter < 1) return 0;
  return resolve(book)?.verseCounts[chapter - 1] ?? 0;
}

export function isValidRef(book: BookLike, chapter: number, verse?: number): boolean {
  const verses = verseCount(book, chapter);
  if (verses === 0) return false;
  if (verse === undefined) return true;
  return Number.isInteger(verse) && verse >= 1 && verse <= verses;
}
