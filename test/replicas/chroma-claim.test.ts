import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChromaClient } from "chromadb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClaimBoard } from "../../src/chroma/claim.js";
import { freePort } from "../../src/chroma/embedded.js";
import { startChromaServer, type ChromaServer } from "./chroma-server.js";

let dir: string;
let chroma: ChromaServer;
let client: ChromaClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "claim-"));
  chroma = await startChromaServer(dir, await freePort());
  client = new ChromaClient({ host: "127.0.0.1", port: chroma.port, ssl: false });
});
afterAll(async () => {
  await chroma?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const board = (name: string, owner: string, leaseMs = 400) => new ClaimBoard(client, name, { owner, leaseMs, renewMs: 100 });

describe("a build claim made in Chroma", () => {
  it("when eight replicas claim the same work at once, then exactly one wins", async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => board("race", `r${i}`).tryClaim()));
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    expect(await won[0]!.stillHeld()).toBe(true);
    won[0]!.stop();
  });

  it("when the holder keeps renewing, then nobody takes it over however long they wait", async () => {
    const holder = await board("renewed", "holder").tryClaim();
    expect(holder).toBeDefined();
    const other = board("renewed", "other");
    for (let i = 0; i < 8; i++, await sleep(150)) expect(await other.tryClaim()).toBeUndefined();
    expect(await holder!.stillHeld()).toBe(true);
    holder!.stop();
  });

  it("when the holder stops renewing (crashed), then another takes the next generation after one lease and the old holder knows it lost", async () => {
    const holder = await board("crashed", "holder").tryClaim();
    holder!.stop();
    const others = [board("crashed", "a"), board("crashed", "b")];
    const started = Date.now();
    let won: Awaited<ReturnType<ClaimBoard["tryClaim"]>>[] = [];
    while (Date.now() - started < 5000) {
      won = (await Promise.all(others.map((o) => o.tryClaim()))).filter((c) => c !== undefined);
      if (won.length > 0) break;
      await sleep(50);
    }
    expect(won).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(won[0]!.generation).toBe(2);
    expect(await holder!.stillHeld()).toBe(false);
    won[0]!.stop();
    await others[0]!.clear();
    expect(await others[1]!.current()).toBeUndefined();
  });
});
