/**
 * The concept layer between a question and the index (the table is concepts-data.ts; how to add a
 * topic: docs/search.md "Concept table").
 *
 * A concept ties the words people use today (English and Spanish: "temper", "mal genio", "coworkers",
 * "inmigrantes") to the words the Bible itself uses ("anger", "wrath", "slow to anger"; "foreigner",
 * "stranger", "alien") and to the passages that teach it. It is applied twice:
 * - to the query: a matched concept adds its Bible words to the keyword and dense query, and its
 *   passages' chapters get a boost (a "topic" entry for the ranker, decaying in list order);
 * - to the index: every window that overlaps one of its passages is tagged with the concept's modern
 *   names (`Passage.tags`), so BM25 finds "anxiety" at "do not be anxious"; tags do not count towards a
 *   window's BM25 length and are not in the text the dense vectors learn from (both measured worse).
 */
import { parseTitleRange, type TitleEntry, type TitleRange } from "./titles.js";
import { CONCEPT_LINES } from "./concepts-data.js";
import { tokenize, words } from "./tokenizer.js";
import { wordTable } from "../../word-table.js";

export interface Concept {
  id: string;
  /** Modern words and phrases, English then Spanish, accent-folded; a trailing `*` on a word is a prefix. */
  terms: string[];
  /**
   * Per term: written `=term` in the table, it names the concept only when it is the search's topic (at
   * most one other content word: "victory", "what does the Bible say about the future"), never as a word
   * inside a story or a remembered line ("Joseph is sold into slavery", "weeping may endure for a night").
   */
  topicOnly: boolean[];
  /** How many of `terms` are English (the rest are Spanish). */
  english: number;
  /** The Bible's own words for it, added to a query that names the concept. */
  bible: string[];
  /** The passages that teach it, most central first. */
  ranges: TitleRange[];
  /** Names appended to the windows of its passages (its English terms without wildcards). */
  names: string[];
  /** The same concept as a ranker "topic" entry. */
  entry: TitleEntry;
  /**
   * Chapters that wound the person who names this concept (wives-submit texts for the beaten wife, eternal
   * fire for the suicidal): ranked far down whenever it is matched. A concept with any is a care concept:
   * its boost does not shrink with the length of the message (distress named in a long message is still
   * what it is about).
   */
  avoid: { book: string; chapter: number }[];
}

export interface ConceptMatch {
  concept: Concept;
  /** Query words the longest matching term covers. */
  length: number;
  start: number;
  /** The query words it matched (folded). */
  words: string[];
}

/** How many content words besides a topic-only term's own a search may hold and still be about it. */
export const TOPIC_ONLY_SLACK = 1;

/** Distinct content words (stopwords out, stemmed), as the ranker counts a short search's. */
export const contentWords = (text: string): number => new Set(tokenize(text)).size;

/** `id | english terms | spanish terms | bible words | passages [| avoid: chapters]`; lists comma-separated. */
export function parseConceptLine(line: string): Concept {
  const parts = line.split("|").map((p) => p.trim());
  if (parts.length !== 5 && parts.length !== 6) throw new Error(`concept line needs 5 or 6 fields: ${line}`);
  const [id, en, es, bible, at, avoidField] = parts as [string, string, string, string, string, string | undefined];
  const list = (s: string) => s.split(",").map((t) => t.trim()).filter(Boolean);
  const raw = [...list(en), ...list(es)];
  const topicOnly = raw.map((t) => t.startsWith("="));
  const terms = raw.map((t) => words(t).join(" ") + (t.endsWith("*") ? "*" : ""));
  if (terms.length === 0) throw new Error(`concept ${id} has no terms`);
  const ranges = list(at).map(parseTitleRange);
  if (ranges.length === 0) throw new Error(`concept ${id} has no passages`);
  const names = list(en).filter((t) => !t.includes("*")).map((t) => t.replace(/^=/, "")).slice(0, 6);
  const entry: TitleEntry = { kind: "topic", names: [...new Set([id, ...names])], ranges, phrases: [] };
  if (avoidField !== undefined && !avoidField.startsWith("avoid:")) throw new Error(`concept ${id}: the sixth field starts with "avoid:"`);
  const avoid = list(avoidField?.slice("avoid:".length) ?? "").map((r) => {
    const range = parseTitleRange(r);
    if (range.chapterEnd !== range.chapter || /:/.test(r)) throw new Error(`concept ${id}: avoid whole chapters, one at a time: ${r}`);
    return { book: range.book, chapter: range.chapter };
  });
  for (const a of avoid) {
    if (ranges.some((r) => r.book === a.book && a.chapter >= r.chapter && a.chapter <= r.chapterEnd)) throw new Error(`concept ${id}: ${a.book} ${a.chapter} is both taught and avoided`);
  }
  return { id, terms, topicOnly, english: list(en).length, bible: bible.split(/[\s,]+/).filter(Boolean), ranges, names, entry, avoid };
}

export const CONCEPTS: readonly Concept[] = CONCEPT_LINES.map(parseConceptLine);

/**
 * Every care concept's `avoid`, once each: what a search made for a person in distress ranks far down
 * whatever concept its words matched (the chat's care decision, SearchRequest.care).
 */
export const CARE_AVOID: readonly { book: string; chapter: number }[] = (() => {
  const seen = new Map<string, { book: string; chapter: number }>();
  for (const a of CONCEPTS.flatMap((c) => c.avoid)) seen.set(`${a.book} ${a.chapter}`, a);
  return [...seen.values()];
})();

// Contractions typed without the apostrophe, as words() leaves the apostrophe forms ("can't" -> "can").
const CONTRACTIONS: Readonly<Record<string, string>> = wordTable({
  cant: "can", dont: "don", doesnt: "doesn", didnt: "didn", isnt: "isn", arent: "aren", wasnt: "wasn", wont: "won",
  shouldnt: "shouldn", wouldnt: "wouldn", couldnt: "couldn", havent: "haven", hasnt: "hasn", ive: "i", youre: "you",
  theyre: "they", whats: "what", thats: "that",
});

/** Query words as matched: plurals folded the way titles fold them (also right for most Spanish plurals). */
function fold(w: string): string {
  const c = CONTRACTIONS[w];
  if (c) return c;
  if (w.length <= 3 || w.endsWith("ss") || w.endsWith("us") || w.endsWith("is")) return w;
  if (w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  return w.endsWith("s") ? w.slice(0, -1) : w;
}

/** Which of a concept's terms a match may use: a Spanish question's own words meet only Spanish terms
 * ("sin esperanza" is "without hope"), its English gloss only English ones. */
export type TermLanguage = "en" | "es" | "any";

interface Pattern {
  concept: Concept;
  lang: "en" | "es";
  topicOnly: boolean;
  words: { text: string; prefix: boolean }[];
}

function compile(concepts: readonly Concept[]): Map<string, Pattern[]> {
  // Keyed by the first word's first three letters, so a query costs a few lookups, not a scan of every term.
  const index = new Map<string, Pattern[]>();
  for (const concept of concepts) {
    for (const [t, term] of concept.terms.entries()) {
      const ws = term.split(" ").filter(Boolean).map((w) => {
        const prefix = w.endsWith("*");
        return { text: prefix ? w.slice(0, -1) : fold(w), prefix };
      });
      if (ws.length === 0 || ws[0]!.text.length === 0) continue;
      const key = ws[0]!.text.slice(0, 3);
      let list = index.get(key);
      if (!list) index.set(key, (list = []));
      list.push({ concept, lang: t < concept.english ? "en" : "es", topicOnly: concept.topicOnly[t] ?? false, words: ws });
    }
  }
  return index;
}

const DEFAULT = compile(CONCEPTS);
const compiled = new WeakMap<readonly Concept[], Map<string, Pattern[]>>();

const wordMatches = (q: string, p: { text: string; prefix: boolean }) => (p.prefix ? q.startsWith(p.text) : q === p.text);

/**
 * Concepts named in the query. Every concept found counts (a question about "worry about money" is
 * about both), but a match that lies inside a longer match of another concept is dropped ("fear of
 * death" is not also "fear" and "death"). `content`: the search's content words (its own by default; a
 * Spanish search's English gloss's), against which a topic-only term is weighed.
 */
export function matchConcepts(query: string, concepts?: readonly Concept[], lang: TermLanguage = "any", content = contentWords(query)): ConceptMatch[] {
  let index = DEFAULT;
  if (concepts) {
    index = compiled.get(concepts) ?? compile(concepts);
    compiled.set(concepts, index);
  }
  const q = unframe(words(query).map(fold));
  const best = new Map<Concept, ConceptMatch>();
  for (let i = 0; i < q.length; i++) {
    for (const p of index.get(q[i]!.slice(0, 3)) ?? []) {
      if (i + p.words.length > q.length || (lang !== "any" && p.lang !== lang)) continue;
      let ok = true;
      for (let j = 0; j < p.words.length && ok; j++) ok = wordMatches(q[i + j]!, p.words[j]!);
      if (ok && p.topicOnly) ok = content - contentWords(q.slice(i, i + p.words.length).join(" ")) <= TOPIC_ONLY_SLACK;
      const prior = best.get(p.concept);
      if (ok && (!prior || p.words.length > prior.length)) best.set(p.concept, { concept: p.concept, length: p.words.length, start: i, words: q.slice(i, i + p.words.length) });
    }
  }
  return outermost([...best.values()]);
}

/** Matches less those inside a longer match of another concept, in query order. */
export function outermost(all: readonly ConceptMatch[]): ConceptMatch[] {
  return all
    .filter((m) => !all.some((o) => o !== m && o.length > m.length && o.start <= m.start && o.start + o.length >= m.start + m.length))
    .sort((a, b) => a.start - b.start);
}

// How a question about a topic is framed, not what it is about: "is it a sin to get a tattoo" is about
// tattoos, not about the doctrine of sin ("what is sin" and "qué es el pecado" still name it).
// A leading "^" anchors a frame at the question's start ("es pecado..." glossed is "is sin...").
const FRAMES = ["a sin", "is it sin", "^is sin", "es pecado", "es un pecado", "sera pecado", "seria pecado"].map((f) => ({
  start: f.startsWith("^"),
  words: words(f).map(fold),
}));

/** The words of any framing phrase blanked, so no concept term matches them. */
function unframe(q: string[]): string[] {
  for (const { start, words: f } of FRAMES) {
    for (let i = 0; i + f.length <= q.length && (i === 0 || !start); i++) {
      if (f.every((w, j) => q[i + j] === w)) for (let j = 0; j < f.length; j++) q[i + j] = "";
    }
  }
  return q;
}

/** The Bible's words for the matched concepts, to add to the keyword and dense query. */
export function conceptVocabulary(matches: readonly ConceptMatch[]): string {
  return [...new Set(matches.flatMap((m) => m.concept.bible))].join(" ");
}
