/**
 * What a question names, as ranker boosts (search.ts): passage titles (matched on the question and its
 * English gloss), concepts, and the concepts related to a story the question names.
 */
import { CONCEPTS, contentWords, matchConcepts, outermost, type Concept, type ConceptMatch } from "./concepts.js";
import { matchTitles, phraseTokens, type TitleEntry, type TitleMatch, type TitleRange } from "./titles.js";
import { tokenize } from "./tokenizer.js";

/**
 * Titles carry Spanish names, so the original query is matched as well as its English gloss; the
 * longer match is the more specific one ("el buen samaritano" as a whole beats "samaritan").
 */
export function bestTitles(query: string, english: string): TitleMatch[] {
  const original = matchTitles(query);
  if (english === query) return original;
  const glossed = matchTitles(english);
  const len = (ms: TitleMatch[]) => ms[0]?.length ?? 0;
  return len(glossed) > len(original) ? glossed : original;
}

/**
 * Concepts named in the question (a Spanish question's words meet the Spanish terms, its word-for-word
 * English gloss the English ones; a match inside a longer one of either is dropped), less those inside a
 * longer title match ("the death of Jesus" is the crucifixion, not the concept "death").
 */
export function conceptsOf(query: string, english: string, titles: readonly TitleMatch[]): ConceptMatch[] {
  const found = new Map<string, ConceptMatch>();
  // A topic-only term is weighed against the English words, the Spanish tokenizer keeping more of a question's frame.
  const content = contentWords(english);
  const matches = english === query ? matchConcepts(query, undefined, "any", content) : outermost([...matchConcepts(query, undefined, "es", content), ...matchConcepts(english, undefined, "en", content)]);
  for (const m of matches) {
    const prior = found.get(m.concept.id);
    if (!prior || m.length > prior.length) found.set(m.concept.id, m);
  }
  const titleWords = new Set(titles.flatMap((t) => t.entry.phrases.flat()));
  const longestTitle = titles[0]?.length ?? 0;
  return [...found.values()].filter((m) => !(m.length < longestTitle && m.words.every((w) => titleWords.has(w))));
}

/**
 * A concept as a ranker topic entry. Its boost follows how much of the question it is: all of "how do
 * I control my temper" (content words: control, temper) but little of "Jacob steals Esau's blessing",
 * so a story's own words keep outranking a concept named in passing (measured in docs/search.md).
 */
export function conceptBoost(m: ConceptMatch, query: string): TitleMatch {
  const n = Math.max(1, phraseTokens(query).length);
  const content = Math.max(1, tokenize(query).length);
  // A care concept (one that avoids texts) is what the message is about however long it is.
  const share = m.concept.avoid.length > 0 ? 1 : Math.min(1, CONCEPT_SHARE * Math.min(1, m.length / content));
  return { entry: m.concept.entry, length: m.length, coverage: Math.min(1, m.length / n), weight: share };
}

/**
 * A question that is only a story's name ("the prodigal son") has nothing but the name's own words to
 * rank the rest by, and generic ones ("son") fill the list with genealogies. So the concepts that list the
 * story's passage (LUK 15: God's love for sinners, repentance) count as weakly named: after the story
 * itself come the passages that teach what it teaches. Measured in docs/search.md (story misses).
 */
export function relatedBoosts(titles: readonly TitleMatch[], named: readonly ConceptMatch[]): TitleMatch[] {
  const story = titles[0];
  if (!story || story.entry.kind === "topic" || story.coverage < 1) return [];
  const seen = new Set(named.map((m) => m.concept.id));
  return relatedConcepts(story.entry)
    .filter((c) => !seen.has(c.id))
    .map((c) => ({ entry: c.entry, length: 0, coverage: 1, weight: RELATED_WEIGHT }));
}

/** A related concept's boost relative to a named one. */
const RELATED_WEIGHT = 1;

const relatedCache = new WeakMap<TitleEntry, readonly Concept[]>();

/** Concepts with a passage that overlaps one of the title's ranges (care concepts excepted: distress is not inferred from a story). */
function relatedConcepts(entry: TitleEntry): readonly Concept[] {
  let found = relatedCache.get(entry);
  if (!found) {
    const overlaps = (a: TitleRange, b: TitleRange) =>
      a.book === b.book && position(a.chapter, a.verseStart) <= position(b.chapterEnd, b.verseEnd) && position(b.chapter, b.verseStart) <= position(a.chapterEnd, a.verseEnd);
    found = CONCEPTS.filter((c) => c.avoid.length === 0 && c.ranges.some((r) => entry.ranges.some((t) => overlaps(r, t))));
    relatedCache.set(entry, found);
  }
  return found;
}

const position = (chapter: number, verse: number) => chapter * 1000 + verse;

/** A concept covering a third of the question's content words gets its full boost. */
const CONCEPT_SHARE = 3;
