/**
 * The words of a cited passage in one translation, ready for comparison: the verses' text joined
 * with single spaces, its folded words, and the verse each word belongs to.
 */
import { verseCount } from "../books.js";
import type { Bible } from "../corpus.js";
import type { ScriptureRef } from "../references.js";
import { tokenize, type Folding, type Token } from "./normalize.js";

/** Read only: one passage may serve many checks (loadPassage keeps the latest). */
export interface Passage {
  readonly text: string;
  readonly tokens: readonly Token[];
  readonly keys: readonly string[];
  /** unit[j]: index of the verse that word j belongs to. */
  readonly unit: readonly number[];
  /** Verses with text (a verse the translation leaves out is not counted). */
  readonly verses: number;
  /** A whole chapter (or chapters) was cited, not verses. */
  readonly wholeChapter: boolean;
  /** numbers[k]: the verse number of the passage's k-th verse. */
  readonly numbers: readonly number[];
}

/** The passage's verses in the translation, in order; empty when the translation has none of them. */
export function passageVerses(bible: Bible, ref: ScriptureRef): { verse: number; text: string }[] {
  const last = ref.chapterEnd ?? ref.chapter;
  const verses: { verse: number; text: string }[] = [];
  for (let chapter = ref.chapter; chapter <= last; chapter++) {
    const from = chapter === ref.chapter ? (ref.verseStart ?? 1) : 1;
    let to = verseCount(ref.book, chapter);
    if (chapter === last && ref.verseStart !== undefined) to = ref.verseEnd ?? ref.verseStart;
    for (const verse of bible.verses(ref.book, chapter, from, to)) verses.push({ verse: verse.verse, text: verse.text });
  }
  return verses;
}

/**
 * The passages read last, by translation (the Bible object itself), folding and reference. A quotation
 * that does not match its verse is looked for in the verse's whole chapter (the right words under a
 * wrong number): reading and folding a chapter of about 900 words was 56 % of grounding such an answer
 * (about 0.2 ms, docs/performance.md, session 24), and answers quote the same few chapters again and
 * again. At most PASSAGES_KEPT: about 80 KB for a chapter of 900 words (an object and a folded word each),
 * so about 2.5 MB when all are chapters.
 */
const PASSAGES_KEPT = 32;
const kept = new Map<string, { bible: Bible; passage: Passage }>();

export function loadPassage(bible: Bible, ref: ScriptureRef, folding: Folding): Passage {
  const key = `${bible.id}|${folding.id}|${ref.book}|${ref.chapter}|${ref.chapterEnd ?? ""}|${ref.verseStart ?? ""}|${ref.verseEnd ?? ""}`;
  const known = kept.get(key);
  if (known !== undefined && known.bible === bible) {
    // The latest used goes last, so the oldest is the first to go.
    kept.delete(key);
    kept.set(key, known);
    return known.passage;
  }
  const passage = readPassage(bible, ref, folding);
  kept.delete(key);
  if (kept.size >= PASSAGES_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(key, { bible, passage });
  return passage;
}

function readPassage(bible: Bible, ref: ScriptureRef, folding: Folding): Passage {
  const verses = passageVerses(bible, ref);
  let text = "";
  const tokens: Token[] = [];
  const unit: number[] = [];
  verses.forEach(({ text: verse }, index) => {
    if (index > 0) text += " ";
    const offset = text.length;
    text += verse;
    for (const token of tokenize(verse, folding)) {
      tokens.push({ key: token.key, start: token.start + offset, end: token.end + offset });
      unit.push(index);
    }
  });
  return {
    text, tokens, keys: tokens.map((token) => token.key), unit, verses: verses.length, wholeChapter: ref.verseStart === undefined,
    numbers: verses.map((verse) => verse.verse),
  };
}
