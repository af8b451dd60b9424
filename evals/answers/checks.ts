import { detectLanguage } from "../../src/prompts/language.js";
import type { Scenario } from "./scenario.js";

/** What findReferences (src/scripture/references.ts) returns, reduced to what the checks read. */
export interface FoundSpan {
  start: number;
  end: number;
  text: string;
  ref: { book: string; chapter: number; verseStart?: number; verseEnd?: number };
}
export type FindReferences = (text: string) => FoundSpan[];

export interface ReaderLink {
  label: string;
  target: string;
}

const LINK = /\[([^\]\n]+)\]\((\/read\/[^)\s]+)\)/g;

/** The answer as the model wrote it: reader links turned back into their labels (the word limit counts this text). */
export function stripReaderLinks(text: string): { plain: string; links: ReaderLink[] } {
  const links: ReaderLink[] = [];
  const plain = text.replace(LINK, (_, label: string, target: string) => {
    links.push({ label, target });
    return label;
  });
  return { plain, links };
}

/** Same rule as the service's word ceiling: a word is a run of non-space characters. */
export function countWords(text: string): number {
  return (text.match(/\S+/gu) ?? []).length;
}

// "Book 3:16" shapes, English or Spanish, with an optional leading number ("1 Cor", "2 Reyes", "4 Maccabees").
const REFERENCE_SHAPE = /(?:\b[1-4]\s?)?\b\p{Lu}[\p{L}]+\.?\s+\d{1,3}:\d{1,3}(?:\s?[-–]\s?\d{1,3})?/gu;

/**
 * Reference-shaped text that the parser did not accept as an existing passage: a chapter or verse
 * that does not exist ("John 22:5") or a book that does not exist. These are the invented citations.
 */
export function inventedReferences(text: string, found: FoundSpan[]): string[] {
  const invented: string[] = [];
  for (const m of text.matchAll(REFERENCE_SHAPE)) {
    const start = m.index;
    const end = start + m[0].length;
    const covered = found.some((f) => f.start < end && start < f.end);
    if (!covered) invented.push(m[0].trim());
  }
  return invented;
}

/** A reader link whose label is not one existing passage, or whose target points at another book or chapter. */
export function badLinks(links: ReaderLink[], findReferences: FindReferences): string[] {
  const bad: string[] = [];
  for (const link of links) {
    const refs = findReferences(link.label);
    const ref = refs[0]?.ref;
    // USFM ids: "JHN", "1CO", and the deuterocanon's "4MA", "PS2".
    const m = /^\/read\/([1-4A-Z][A-Z0-9]{2})\/(\d+)/.exec(link.target);
    if (!ref || !m || ref.book !== m[1] || ref.chapter !== Number(m[2])) bad.push(`[${link.label}](${link.target})`);
  }
  return bad;
}

function compile(pattern: string): RegExp {
  return new RegExp(pattern, "iu");
}

export interface AnswerReport {
  pass: boolean;
  failures: string[];
  words: number;
  citations: number;
  language: "en" | "es";
}

/** Every rule-based check for one answer; pure, so the same verdict comes from a live run or a fixture. */
export function evaluateAnswer(scenario: Scenario, answer: string, findReferences: FindReferences): AnswerReport {
  const failures: string[] = [];
  const { plain, links } = stripReaderLinks(answer);
  const words = countWords(plain);
  const found = findReferences(plain);
  const language = detectLanguage(plain);

  if (plain.trim() === "") failures.push("empty answer");
  if (words > scenario.max_words) failures.push(`${words} words, limit ${scenario.max_words}`);
  if (found.length < scenario.min_citations) failures.push(`${found.length} citation(s), want at least ${scenario.min_citations}`);
  const invented = inventedReferences(plain, found);
  if (invented.length > 0) failures.push(`unresolvable reference(s): ${invented.join(", ")}`);
  const broken = badLinks(links, findReferences);
  if (broken.length > 0) failures.push(`link(s) pointing elsewhere: ${broken.join(", ")}`);
  if (language !== scenario.language) failures.push(`answered in ${language}, want ${scenario.language}`);
  for (const pattern of scenario.must_include) {
    if (!compile(pattern).test(plain)) failures.push(`missing /${pattern}/`);
  }
  for (const pattern of scenario.must_not_include) {
    const m = compile(pattern).exec(plain);
    if (m) failures.push(`contains /${pattern}/ ("${m[0]}")`);
  }
  return { pass: failures.length === 0, failures, words, citations: found.length, language };
}
