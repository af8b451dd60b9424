import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectChroma, type ChromaConnection } from "../../src/chroma/connection.js";
import { embeddedChromaPath, startEmbeddedChroma, type EmbeddedChroma } from "../../src/chroma/embedded.js";
import { ensureIndex, prepareCorpus } from "../../src/scripture/search/index.js";
import { subsetBible } from "../helpers/chroma.js";

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let dataDir: string;
let chroma: EmbeddedChroma;
let conn: ChromaConnection;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "search-release-"));
  chroma = await startEmbeddedChroma({ path: embeddedChromaPath(dataDir), logger: quiet });
  conn = connectChroma(chroma.url);
});
afterAll(async () => {
  conn?.close();
  await chroma?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the corpus worker during an index build with LSA", () => {
  it("when the build has the vectors, then it has ended the worker, and a retried build is answered from what the corpus kept", async () => {
    const bible = subsetBible(["RUT", "JON"]);
    const prepared = await prepareCorpus(bible);
    try {
      const first = await ensureIndex({ bible, prepared, conn, dataDir, embedder: { kind: "lsa" }, logger: quiet });
      expect(first.mode).toBe("ingest");
      // Ended before Chroma was written: the windows' texts are gone with it.
      await expect(prepared.texts()).rejects.toThrow(/released/);

      // A build that failed after the worker ended (Chroma lost the collection) is run again from the start.
      await conn.client.deleteCollection({ name: first.store.info.name });
      const again = await ensureIndex({ bible, prepared, conn, dataDir, embedder: { kind: "lsa" }, logger: quiet, force: true });
      expect(again.mode).toBe("ingest");
      expect(again.embedder.id).toBe(first.embedder.id);
      expect(Array.from(again.vectors)).toEqual(Array.from(first.vectors));
      expect(await again.store.isComplete(first.passages.length)).toBe(true);
    } finally {
      await prepared.release();
    }
  });
});
