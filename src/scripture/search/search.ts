import { bookById, type Testament } from "../books.js";
import type { Bible, BibleLibrary, ChapterText } from "../corpus.js";
import { readerUrl } from "../links.js";
import { DEFAULT_TRANSLATION_ID, findTranslation } from "../translations.js";
import { formatReference, parsePassageQuery } from "../references.js";
import type { SearchIndex } from "./index.js";
import type { WindowPlace } from "./types.js";
import { DEFAULT_FUSION, type DenseHit, type RankedChapter } from "./ranker.js";
import { CARE_AVOID, conceptVocabulary } from "./concepts.js";
import type { TitleEntry, TitleMatch } from "./titles.js";
import { glossSpanish, looksSpanish } from "./spanish.js";
import { loadNeighbours, nearestConcept, type Neighbours } from "./neighbours.js";
import { alignNames, glossNames, loadNames, type Names } from "./names.js";
import { PhraseIndex, type PhraseHit } from "./phrases.js";
import { tokenize, words } from "./tokenizer.js";
import { bestTitles, conceptBoost, conceptsOf, relatedBoosts } from "./signals.js";
import { TermVerses } from "./term-verses.js";
import { dotRange, topK } from "./topk.js";

export interface SearchRequest {
  query: string;
  bibleId: string;
  limit: number;
  testament?: Testament;
  /** USFM id. */
  book?: string;
  /** Rank the deuterocanonical books too (eng-web carries them); the 66 only when absent or false. */
  deuterocanon?: boolean;
  /**
   * The asker may be in distress (the chat's care decision: graphs/chat/care.ts): every care concept's
   * `avoid` applies whatever the words matched, not only the matched care concepts' own.
   */
  care?: boolean;
}

export interface SearchResult {
  reference: string;
  book: string;
  book_id: string;
  chapter: number;
  text: string;
  similarity: number;
  /** The verses that matched best (at most three, best first), in the requested translation, each with its reader url. */
  highlights: { verse: number; text: string; url: string }[];
  /** The chapter in the reader (links.ts builds it, so PUBLIC_BASE_URL applies). */
  url: string;
}

export interface KeywordResult {
  reference: string;
  text: string;
  /** The reader's address of these verses, as a semantic result's url. */
  url: string;
}

export type SearchType = "semantic_hybrid" | "direct_passage";

/**
 * What a search answers. `lowConfidence`: nothing matched the question well: no result reached
 * SIMILARITY_FLOOR (results empty), the results are guesses from index words that only begin like the
 * question's (a typo, an unknown word), or nothing named in the question (a passage title, a concept, a
 * remembered line) matched and the best result's similarity is under LOW_CONFIDENCE_SIMILARITY.
 */
export interface SearchAnswer {
  results: SearchResult[];
  type: SearchType;
  lowConfidence: boolean;
  /** Why results came with low confidence: guesses from words that only begin like the question's, or weak matches. */
  lowConfidenceReason?: "guess" | "weak";
}

/**
 * Results below this similarity are not returned. Measured on every eval set (docs/search.md, "Similarity
 * floor"): the lowest similarity at which any eval question's target appeared in its top 10 was 0.157, and
 * its best result never under 0.25, so the floor costs no hit and leaves no eval question empty; what it
 * removes is the tail of weak guesses (a chapter sharing one rare word).
 */
export const SIMILARITY_FLOOR = 0.1;

/**
 * Without a title, concept or remembered line matched, a best result under this similarity is a weak
 * match: no better than the best keyword window with no agreement in meaning at all (cosine 0), i.e. the
 * keyword weight over the similarity scale. Measured on every eval set (docs/search.md, "Confidence" and
 * "Session 8"): such results held a wanted chapter in their top 5 far less often than the rest.
 */
export const LOW_CONFIDENCE_SIMILARITY = DEFAULT_FUSION.keyword / (1 + DEFAULT_FUSION.second + DEFAULT_FUSION.title);

export class SearchUnavailableError extends Error {
  override name = "SearchUnavailableError";
}

export interface SearchMetrics {
  search(type: "semantic_hybrid" | "direct_passage" | "keyword", seconds: number): void;
}

/**
 * The translations the phrase index reads: the English ones (KJV, WEB). The RV1909 would add 7 MB and
 * its 30 MB text loaded at every start; a Spanish question reaches English words through the gloss and
 * the names (measured in docs/search.md).
 */
const PHRASE_LANGUAGE = "en";

/** The Spanish text parallel to eng-web, whose names are aligned with the WEB's (names.ts). */
const SPANISH_PARALLEL = "spa-rv1909";

/**
 * The translations the phrase index reads, read now if they were not yet. buildServices calls it before
 * the server listens, so search attaching later does not read the KJV (about 130 ms at once) while
 * requests wait. Only these are read: a shipped translation's language is known without reading it
 * (reading the RV1909 only to leave it out held the loop about 100 ms more).
 */
export function phraseTranslations(library: BibleLibrary): Bible[] {
  const ids = library.ids().filter((id) => (findTranslation(id)?.language ?? PHRASE_LANGUAGE).startsWith(PHRASE_LANGUAGE));
  return ids.flatMap((id) => library.get(id) ?? []).filter((b) => b.language.startsWith(PHRASE_LANGUAGE));
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
  private phrases: PhraseIndex | undefined;
  /** Settles once the phrase index of the attached index is built (tests wait on it). */
  phrasesReady: Promise<void> = Promise.resolve();
  /**
   * What answers are made of: a new object whenever the index is attached or its phrase index comes in,
   * so a cache of answers (graphs/chat/search-cache.ts) keyed on it never serves one from before.
   */
  generation: object | undefined;
  private names: Names | undefined;
  /** Concepts near a search in meaning (shipped; none inferred when the file is missing or stale). */
  private readonly neighbours: Neighbours | undefined = loadNeighbours();
  private readonly chapterTermCache = new Map<string, ChapterTerms>();
  /** The index terms of every cached chapter, as ids (term-verses.ts). */
  private readonly termIds = new Map<string, number>();
  private readonly rangeCache = new Map<string, { ranges?: (readonly [number, number])[]; filtered: boolean }>();
  private common: number | undefined;
  private commonFor: SearchIndex | undefined;
  private healthy: () => boolean = () => true;
  private onDown: (reason: string) => void = () => {};

  constructor(
    private readonly library: BibleLibrary,
    private readonly metrics?: SearchMetrics,
    /** PUBLIC_BASE_URL for result links; unset keeps them root-relative. */
    private readonly baseUrl?: string,
  ) {}

  /** Queries waiting on the vector store: each gives up when the store is marked down. */
  private readonly waiting = new Set<(err: Error) => void>();

  attach(
    index: SearchIndex,
    health?: { healthy(): boolean; markDown(reason: string): void; onChange?(listener: (healthy: boolean) => void): void },
  ) {
    this.index = index;
    this.generation = {};
    // Every translation held, limited to the books the index ranks (tests index a few).
    const books = new Set(index.passages.map((p) => p.book));
    // Built in steps between requests (a second of CPU at once would stall them all); until it is
    // ready, a remembered line is matched by the other signals alone.
    this.phrases = undefined;
    const built = PhraseIndex.buildYielding(phraseTranslations(this.library), books);
    this.phrasesReady = built.then((phrases) => {
      if (this.index === index) (this.phrases = phrases), (this.generation = {});
    });
    // Shipped (npm run ingest:expansion aligns them once); aligned here only when the file is missing.
    this.names = loadNames() ?? this.alignNames();
    if (health) (this.healthy = () => health.healthy()), (this.onDown = (r) => health.markDown(r));
    // A store that hangs (alive, not answering) would hold every query already sent to it for as long
    // as it hangs: when the heartbeat marks it down, those queries fail as new ones already do.
    health?.onChange?.((up) => {
      if (up) return;
      const err = new Error("vector store marked down");
      for (const fail of [...this.waiting]) fail(err);
    });
  }

  private alignNames(): Names | undefined {
    const es = this.library.get(SPANISH_PARALLEL);
    const en = this.library.get(DEFAULT_TRANSLATION_ID);
    return es && en ? alignNames(es, en) : undefined;
  }

  /**
   * The query, or a rejection if the store is marked down first. Not Promise.race with one long-lived
   * promise: every race would leave a reaction on it, holding its settled result (a soak grew the heap
   * 138 -> 389 MB in 120 s that way).
   */
  private unlessStoreDown<T>(query: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const fail = (err: Error) => (this.waiting.delete(fail), reject(err));
      this.waiting.add(fail);
      query.then(
        (value) => (this.waiting.delete(fail), resolve(value)),
        (err: unknown) => (this.waiting.delete(fail), reject(err)),
      );
    });
  }

  /** For /readyz: the index is loaded and its vector store answers. */
  ready(): boolean {
    return this.index !== undefined && this.healthy();
  }

  async search(req: SearchRequest): Promise<SearchAnswer> {
    const started = performance.now();
    const ref = parsePassageQuery(req.query);
    if (ref) {
      const book = bookById(ref.book);
      const excluded = (req.book && req.book !== ref.book) || (req.testament && book?.testament !== req.testament);
      // Filters still restrict: a passage outside them is not a result (the caller asked for both).
      const named = ref.verseStart !== undefined && ref.chapterEnd === undefined ? [ref.verseStart, ref.verseEnd ?? ref.verseStart] : undefined;
      const hit = excluded ? undefined : this.chapterResult(req.bibleId, ref.book, ref.chapter, 1, (bible) => namedVerses(bible, ref.book, ref.chapter, named));
      this.metrics?.search("direct_passage", (performance.now() - started) / 1000);
      return { results: hit ? [hit] : [], type: "direct_passage", lowConfidence: false };
    }
    const index = this.requireIndex();
    let { ranked, tokens, phrases, named, gentle } = await this.rank(index, req);
    // Words the index does not hold are matched by their beginnings ("inmigrantes" -> immigrants is not
    // there, but typos and Spanish cognates are): a guess, so it is marked low confidence. A question with
    // nothing the index knows ("asdf qwerty") gets no results and says so, rather than stand-in chapters.
    let guessed = false;
    if (ranked.length === 0 && /\p{L}/u.test(req.query)) ({ ranked, tokens, gentle } = this.fallback(index, req)), (guessed = true);
    ranked = ranked.filter((r) => r.similarity >= SIMILARITY_FLOOR);
    const evidence = ranked[0]?.evidence ?? 0;
    const idf = new Map<string, number>();
    for (const t of tokens) if (!idf.has(t)) idf.set(t, index.ranker.bm25.idf(t));
    const results = ranked.flatMap((r) => this.chapterResult(req.bibleId, r.book, r.chapter, r.similarity, (_bible, ch) => rememberedFirst(phrases, ch, this.highlights(index, ch, r, idf, gentle))) ?? []);
    this.metrics?.search("semantic_hybrid", (performance.now() - started) / 1000);
    const lowConfidence = guessed || results.length === 0 || (!named && evidence < LOW_CONFIDENCE_SIMILARITY);
    const reason = results.length === 0 || !lowConfidence ? undefined : guessed ? "guess" : "weak";
    return { results, type: "semantic_hybrid", lowConfidence, ...(reason ? { lowConfidenceReason: reason } : {}) };
  }

  /**
   * Exact words for the agent's keyword tool, verse by verse: first the verses that hold the query's words
   * in order in any translation held ("be still" -> Psalm 46:10), then, window by window in BM25 order,
   * the window's verses holding the most of its words. Each verse once (windows overlap).
   */
  async keyword(req: SearchRequest): Promise<{ results: KeywordResult[] }> {
    const started = performance.now();
    const index = this.requireIndex();
    const ranges = this.ranges(index, req).ranges ?? [[0, index.passages.length] as const];
    const inRange = (i: number) => ranges.some(([from, to]) => i >= from && i < to);
    const picked: { book: string; chapter: number; verse: number }[] = [];
    const seen = new Set<string>();
    const add = (book: string, chapter: number, verse: number) => {
      const key = `${book}.${chapter}.${verse}`;
      if (!seen.has(key) && picked.length < req.limit) seen.add(key), picked.push({ book, chapter, verse });
    };
    for (const h of this.phrases?.match(req.query, req.limit, 1) ?? []) {
      const c = index.ranker.chapterId(h.book, h.chapter);
      if (h.coverage === 1 && c !== undefined && inRange(index.ranker.firstWindowOf(c))) add(h.book, h.chapter, h.verse);
    }
    const tokens = tokenize(req.query);
    const idf = new Map(tokens.map((t) => [t, index.ranker.bm25.idf(t)] as const));
    const { docs, scores } = index.ranker.bm25.sparse(tokens);
    const order = [...docs.keys()].filter((j) => inRange(docs[j]!)).sort((a, b) => scores[b]! - scores[a]! || docs[a]! - docs[b]!);
    // Each window's best verse first, then its other verses as good: one chapter's window holding the
    // word six times does not fill the list before the next window is read.
    const rest: { book: string; chapter: number; verse: number }[] = [];
    for (const j of order) {
      if (picked.length >= req.limit) break;
      const p = index.passages[docs[j]!]!;
      const [first, ...more] = this.versesHolding(p, idf);
      if (first !== undefined) add(p.book, p.chapter, first);
      for (const v of more) rest.push({ book: p.book, chapter: p.chapter, verse: v });
    }
    for (const r of rest) add(r.book, r.chapter, r.verse);
    const requested = this.library.get(req.bibleId);
    const lang = requested?.language.startsWith("es") ? "es" : "en";
    const results = picked.flatMap(({ book, chapter, verse }) => {
      const bible = this.textBible(req.bibleId, book);
      const text = bible?.verses(book, chapter, verse)[0]?.text;
      if (text === undefined) return [];
      const ref = { book, chapter, verseStart: verse, verseEnd: verse };
      return [{ reference: formatReference(ref, lang), text, url: readerUrl(ref, { bibleId: bible === requested ? req.bibleId : DEFAULT_TRANSLATION_ID, baseUrl: this.baseUrl }) }];
    });
    this.metrics?.search("keyword", (performance.now() - started) / 1000);
    return { results };
  }

  /** A window's verses that hold the most (idf-weighted) query terms, in verse order; none when no verse holds one. */
  private versesHolding(p: WindowPlace, idf: ReadonlyMap<string, number>): number[] {
    const terms = this.chapterTerms(p.book, p.chapter);
    if (!terms) return [];
    const score = new Map<number, number>();
    for (const [t, w] of idf) for (const v of terms.verses.get(t) ?? []) if (v >= p.verseStart && v <= p.verseEnd) score.set(v, (score.get(v) ?? 0) + w);
    const best = Math.max(0, ...score.values());
    return [...score].filter(([, s]) => s > 0 && s === best).map(([v]) => v).sort((a, b) => a - b);
  }

  private requireIndex(): SearchIndex {
    if (!this.index || !this.healthy()) throw new SearchUnavailableError("The scripture search index is not ready yet; retry shortly.");
    return this.index;
  }

  /**
   * The passages a request may rank, as ranges (canonical order keeps a book or testament contiguous;
   * the deuterocanon sits after the 66), and whether a filter narrowed them (then the dense scores are
   * computed in memory instead of a Chroma `where`). `ranges` undefined = every passage.
   */
  private ranges(index: SearchIndex, req: SearchRequest): { ranges?: (readonly [number, number])[]; filtered: boolean } {
    const key = `${req.testament ?? ""}/${req.book ?? ""}/${req.deuterocanon ? 1 : 0}`;
    let r = this.rangeCache.get(key);
    if (!r) {
      const n = index.passages.length;
      const common = this.commonEnd(index);
      const run = (ok: (p: WindowPlace, i: number) => boolean): (readonly [number, number])[] => {
        const out: [number, number][] = [];
        for (let i = 0; i < n; i++) {
          if (!ok(index.passages[i]!, i)) continue;
          const last = out[out.length - 1];
          if (last && last[1] === i) last[1] = i + 1;
          else out.push([i, i + 1]);
        }
        return out.length > 0 ? out : [[0, 0]];
      };
      if (req.book) r = { ranges: run((p) => p.book === req.book), filtered: true };
      else if (req.testament) r = { ranges: run((p, i) => p.testament === req.testament && (req.deuterocanon === true || i < common)), filtered: true };
      else r = req.deuterocanon || common === n ? { filtered: false } : { ranges: [[0, common]], filtered: false };
      this.rangeCache.set(key, r);
    }
    return r;
  }

  /** Where the 66 books' passages end (the deuterocanon's begin). */
  private commonEnd(index: SearchIndex): number {
    if (this.common === undefined || this.commonFor !== index) {
      const i = index.passages.findIndex((p) => bookById(p.book)?.canon === "deuterocanon");
      this.common = i < 0 ? index.passages.length : i;
      this.commonFor = index;
    }
    return this.common;
  }

  /** The translation a result's text comes from: the requested one, or eng-web for a book it lacks. */
  private textBible(bibleId: string, bookId: string): Bible | undefined {
    const bible = this.library.get(bibleId);
    if (bible && bible.hasBook(bookId)) return bible;
    return this.library.get(DEFAULT_TRANSLATION_ID) ?? bible;
  }

  /** Verses holding most of the query's words in order (any translation held), within the request's filters. */
  private phraseHits(index: SearchIndex, req: SearchRequest, ranges: readonly (readonly [number, number])[] | undefined): PhraseHit[] {
    const hits = this.phrases?.match(req.query, 20, PHRASE_MIN_COVERAGE) ?? [];
    return hits.filter((h) => {
      // Part of a line counts when it holds a word of substance ("the battle is" does not, alone, recall a verse).
      if (h.coverage < 1 && (h.coverage < PHRASE_MIN_COVERAGE || tokenize(h.words.join(" ")).length === 0)) return false;
      if (!ranges) return true;
      const c = index.ranker.chapterId(h.book, h.chapter);
      const first = c === undefined ? -1 : index.ranker.firstWindowOf(c);
      return ranges.some(([from, to]) => first >= from && first < to);
    });
  }

  /** `named`: a passage title, a concept or a remembered line of the question matched (evidence beyond word overlap). */
  private async rank(index: SearchIndex, req: SearchRequest): Promise<{ ranked: RankedChapter[]; tokens: string[]; phrases: PhraseHit[]; named: boolean; gentle: boolean }> {
    const { ranges, filtered } = this.ranges(index, req);
    // A Spanish question's names become the English ones ("¿Quién era Rut?" -> Ruth) before its words are glossed.
    const spanish = looksSpanish(req.query);
    const english = glossSpanish(spanish && this.names ? glossNames(req.query, this.names) : req.query, spanish);
    const titles = bestTitles(req.query, english);
    const concepts = conceptsOf(req.query, english, titles);
    // The concepts' own Bible words join the question for both signals ("temper" -> anger, wrath).
    let expanded = concepts.length > 0 ? `${english} ${conceptVocabulary(concepts)}` : english;
    // A query of common words only that names scripture ("the bible") asks about scripture itself: the
    // text calls it the word of God (its own word "Scripture" is a stopword, as in every question about it),
    // unless it is a remembered line. The remembered lines are looked up here only for such a query;
    // for the others, once the Chroma request is out.
    let phrases: PhraseHit[] | undefined;
    if (tokenize(expanded).length === 0 && namesScripture(expanded) && (phrases = this.phraseHits(index, req, ranges)).length === 0) expanded = `${expanded} ${SCRIPTURE_ITSELF}`;
    const vector = await index.embedder.embedQuery(expanded);
    // The Chroma request goes out first, so the keyword, title and phrase work overlaps its round trip:
    // the request is written to the socket on the next tick (node:http), so this waits for that tick.
    const pending = vector && !filtered ? this.denseFromChroma(index, vector) : undefined;
    pending?.catch(() => {}); // observed below; this only keeps a rejection during the sync work from being "unhandled"
    if (pending) await new Promise<void>((resolve) => process.nextTick(resolve));
    phrases ??= this.phraseHits(index, req, ranges);
    const tokens = tokenize(expanded);
    const keyword = index.ranker.bm25.sparse(tokens);
    // A short search that names nothing ("unkind words") counts the concept nearest to it in meaning as
    // named, weakly (neighbours.ts); never for a person the caller knows needs care. With nothing named,
    // `tokens` are the question's own.
    const near = this.neighbours && !req.care && titles.length === 0 && concepts.length === 0 && new Set(tokens).size <= DEFAULT_FUSION.short ? nearestConcept(this.neighbours, english, DEFAULT_FUSION.neighbourMin) : undefined;
    const boosts = [...titles, ...concepts.map((m) => conceptBoost(m, req.query)), ...relatedBoosts(titles, concepts), ...phrases.map(phraseBoost(phrases)), ...(near ? [{ entry: near.concept.entry, length: 0, coverage: 1, weight: DEFAULT_FUSION.neighbour }] : [])];
    // A person in distress is not handed the texts that wound them (a matched care concept's `avoid`, or
    // every care concept's when the caller already knows the asker needs care).
    const avoid = req.care ? CARE_AVOID : concepts.flatMap((m) => m.concept.avoid);
    let dense: DenseHit[] | null = null;
    if (vector) dense = filtered ? this.denseInMemory(index, vector, ranges!) : await pending!;
    return { ranked: index.ranker.rank({ tokens, keyword, dense, titles: boosts, ...(ranges ? { ranges } : {}), ...(avoid.length > 0 ? { avoid } : {}) }, req.limit, DEFAULT_FUSION), tokens, phrases, named: titles.length + concepts.length + phrases.length > 0, gentle: avoid.length > 0 };
  }

  private async denseFromChroma(index: SearchIndex, vector: Float32Array): Promise<DenseHit[]> {
    try {
      const hits = await this.unlessStoreDown(index.store.query(vector, DENSE_CANDIDATES));
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
  private denseInMemory(index: SearchIndex, vector: Float32Array, ranges: readonly (readonly [number, number])[]): DenseHit[] {
    const dim = index.embedder.dim;
    const hits = ranges.flatMap(([from, to]) => topK(dotRange(index.vectors, vector, dim, from, to), from, DENSE_CANDIDATES));
    return ranges.length === 1 ? hits : hits.sort((a, b) => b.score - a.score).slice(0, DENSE_CANDIDATES);
  }

  /** Keyword-only ranking on index terms that begin like the query's words (similarity halved: a guess). */
  private fallback(index: SearchIndex, req: SearchRequest): { ranked: RankedChapter[]; tokens: string[]; gentle: boolean } {
    const { ranges } = this.ranges(index, req);
    const tokens = [...new Set(words(glossSpanish(req.query)).filter((w) => tokenize(w).length > 0).flatMap((w) => index.ranker.bm25.termsLike(w, 4)))];
    const ranked = tokens.length > 0 ? index.ranker.rank({ tokens, dense: null, titles: [], ...(ranges ? { ranges } : {}) }, req.limit) : [];
    return { ranked: ranked.map((r) => ({ ...r, similarity: r.similarity * 0.5 })), tokens, gentle: req.care === true };
  }

  /**
   * The verses of a ranked chapter that hold the most (idf-weighted) query terms, looked for in its best
   * window first, then in the whole chapter; a window matched only by meaning gives its opening verse.
   * `idf` is the query's distinct terms with their idf, in query order (one map per search). `gentle`:
   * the asker may be in distress (care, or a care concept matched), so no verse of threat, violence or
   * judgment is picked (WOUNDING), whatever words it shares with the question.
   */
  private highlights(index: SearchIndex, ch: ChapterText, r: RankedChapter, idf: ReadonlyMap<string, number>, gentle = false): Verse[] {
    const terms = this.chapterTerms(r.book, r.chapter);
    if (!terms) return [];
    // A verse's score is the sum of the idf of the query terms it holds, added in query-term order.
    const score = new Float64Array(terms.lastVerse + 1);
    for (const [t, w] of idf) {
      if (!(w > 0)) continue;
      const verses = terms.verses.get(t);
      if (verses) for (const v of verses) score[v]! += w;
    }
    const window = r.window !== undefined ? index.passages[r.window] : undefined;
    const pick = (from: number, to: number) => {
      const scored: number[] = [];
      for (let v = Math.max(1, from); v <= Math.min(to, terms.lastVerse); v++) if (score[v]! > 0 && !(gentle && terms.wounding.has(v))) scored.push(v);
      return scored.sort((a, b) => score[b]! - score[a]! || a - b).slice(0, 3);
    };
    let verses = window ? pick(window.verseStart, window.verseEnd) : [];
    if (verses.length === 0) verses = pick(1, Number.MAX_SAFE_INTEGER);
    if (verses.length === 0 && window && !(gentle && terms.wounding.has(window.verseStart))) verses = [window.verseStart];
    return verses.flatMap((v) => {
      const text = ch.verses.find((x) => x.verse === v)?.text;
      return text === undefined ? [] : [{ verse: v, text }];
    });
  }

  /**
   * Which verses of a ranking-Bible chapter hold each index term, computed on first use and kept (about
   * 3 MB for the whole Bible, term-verses.ts): a highlight then costs a lookup per query term, not a test
   * per verse and term.
   */
  private chapterTerms(book: string, chapter: number): ChapterTerms | undefined {
    const key = `${book}.${chapter}`;
    let cached = this.chapterTermCache.get(key);
    if (!cached) {
      const ch = this.library.get(DEFAULT_TRANSLATION_ID)?.chapter(book, chapter);
      if (!ch) return undefined;
      const verses = new Map<string, number[]>();
      const wounding = new Set<number>();
      for (const v of ch.verses) {
        if (WOUNDING.test(v.text)) wounding.add(v.verse);
        for (const t of new Set(tokenize(v.text))) {
          const list = verses.get(t);
          if (list) list.push(v.verse);
          else verses.set(t, [v.verse]);
        }
      }
      cached = { verses: TermVerses.from(verses, this.termIds), lastVerse: ch.verses.reduce((m, v) => Math.max(m, v.verse), 0), wounding };
      this.chapterTermCache.set(key, cached);
    }
    return cached;
  }

  private chapterResult(bibleId: string, bookId: string, chapter: number, similarity: number, highlights: (bible: Bible, ch: ChapterText) => Verse[]): SearchResult | undefined {
    const requested = this.library.get(bibleId);
    // A deuterocanonical chapter asked for in a translation without it is read from eng-web (its url says so).
    const bible = this.textBible(bibleId, bookId);
    const ch = bible?.chapter(bookId, chapter);
    const book = bookById(bookId);
    if (!requested || !bible || !ch || !book) return undefined;
    const lang = requested.language.startsWith("es") ? "es" : "en";
    const parts = ch.superscription ? [ch.superscription, ...ch.verses.map((v) => v.text)] : ch.verses.map((v) => v.text);
    // Links (links.ts) open the translation the text came from: a deuterocanonical chapter read from eng-web says so.
    const link = { bibleId: bible === requested ? bibleId : DEFAULT_TRANSLATION_ID, baseUrl: this.baseUrl };
    return {
      reference: formatReference({ book: bookId, chapter }, lang),
      book: lang === "es" ? book.nameEs : book.name,
      book_id: bookId,
      chapter,
      text: parts.join(" "),
      similarity: Math.round(similarity * 10_000) / 10_000,
      highlights: highlights(bible, ch).map((h) => ({ ...h, url: readerUrl({ book: bookId, chapter, verseStart: h.verse }, link) })),
      url: readerUrl({ book: bookId, chapter }, link),
    };
  }
}

/**
 * A remembered line's verse leads its chapter's highlights (it is the verse the person meant), then the
 * keyword highlights, three at most.
 */
function rememberedFirst(phrases: readonly PhraseHit[], ch: ChapterText, highlights: Verse[]): Verse[] {
  const own = phrases.filter((h) => h.book === ch.book && h.chapter === ch.chapter).map((h) => h.verse);
  if (own.length === 0) return highlights;
  const first = own.flatMap((v) => ch.verses.filter((x) => x.verse === v).map((x) => ({ verse: x.verse, text: x.text })));
  return [...first, ...highlights.filter((h) => !own.includes(h.verse))].slice(0, 3);
}

/**
 * A phrase hit counts when it holds this share of the query's words: "the battle is" of "the battle is
 * the lord's" (0.6) but not "what does the" of a longer question.
 */
const PHRASE_MIN_COVERAGE = 0.6;

/**
 * Verses a query's words in order may match before they stop recalling one line: "i can do all things"
 * is in one verse, "young men" or "the eyes" in dozens, where the match is only the words again (a
 * narrative's "lifted up his eyes" is not what "the eyes" asks about). Past this many verses sharing the
 * matched wording, each of their boosts shrinks in proportion.
 */
export const PHRASE_TUNING = { distinct: 4 };

/**
 * Remembered lines as ranker boosts on their verses: the whole line as much as a named passage, part of
 * it less, and a wording many verses share less still (PHRASE_TUNING).
 */
export function phraseBoost(all: readonly PhraseHit[]): (h: PhraseHit) => TitleMatch {
  // Verses per matched wording: "the battle is the lords" whole is one verse's, its part "is the lords" many's.
  const verses = new Map<string, Set<string>>();
  for (const h of all) {
    const wording = h.words.join(" ");
    (verses.get(wording) ?? verses.set(wording, new Set()).get(wording)!).add(`${h.book}.${h.chapter}.${h.verse}`);
  }
  return (h) => {
    const share = Math.min(1, PHRASE_TUNING.distinct / Math.max(1, verses.get(h.words.join(" "))?.size ?? 1));
    const entry: TitleEntry = { kind: "title", names: [], phrases: [], ranges: [{ book: h.book, chapter: h.chapter, chapterEnd: h.chapter, verseStart: h.verse, verseEnd: h.verse }] };
    return { entry, length: h.run, coverage: h.coverage, weight: h.coverage * h.coverage * share };
  };
}

const SCRIPTURE_ITSELF = "the word of God";

/** Whether the text names scripture itself ("bible", "scriptures", "la biblia"). */
function namesScripture(text: string): boolean {
  return words(text).some((w) => /^(?:bible|bibles|scriptures?|biblia|escrituras?)$/.test(w));
}

/** A highlighted verse before its url is added. */
type Verse = { verse: number; text: string };

/** A chapter's index terms and the verses (ascending) that hold each. */
interface ChapterTerms {
  verses: TermVerses;
  lastVerse: number;
  /** Verses that speak threat, violence or judgment (WOUNDING), never highlighted for a person in distress. */
  wounding: Set<number>;
}

/**
 * Words of threat, violence and judgment in the ranking Bible (the WEB): killing, destroying, wrath,
 * curses and the oath of a death threat ("so let the gods do to me, and more also", 1 Kings 19:2),
 * vengeance, the sword, perishing, torment, dashing children, putting or stoning to death, cutting off.
 * A highlight for a person in distress never quotes one (issue 28: Jezebel's threat for "I want to
 * end my life"); the chapter may still be the right one (Elijah under the broom tree).
 */
const WOUNDING =
  /\b(?:kill|kills|killed|killing|slay|slays|slew|slain|murder\w*|destroy\w*|wrath|curse|curses|cursed|vengeance|avenge\w*|punish\w*|swords?|perish\w*|torment\w*|hell|dash\w*|put (?:him|her|them|you|me) to death|stone (?:him|her|them)|and more also|cut it off|pluck it out)\b/i;

/** A direct passage's named verses ("John 3:16-18"), at most ten; none when it names the whole chapter. */
function namedVerses(bible: Bible, book: string, chapter: number, named: number[] | undefined): Verse[] {
  if (!named) return [];
  const [from, to] = named as [number, number];
  return bible.verses(book, chapter, from, Math.min(to, from + 9)).map((v) => ({ verse: v.verse, text: v.text }));
}

