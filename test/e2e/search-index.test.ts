import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { startTestSearch } from "../helpers/chroma.js";

const BOOKS = ["RUT", "JON", "PHM", "LUK"];
let dataDir: string;
let fake: FakeProvider;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "search-index-"));
  fake = await startFakeProvider({ embeddingDimensions: 64 });
});
afterAll(async () => {
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const manifest = () => JSON.parse(readFileSync(join(dataDir, "search", "manifest.json"), "utf8"));

describe("the search index lifecycle on a real embedded Chroma", () => {
  it("when started on an empty DATA_DIR, then it ingests with progress logs and writes a manifest", async () => {
    const svc = await startTestSearch({ books: BOOKS, dataDir });
    try {
      const index = await svc.indexed;
      expect(index.mode).toBe("ingest");
      expect(svc.logs.some((l) => l.includes("training LSA"))).toBe(true);
      expect(svc.logs.some((l) => l.includes("stored"))).toBe(true);
      expect(manifest()).toMatchObject({ embedderId: index.embedder.id, passages: index.passages.length, collection: index.manifest.collection });
      expect(index.embedder.id).toMatch(/^lsa-128-[0-9a-f]{16}$/);
      expect((await svc.search.search({ query: "Jonah is swallowed by a fish", bibleId: "eng-web", limit: 3 })).results[0]?.book_id).toBe("JON");
    } finally {
      await svc.close();
    }
  });

  it("when started again on the same DATA_DIR, then the index is found valid and nothing is rebuilt", async () => {
    const before = manifest();
    const started = Date.now();
    const svc = await startTestSearch({ books: BOOKS, dataDir });
    try {
      const index = await svc.indexed;
      expect(index.mode).toBe("warm");
      expect(svc.logs.some((l) => l.includes("training LSA"))).toBe(false);
      expect(manifest()).toEqual(before);
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await svc.close();
    }
  });

  it("when the Chroma data is lost but the vectors are on disk, then they are re-added without re-embedding", async () => {
    rmSync(join(dataDir, "chroma"), { recursive: true, force: true });
    const svc = await startTestSearch({ books: BOOKS, dataDir });
    try {
      const index = await svc.indexed;
      expect(index.mode).toBe("reupload");
      expect(svc.logs.some((l) => l.includes("training LSA"))).toBe(false);
      expect(existsSync(join(dataDir, "search", "manifest.json"))).toBe(true);
    } finally {
      await svc.close();
    }
  });
  it("when the embedder changes, then a separate collection is built and vectors are never mixed", async () => {
    const lsaCollection = manifest().collection;
    const svc = await startTestSearch({ books: BOOKS, dataDir, embeddings: { baseURL: fake.baseURL, model: "text-embedding-3-small", apiKey: "sk-test" } });
    try {
      const index = await svc.indexed;
      expect(index.mode).toBe("ingest");
      expect(index.embedder.kind).toBe("openai");
      expect(index.embedder.dim).toBe(64);
      expect(index.manifest.collection).not.toBe(lsaCollection);
      expect(manifest().embedderSpec).toContain("openai:");
      const embeddingCalls = fake.requests.filter((r) => r.path.endsWith("/embeddings"));
      expect(embeddingCalls.length).toBeGreaterThan(1);
      expect(embeddingCalls.every((r) => (r.body as { encoding_format?: string }).encoding_format === "base64")).toBe(true);
      const { results, type } = await svc.search.search({ query: "Ruth gleans barley in the field of Boaz", bibleId: "eng-web", limit: 3 });
      expect(type).toBe("semantic_hybrid");
      expect(results[0]?.book_id).toBe("RUT");
    } finally {
      await svc.close();
    }
  });

});
