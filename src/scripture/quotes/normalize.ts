/**
 * Words for comparing a quotation with a passage. Case, punctuation, quotation marks, hyphens,
 * apostrophes and whitespace never count; accents never count; verse numbers never count (the
 * shipped texts hold no digits). A translation may add its own folding: the KJV's archaic forms
 * ("thee", "believeth", "hath") compare equal to the modern ones, so a quotation that modernises
 * them still stands. The WEB has no archaic forms, so a KJV wording is not WEB wording.
 */
import { wordTable } from "../../word-table.js";
import { foldMarks } from "../../unicode.js";

export interface Token {
  /** The folded form that comparisons use. */
  key: string;
  /** Offsets of the word as written. */
  start: number;
  end: number;
}

/** How one translation's words are folded beyond case, accents and punctuation. */
export interface Folding {
  readonly id: string;
  fold(word: string): string;
}

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’ʼ][\p{L}\p{M}\p{N}]+)*/gu;
const APOSTROPHES = /['’ʼ]/g;
const DIGITS = /^\p{N}+$/u;
const ASCII_LOWER = /^[a-z]+$/;

function basic(word: string): string {
  if (ASCII_LOWER.test(word)) return word;
  return foldMarks(word).replace(APOSTROPHES, "").toLowerCase();
}

const PLAIN: Folding = { id: "plain", fold: (word) => word };

// Early Modern English forms of the KJV and their modern equivalents (second person, auxiliaries).
const ARCHAIC: Readonly<Record<string, string>> = wordTable({
  thee: "you", thou: "you", ye: "you", thy: "your", thine: "your", yourselves: "yourselves",
  hath: "has", hast: "have", doth: "does", dost: "do", art: "are", wast: "were", wert: "were",
  shalt: "shall", wilt: "will", canst: "can", couldest: "could", wouldest: "would", shouldest: "should",
  mayest: "may", mightest: "might", didst: "did", hadst: "had", saith: "says", spake: "spoke",
  unto: "to", whoso: "whoever", whosoever: "whoever", whatsoever: "whatever", wherefore: "therefore",
  shew: "show", shewed: "showed", sheweth: "shows", amongst: "among", gat: "got", holpen: "helped",
});

// Verb endings: "believeth", "believes" and "believe" share "believ"; "goeth" and "goes" share "go";
// "lovest" ("thou lovest", "you love") and "love" share "lov". The past tense keeps its "-ed".
function stem(word: string): string {
  for (const suffix of ["eth", "est", "es", "s", "e"]) {
    if (word.length - suffix.length >= 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

const KJV: Folding = {
  id: "archaic-english",
  fold(word) {
    return stem(ARCHAIC[word] ?? word);
  },
};

// Old Spanish spelling of the Reina-Valera 1909 that accent folding does not cover.
const OLD_SPANISH: Readonly<Record<string, string>> = wordTable({ muger: "mujer", mugeres: "mujeres", ageno: "ajeno", agena: "ajena", estrangero: "extranjero" });

const RV1909: Folding = { id: "old-spanish", fold: (word) => OLD_SPANISH[word] ?? word };

const BY_TRANSLATION: Readonly<Record<string, Folding>> = wordTable({ "eng-kjv": KJV, "spa-rv1909": RV1909 });

/** The folding for a translation id; plain (case, accents, punctuation) when it has no archaic forms. */
export function foldingFor(bibleId: string): Folding {
  return BY_TRANSLATION[bibleId] ?? PLAIN;
}

/** The words of text[from, to) with their folded keys; numbers are left out. */
export function tokenize(text: string, folding: Folding, from = 0, to = text.length): Token[] {
  const tokens: Token[] = [];
  const slice = from === 0 && to === text.length ? text : text.slice(from, to);
  for (const match of slice.matchAll(WORD)) {
    if (DIGITS.test(match[0])) continue;
    const start = match.index + from;
    tokens.push({ key: folding.fold(basic(match[0])), start, end: start + match[0].length });
  }
  return tokens;
}
