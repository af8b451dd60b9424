/**
 * The words of a cited passage in one translation, ready for comparison: the verses' text joined
 * with single spaces, its folded words, and the verse each word belongs to.
 */
import { verseCount } from "../books.js";
import type { Bible } from "../corpus.js";
import type { ScriptureRef } from "../references.js";
import { tokenize, type Folding, type Token } from "./normalize.js";

export interface Passage {
  text: string;
  tokens: Token[];
  keys: string[];
  /** unit[j]: index of the verse that word j belongs to. */
  unit: number[];
  /** Verses with text (a verse the translation leaves out is not counted). */
  verses: number;
  /** A whole chapter (or chapters) was cited, not verses. */
  wholeChapter: boolean;
  /** numbers[k]: the verse number of the passage's k-th verse. */
  numbers: number[];
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

export function loadPassage(bible: Bible, ref: ScriptureRef, folding: Folding): Passage {
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
