import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChromaClient } from "chromadb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chroma/embedded.js";
import { startTestSearch } from "../helpers/chroma.js";
import { startChromaServer, type ChromaServer } from "./chroma-server.js";

const BOOKS = ["RUT", "JON"];
let dir: string;
let chroma: ChromaServer;
let client: ChromaClient;
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), "upgrade-"));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "upgrade-chroma-"));
  chroma = await startChromaServer(dir, await freePort());
  client = new ChromaClient({ host: "127.0.0.1", port: chroma.port, ssl: false });
});
afterAll(async () => {
  await chroma?.stop();
  for (const d of [dir, ...dirs]) rmSync(d, { recursive: true, force: true });
});

describe("the shared index across releases and outages", () => {
  it("when a collection was written by a release before the complete mark, then the new release adopts it as it is instead of rewriting it under the old replicas", async () => {
    const first = await startTestSearch({ books: BOOKS, dataDir: dataDir(), chromaUrl: chroma.url });
    const name = (await first.indexed).store.info.name;
    await first.close();
    const old = await client.getCollection({ name });
    // The metadata an older release wrote: no complete mark.
    await old.modify({ metadata: { embedder: old.metadata!.embedder!, corpus_hash: old.metadata!.corpus_hash!, dim: old.metadata!.dim! } });
    const upgraded = await startTestSearch({ books: BOOKS, dataDir: dataDir(), chromaUrl: chroma.url });
    try {
      await upgraded.indexed;
      const now = await client.getCollection({ name });
      expect(now.id).toBe(old.id);
      expect(now.metadata).toMatchObject({ complete: true });
      expect((await upgraded.search.search({ query: "Jonah is swallowed by a fish", bibleId: "eng-web", limit: 3 })).results[0]?.book_id).toBe("JON");
    } finally {
      await upgraded.close();
    }
  });

  it("when a replica starts while Chroma is down, then it waits for it and becomes ready on its own once Chroma answers", async () => {
    await chroma.stop();
    const svc = startTestSearch({ books: BOOKS, dataDir: dataDir(), chromaUrl: chroma.url });
    let ready = false;
    void svc.then(() => (ready = true));
    await new Promise((r) => setTimeout(r, 3000));
    expect(ready).toBe(false);
    await chroma.start();
    const started = Date.now();
    const s = await svc;
    try {
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(s.readiness.status()).toMatchObject({ ready: true, state: "ready", chroma: "up" });
      expect(s.logs.filter((l) => l.includes("scripture search unavailable")).length).toBeLessThanOrEqual(2);
      expect((await s.search.search({ query: "Ruth gleans in the field of Boaz", bibleId: "eng-web", limit: 3 })).results[0]?.book_id).toBe("RUT");
    } finally {
      await s.close();
    }
  }, 60_000);
});
