import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { promisify } from "node:util";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChromaClient } from "chromadb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/chroma/embedded.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { startChromaServer, type ChromaServer } from "./chroma-server.js";
import { startReplica, until, type Replica } from "./replica-process.js";

/**
 * Replicas as `docker compose up --scale api=N` runs them: separate processes, each with its own empty
 * DATA_DIR, one Chroma server from the chromadb package. Only a few books are indexed to stay quick.
 */
const QUERY = "Jonah is swallowed by a great fish";
let dir: string;
let chroma: ChromaServer;
let client: ChromaClient;
let fake: FakeProvider;
const replicas: Replica[] = [];

const indexCollections = async () => (await client.listCollections({ limit: 1000 })).map((c) => c.name).filter((n) => n.startsWith("scripture-")).sort();
const searchReady = async (r: Replica) => (await r.readyz()).body.search.ready;
const servesSearch = async (r: Replica) => (await r.search(QUERY)).firstBook === "JON";
const modes = (r: Replica) => r.logs.filter((l) => l.msg === "search index ready").map((l) => l.mode);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "replicas-chroma-"));
  chroma = await startChromaServer(dir, await freePort());
  client = new ChromaClient({ host: "127.0.0.1", port: chroma.port, ssl: false });
  fake = await startFakeProvider({ embeddingDimensions: 32 });
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await fake?.close();
  await chroma?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("several replicas on one Chroma", () => {
  it("when three replicas start together on an empty Chroma, then one builds the index, the others wait for it, and all serve search", async () => {
    const env = { CHROMA_URL: chroma.url };
    replicas.push(...(await Promise.all(["a", "b", "c"].map((n) => startReplica(n, env)))));
    await until("three replicas with search ready", async () => (await Promise.all(replicas.map(searchReady))).every(Boolean), 90_000);
    for (const r of replicas) expect(await servesSearch(r), `replica ${r.name} serves search`).toBe(true);
    expect(replicas.flatMap(modes).sort()).toEqual(["ingest", "shared", "shared"]);
    // One collection, named for what it holds; the build's claims are gone.
    const names = await indexCollections();
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^scripture-[0-9a-f]{8}-lsa-\d+-[0-9a-f]{16}$/);
    const body = (await replicas[0]!.readyz()).body;
    expect(body).toMatchObject({ status: "ready", search: { ready: true, state: "ready", chroma: "up", index: names[0], index_version: expect.any(Number) } });
    const metrics = await replicas[1]!.metrics();
    expect(metrics).toMatch(/^scripture_search_ready 1$/m);
    expect(metrics).toMatch(/^chroma_up 1$/m);
    expect(metrics).toContain(`scripture_index_info{collection="${names[0]}"`);
  }, 120_000);

  it("when a replica of another configuration and one with an empty disk join, then every running replica keeps serving search", async () => {
    const running = [...replicas];
    const failures: number[] = [];
    let joining = true;
    const hammer = (async () => {
      while (joining) {
        for (const r of running) {
          const res = await r.search(QUERY);
          if (res.firstBook !== "JON") failures.push(res.status);
        }
      }
    })();
    const joined = await Promise.all([
      startReplica("embeddings", { CHROMA_URL: chroma.url, EMBEDDINGS_BASE_URL: fake.baseURL, EMBEDDINGS_API_KEY: "sk-test-embeddings-replicas" }),
      startReplica("d", { CHROMA_URL: chroma.url }),
    ]);
    replicas.push(...joined);
    await until("the joining replicas' search ready", async () => (await Promise.all(joined.map(searchReady))).every(Boolean), 90_000);
    joining = false;
    await hammer;
    expect(failures).toEqual([]);
    for (const r of replicas) expect(await servesSearch(r), `replica ${r.name} serves search`).toBe(true);
    expect(modes(joined[0]!)).toEqual(["ingest"]);
    expect(modes(joined[1]!)).toEqual(["shared"]);
    expect(await indexCollections()).toHaveLength(2);
  }, 120_000);

  it("when Chroma stops, then every replica stays ready for chat and reports search down; when it is back, all serve search again within 30 s without a restart", async () => {
    await chroma.stop();
    await until("every replica reporting search down", async () => (await Promise.all(replicas.map(searchReady))).every((ready) => !ready), 15_000);
    for (const r of replicas) {
      const { status, body } = await r.readyz();
      expect(status, `replica ${r.name} /readyz`).toBe(200);
      expect(body.search.chroma).toBe("down");
      expect((await r.search(QUERY)).status).toBe(503);
      expect(await r.metrics()).toMatch(/^chroma_up 0$/m);
    }
    await chroma.start();
    const ms = await until("every replica serving search again", async () => (await Promise.all(replicas.map(servesSearch))).every(Boolean), 30_000);
    expect(ms).toBeLessThan(30_000);
    for (const r of replicas) {
      // The outage is logged as a change of state, not once per refused request.
      expect(r.logs.filter((l) => l.msg === "Chroma unreachable: search not ready").length, r.name).toBeLessThanOrEqual(2);
      expect(r.logs.filter((l) => l.msg === "request failed")).toEqual([]);
    }
  }, 90_000);

  it("when a collection in use is deleted, then the replicas resolve it again (one rebuilds it) without calling Chroma unreachable", async () => {
    const [lsa] = (await indexCollections()).filter((n) => n.includes("-lsa-"));
    const before = replicas.map((r) => r.logs.length);
    await client.deleteCollection({ name: lsa! });
    await until("every replica serving search again", async () => (await Promise.all(replicas.map(servesSearch))).every(Boolean), 30_000);
    const after = replicas.map((r, i) => r.logs.slice(before[i]));
    expect(after.flat().filter((l) => l.msg === "Chroma unreachable: search not ready")).toEqual([]);
    expect(after.flat().filter((l) => l.msg === "search index: writing vectors to Chroma again")).toHaveLength(1);
    expect((await indexCollections()).filter((n) => n === lsa)).toHaveLength(1);
  }, 60_000);

  it("when the operator prunes, then it lists what it would remove and removes nothing without --yes; with --yes it removes what it listed, sparing --keep", async () => {
    // Indexes of a few books are not this release's corpus (eng-web whole), so both are candidates.
    const names = await indexCollections();
    const [lsa, other] = [names.find((n) => n.includes("-lsa-"))!, names.find((n) => !n.includes("-lsa-"))!];
    const prune = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "ingest/prune-index.ts", ...args], { env: { ...process.env, CHROMA_URL: chroma.url } });
    const dry = await prune("--keep", lsa);
    expect(dry.stdout).toContain(`remove  ${other}`);
    expect(dry.stdout).toContain(`keep    ${lsa}`);
    expect(dry.stdout).toContain("Would remove 1 collection(s)");
    expect(await indexCollections()).toEqual(names);
    const applied = await prune("--keep", lsa, "--yes");
    expect(applied.stdout).toContain(`removed ${other}`);
    expect(await indexCollections()).toEqual([lsa]);
  }, 60_000);
});
