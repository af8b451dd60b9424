import { bookById, type Testament } from "../books.js";
import type { BibleLibrary } from "../corpus.js";
import { formatReference, parsePassageQuery } from "../references.js";
import type { SearchIndex } from "./index.js";
import { DEFAULT_FUSION, type DenseHit, type RankedChapter } from "./ranker.js";
import { conceptVocabulary, matchConcepts, type ConceptMatch } from "./concepts.js";
import { matchTitles, phraseTokens, type TitleMatch } from "./titles.js";
import { glossSpanish } from "./spanish.js";
import { tokenize } from "./tokenizer.js";

export interface SearchRequest {
  query: string;
  bibleId: string;
  limit: number;
  testament?: Testament;
  /** USFM id. */
  book?: string;
}

export interface SearchResult {
  reference: string;
  book: string;
  book_id: string;
  chapter: number;
  text: string;
  similarity: number;
}

export interface KeywordResult {
  reference: string;
  text: string;
}

export type SearchType = "semantic_hybrid" | "direct_passage";

export class SearchUnavailableError extends Error {
  override name = "SearchUnavailableError";
}

export interface SearchMetrics {
  search(type: "semantic_hybrid" | "direct_passage" | "keyword", seconds: number): void;
}

/** Dense candidates per query: enough that fusion can lift a keyword-weak window; measured in docs/search.md. */
const DENSE_CANDIDATES = 64;

/**
 * Hybrid scripture search. Unfiltered queries take their dense candidates from Chroma (one vector
 * query); filtered ones (testament/book) score the allowed passages' vectors in memory, because a
 * Chroma `where` filter costs 17-60 ms here against about 1 ms for a few thousand dot products.
 * Ranking always uses eng-web; only the returned text follows bibleId.
 */
export class ScriptureSearch {
  private index: SearchIndex | undefined;
  private readonly ranges = new Map<string, [number, number]>();
  private healthy: () => boolean = () => true;
  private onDown: (reason: string) => void = () => {};

  constructor(
    private readonly library: BibleLibrary,
    private readonly metrics?: SearchMetrics,
  ) {}

  attach(index: SearchIndex, health?: { healthy(): boolean; markDown(reason: string): void }) {
    this.index = index;
    if (health) (this.healthy = () => health.healthy()), (this.onDown = (r) => health.markDown(r));
  }

  /** For /readyz: the index is loaded and its vector store answers. */
  ready(): boolean {
    return this.index !== undefined && this.healthy();
  }

  async search(req: SearchRequest): Promise<{ results: SearchResult[]; type: SearchType }> {
    const started = performance.now();
    const ref = parsePassageQuery(req.query);
    if (ref) {
      const book = bookById(ref.book);
      const excluded = (req.book && req.book !== ref.book) || (req.testament && book?.testament !== req.testament);
      // Filters still restrict: a passage outside them is not a result (the caller asked for both).
      const hit = excluded ? undefined : this.chapterResult(req.bibleId, ref.book, ref.chapter, 1);
      this.metrics?.search("direct_passage", (performance.now() - started) / 1000);
      return { results: hit ? [hit] : [], type: "direct_passage" };
    }
    const index = this.requireIndex();
    const ranked = await this.rank(index, req);
    const results = ranked.flatMap((r) => this.chapterResult(req.bibleId, r.book, r.chapter, r.similarity) ?? []);
    this.metrics?.search("semantic_hybrid", (performance.now() - started) / 1000);
    return { results, type: "semantic_hybrid" };
  }

  /** Exact-word search over passages (BM25 only), for the agent's keyword tool. */
  async keyword(req: SearchRequest): Promise<{ results: KeywordResult[] }> {
    const started = performance.now();
    const index = this.requireIndex();
    const [from, to] = this.range(index, req) ?? [0, index.passages.length];
    const { docs, scores } = index.ranker.bm25.sparse(tokenize(req.query));
    const score = new Map<number, number>();
    for (let j = 0; j < docs.length; j++) if (docs[j]! >= from && docs[j]! < to) score.set(docs[j]!, scores[j]!);
    const order = [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || a - b);
    const bible = this.library.get(req.bibleId);
    const lang = bible?.language.startsWith("es") ? "es" : "en";
    const results = order.slice(0, req.limit).map((i) => {
      const p = index.passages[i]!;
      const verses = bible?.verses(p.book, p.chapter, p.verseStart, p.verseEnd) ?? [];
      return {
        reference: formatReference({ book: p.book, chapter: p.chapter, verseStart: p.verseStart, verseEnd: p.verseEnd }, lang),
        text: verses.map((v) => v.text).join(" "),
      };
    });
    this.metrics?.search("keyword", (performance.now() - started) / 1000);
    return { results };
  }

  private requireIndex(): SearchIndex {
    if (!this.index || !this.healthy()) throw new SearchUnavailableError("The scripture search index is not ready yet; retry shortly.");
    return this.index;
  }

  /** The passages a filter allows, as one range (canonical order keeps a book or testament contiguous). */
  private range(index: SearchIndex, req: SearchRequest): [number, number] | undefined {
    if (!req.book && !req.testament) return undefined;
    const key = `${req.testament ?? ""}/${req.book ?? ""}`;
    let r = this.ranges.get(key);
    if (!r) {
      const ok = (i: number) => {
        const p = index.passages[i]!;
        return (!req.book || p.book === req.book) && (!req.testament || p.testament === req.testament);
      };
      let from = 0;
      while (from < index.passages.length && !ok(from)) from++;
      let to = from;
      while (to < index.passages.length && ok(to)) to++;
      this.ranges.set(key, (r = [from, to]));
    }
    return r;
  }

  private async rank(index: SearchIndex, req: SearchRequest): Promise<RankedChapter[]> {
    const range = this.range(index, req);
    const english = glossSpanish(req.query);
    const titles = bestTitles(req.query, english);
    const concepts = conceptsOf(req.query, english, titles);
    // The concepts' own Bible words join the question for both signals ("temper" -> anger, wrath).
    const expanded = concepts.length > 0 ? `${english} ${conceptVocabulary(concepts)}` : english;
    const vector = await index.embedder.embedQuery(expanded);
    // The Chroma request goes out first so the keyword and title work overlaps its round trip.
    const pending = vector && !range ? this.denseFromChroma(index, vector) : undefined;
    pending?.catch(() => {}); // observed below; this only keeps a rejection during the sync work from being "unhandled"
    const tokens = tokenize(expanded);
    const keyword = index.ranker.bm25.sparse(tokens);
    const boosts = [...titles, ...concepts.map((m) => conceptBoost(m, req.query))];
    let dense: DenseHit[] | null = null;
    if (vector) dense = range ? this.denseInMemory(index, vector, range) : await pending!;
    return index.ranker.rank({ tokens, keyword, dense, titles: boosts, ...(range ? { range } : {}) }, req.limit, DEFAULT_FUSION);
  }

  private async denseFromChroma(index: SearchIndex, vector: Float32Array): Promise<DenseHit[]> {
    try {
      const hits = await index.store.query(vector, DENSE_CANDIDATES);
      return hits.flatMap((h) => {
        const i = index.positions.get(h.id);
        return i === undefined ? [] : [{ index: i, score: h.score }];
      });
    } catch (err) {
      this.onDown((err as Error).message);
      throw new SearchUnavailableError("The scripture vector store is not answering; retry shortly.");
    }
  }

  /** Exact top-k by cosine over a range of held vectors: a few thousand dot products, about 1 ms idle. */
  private denseInMemory(index: SearchIndex, vector: Float32Array, [from, to]: readonly [number, number]): DenseHit[] {
    const dim = index.embedder.dim;
    const scores = dotRange(index.vectors, vector, dim, from, to);
    return topK(scores, from, DENSE_CANDIDATES);
  }

  private chapterResult(bibleId: string, bookId: string, chapter: number, similarity: number): SearchResult | undefined {
    const bible = this.library.get(bibleId);
    const ch = bible?.chapter(bookId, chapter);
    const book = bookById(bookId);
    if (!bible || !ch || !book) return undefined;
    const lang = bible.language.startsWith("es") ? "es" : "en";
    const parts = ch.superscription ? [ch.superscription, ...ch.verses.map((v) => v.text)] : ch.verses.map((v) => v.text);
    return {
      reference: formatReference({ book: bookId, chapter }, lang),
      book: lang === "es" ? book.nameEs : book.name,
      book_id: bookId,
      chapter,
      text: parts.join(" "),
      similarity: Math.round(similarity * 10_000) / 10_000,
    };
  }
}

/**
 * Titles carry Spanish names, so the original query is matched as well as its English gloss; the
 * longer match is the more specific one ("el buen samaritano" as a whole beats "samaritan").
 */
function bestTitles(query: string, english: string): TitleMatch[] {
  const original = matchTitles(query);
  if (english === query) return original;
  const glossed = matchTitles(english);
  const len = (ms: TitleMatch[]) => ms[0]?.length ?? 0;
  return len(glossed) > len(original) ? glossed : original;
}

/**
 * Concepts named in the question (Spanish terms match the original, English ones also the gloss), less
 * those inside a longer title match ("the death of Jesus" is the crucifixion, not the concept "death").
 */
function conceptsOf(query: string, english: string, titles: readonly TitleMatch[]): ConceptMatch[] {
  const found = new Map<string, ConceptMatch>();
  for (const m of [...matchConcepts(query), ...(english === query ? [] : matchConcepts(english))]) {
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
function conceptBoost(m: ConceptMatch, query: string): TitleMatch {
  const n = Math.max(1, phraseTokens(query).length);
  const content = Math.max(1, tokenize(query).length);
  const share = Math.min(1, CONCEPT_SHARE * Math.min(1, m.length / content));
  return { entry: m.concept.entry, length: m.length, coverage: Math.min(1, m.length / n), weight: share };
}

/** A concept covering a third of the question's content words gets its full boost. */
const CONCEPT_SHARE = 3;

/** Dot products of `q` with rows [from, to) of a row-major matrix; a tight loop V8 keeps monomorphic. */
function dotRange(m: Float32Array, q: Float32Array, dim: number, from: number, to: number): Float32Array {
  const out = new Float32Array(to - from);
  for (let i = from, o = from * dim; i < to; i++, o += dim) {
    let s = 0;
    for (let k = 0; k < dim; k++) s += m[o + k]! * q[k]!;
    out[i - from] = s;
  }
  return out;
}

/** The k best scores with their positions (offset added), best first. */
function topK(scores: Float32Array, offset: number, k: number): DenseHit[] {
  if (scores.length <= k) {
    return Array.from(scores, (score, i) => ({ index: i + offset, score })).sort((a, b) => b.score - a.score);
  }
  // The k-th largest value via a sorted copy is simpler than a heap and costs n log n on a few thousand floats.
  const threshold = Float32Array.from(scores).sort()[scores.length - k]!;
  const hits: DenseHit[] = [];
  for (let i = 0; i < scores.length && hits.length < k * 2; i++) if (scores[i]! >= threshold) hits.push({ index: i + offset, score: scores[i]! });
  return hits.sort((a, b) => b.score - a.score).slice(0, k);
}
