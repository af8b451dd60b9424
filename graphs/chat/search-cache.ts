import type { SearchAnswer, SearchRequest } from "../../src/scripture/search/search.js";
import type { ScriptureSearcher } from "./deps.js";

/**
 * The chat's searches, answered once per identical request while the index stays the same. Every chat
 * question runs the service's own search (prefetch.ts): a Chroma query, the ranking and the highlights,
 * about 3 ms of the service's CPU and as much again in Chroma's process (docs/performance.md, session 8).
 * A question asked again word for word (a suggested question, a retried request, a benchmark) gets the
 * same answer without that work.
 *
 * Correct because a search answer depends only on the request and on what the searcher holds, which
 * changes only with `generation` (ScriptureSearch replaces it when an index is attached and when its
 * phrase index comes in): a new generation empties the cache. A searcher that is not ready (no index,
 * Chroma down) is always asked, so it fails as before; a failed search is not kept. Bounded: the
 * MAX_ENTRIES most recently used requests. The answers are frozen: every reader shares them.
 * A searcher without a generation (the tests' fakes, Studio's wrapper) is passed through unchanged.
 *
 * A settled answer is kept as the answer itself, not as the promise that made it: a promise made inside
 * a chat run carries that run's AsyncLocalStorage store (LangChain's run config, whose PregelLoop reaches
 * the run's context, system prompts, messages and turns), so 256 kept promises kept 256 finished runs
 * alive, ~45 MB of old space under unique questions (docs/performance.md, session 14). Only a search
 * still running is kept as its promise (the requests waiting on it hold that run anyway).
 */
export const MAX_ENTRIES = 256;

export type GenerationalSearcher = ScriptureSearcher & { readonly generation?: object | undefined; ready?(): boolean };

/** The request's fields that decide its answer, in a fixed order. */
function keyOf(req: SearchRequest): string {
  return JSON.stringify([req.query, req.bibleId, req.limit, req.testament ?? null, req.book ?? null, req.deuterocanon === true, req.care === true]);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export interface CachedSearcher extends ScriptureSearcher {
  /** Answers served from the cache and searches run, since the start (tests and the benchmark read them). */
  readonly stats: { hits: number; misses: number };
}

export function withAnswerCache(searcher: GenerationalSearcher, maxEntries = MAX_ENTRIES): CachedSearcher {
  let generation: object | undefined;
  // A search still running as its promise; a settled one as its answer (never a promise: see above).
  const answers = new Map<string, Promise<SearchAnswer> | SearchAnswer>();
  const stats = { hits: 0, misses: 0 };
  return {
    stats,
    keyword: (req) => searcher.keyword(req),
    search(req) {
      const current = searcher.generation;
      if (current === undefined || searcher.ready?.() === false) return searcher.search(req);
      if (current !== generation) answers.clear(), (generation = current);
      const key = keyOf(req);
      const known = answers.get(key);
      if (known) {
        // Most recently used last: the first key is the one to drop.
        answers.delete(key);
        answers.set(key, known);
        stats.hits++;
        return known instanceof Promise ? known : Promise.resolve(known);
      }
      stats.misses++;
      const made = searcher.search(req).then(deepFreeze);
      // Only a search that answered is kept (and only while its generation is current), as its answer.
      made.then(
        (answer) => answers.get(key) === made && answers.set(key, answer),
        () => answers.get(key) === made && answers.delete(key),
      );
      answers.set(key, made);
      if (answers.size > maxEntries) answers.delete(answers.keys().next().value!);
      return made;
    },
  };
}
