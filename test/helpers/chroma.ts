import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService, type SearchService, type SearchServiceOptions } from "../../src/scripture/search/service.js";
import type { ChapterSource } from "../../src/scripture/search/types.js";

/** Books indexed in HTTP tests (Tobit for the deuterocanon): a full ingest takes 30+ s on 2 cores; the eval script covers the full corpus. */
export const TEST_BOOKS = ["GEN", "EXO", "PSA", "ISA", "MAT", "LUK", "JHN", "ACT", "ROM", "1CO", "EPH", "TOB"];

export interface TestSearch extends SearchService {
  library: BibleLibrary;
  dataDir: string;
  logs: string[];
  /** Stops Chroma and removes the temp data dir. */
  close(): Promise<void>;
}

let library: BibleLibrary | undefined;

export function testLibrary(): BibleLibrary {
  return (library ??= loadBibleLibrary());
}

export function subsetBible(books: readonly string[]): ChapterSource {
  const web = testLibrary().get("eng-web")!;
  const keep = new Set(books);
  return { chapter: (b, c) => (keep.has(b) ? web.chapter(b, c) : undefined) };
}

/**
 * A real embedded Chroma on a fresh temp dir (free port) with a real index of TEST_BOOKS, started
 * through the same service code as production.
 */
export async function startTestSearch(
  options: { books?: readonly string[]; dataDir?: string } & Partial<Pick<SearchServiceOptions, "embeddings" | "chromaUrl">> = {},
): Promise<TestSearch> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "search-test-"));
  const logs: string[] = [];
  const push = (level: string) => (obj: object, msg?: string) => void logs.push(`${level} ${msg ?? ""} ${JSON.stringify(obj)}`);
  const service = startSearchService({
    dataDir,
    chromaUrl: options.chromaUrl,
    embeddings: options.embeddings,
    library: testLibrary(),
    rankingBible: subsetBible(options.books ?? TEST_BOOKS),
    logger: { info: push("info"), warn: push("warn"), error: push("error") },
  });
  await service.indexed;
  return {
    ...service,
    library: testLibrary(),
    dataDir,
    logs,
    async close() {
      await service.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One search service for a whole test file: started before its tests, closed after them; call the getter inside a test. */
export function useTestSearch(options: Parameters<typeof startTestSearch>[0] = {}): () => TestSearch {
  let svc: TestSearch | undefined;
  beforeAll(async () => {
    svc = await startTestSearch(options);
  }, 120_000);
  afterAll(async () => {
    await svc?.close();
  });
  return () => svc!;
}
