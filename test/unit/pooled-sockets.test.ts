import { AsyncLocalStorage } from "node:async_hooks";
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poolOutsideRequests } from "../../src/http/pooled-sockets.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_req, res) => res.end("ok"));
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** One GET inside `als.run(store)`; resolves with the store the response's events saw. */
function getInside(agent: Agent, als: AsyncLocalStorage<object>, store: object): Promise<object | undefined> {
  return als.run(store, () => new Promise((resolve, reject) => {
    request(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(als.getStore()));
    }).on("error", reject).end();
  }));
}

/** Whether `store` is still reachable after its request ended, its socket still in the agent's pool. */
async function keptAlive(agent: Agent): Promise<{ kept: boolean; seen: boolean }> {
  const als = new AsyncLocalStorage<object>();
  let store: object | undefined = { run: new Array(1000).fill(7) };
  const gone = new WeakRef(store);
  const seen = (await getInside(agent, als, store)) === store;
  store = undefined;
  await new Promise((r) => setImmediate(r));
  expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
  for (let i = 0; i < 3 && gone.deref(); i++) await new Promise((r) => setImmediate(r)), gc();
  return { kept: gone.deref() !== undefined, seen };
}

describe("pooled sockets opened outside the request's async context (pooled-sockets.ts)", () => {
  it("when a request inside a run opens a kept-alive socket, then the pooled socket does not keep the run's store alive, and the response's events still see it", async () => {
    const agent = poolOutsideRequests(new Agent({ keepAlive: true }));
    expect(await keptAlive(agent)).toEqual({ kept: false, seen: true });
    agent.destroy();
  });

  it("when the agent is a plain one, then its pooled socket keeps the store alive (what the wrapper is for)", async () => {
    const agent = new Agent({ keepAlive: true });
    expect(await keptAlive(agent)).toEqual({ kept: true, seen: true });
    agent.destroy();
  });
});
