import { Agent, request as httpRequest } from "node:http";
import fc from "fast-check";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startService, type RunningService } from "../helpers/service.js";
import { FUZZ_KEY, authHeader, chatBody, contentType, linksHeader, rawBody, searchBody, searchParams, searchQuery } from "./arbitraries.js";

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const CONCURRENCY = 16;

let s: RunningService;
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const rejections: unknown[] = [];
const onRejection = (err: unknown) => void rejections.push(err);

beforeAll(async () => {
  process.on("unhandledRejection", onRejection);
  // Sent through node:http, which the capture's fetch hook does not see: register the key for the leak scan.
  appendFileSync(join(inject("captureDir"), `keys-fuzz-${process.pid}.txt`), `${FUZZ_KEY}\n`);
  // The fake provider answers at once, from this test's own process: a provider timeout here only
  // means this process was starved of CPU (a loaded CI machine), so the limit is generous.
  s = await startService({ logLevel: "warn", env: { PROVIDER_TIMEOUT_MS: "20000" } });
});
afterAll(async () => {
  process.off("unhandledRejection", onRejection);
  agent.destroy();
  await s?.close();
});

interface Sent {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Got {
  status: number;
  type: string;
  text: string;
  /** The service's X-Request-Id: its log lines for this request carry it as requestId. */
  id: string;
}

function send(req: Sent): Promise<Got> {
  const url = new URL(req.path, s.url);
  return new Promise((resolve, reject) => {
    const r = httpRequest(url, { method: req.method, headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString(), id: String(res.headers["x-request-id"] ?? "") }));
      res.on("error", reject);
    });
    r.setTimeout(30_000, () => r.destroy(new Error(`no answer in 30 s: ${req.method} ${req.path}`)));
    r.on("error", reject);
    r.end(req.body);
  });
}

const json = (v: unknown) => {
  try {
    return JSON.stringify(v) ?? "null";
  } catch {
    return "null";
  }
};

/** Percent-encodes every UTF-8 byte (encodeURIComponent throws on the lone surrogates we want to send). */
const pct = (text: string) => [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

const request: fc.Arbitrary<Sent> = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record({ body: chatBody, auth: authHeader, ct: contentType, links: linksHeader }).map(({ body, auth, ct, links }) => ({
      method: "POST" as const,
      path: "/v1/chat/completions",
      headers: { ...(auth ? { authorization: auth } : {}), ...(ct ? { "content-type": ct } : {}), ...(links !== undefined ? { "x-convert-scripture-links": links } : {}) },
      body: json(body),
    })),
  },
  {
    weight: 3,
    arbitrary: fc.record({ body: rawBody, auth: authHeader, path: fc.constantFrom("/v1/chat/completions", "/v1/scripture/search") }).map(({ body, auth, path }) => ({
      method: "POST" as const,
      path,
      headers: { authorization: auth, "content-type": "application/json" },
      body,
    })),
  },
  { weight: 1, arbitrary: searchQuery.map((q) => ({ method: "GET" as const, path: `/v1/scripture/search?q=${pct(q)}`, headers: {} })) },
  {
    weight: 10,
    arbitrary: searchParams.map((pairs) => ({ method: "GET" as const, path: `/v1/scripture/search?${pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join("&")}`, headers: {} })),
  },
  { weight: 6, arbitrary: searchBody.map((b) => ({ method: "POST" as const, path: "/v1/scripture/search", headers: { "content-type": "application/json" }, body: json(b) })) },
);

/**
 * What a 5xx needs to be understood from CI's output alone: the whole body, the service's log lines for
 * this request (the error handler logs the provider failure's name and code along its cause chain) and
 * the fake provider's counters (an aborted request or a closed socket there points at the transport).
 */
function serverFault(got: Got): string {
  const lines = got.id ? s.logs.filter((line) => line.includes(`"requestId":"${got.id}"`)) : [];
  return [
    `request id ${got.id || "(none)"}, body: ${got.text.slice(0, 2000)}`,
    `service log for it (${lines.length} lines at level warn and above):`,
    ...lines.map((line) => `  ${line.trimEnd().slice(0, 1000)}`),
    `fake provider: ${JSON.stringify(s.provider.stats)}`,
  ].join("\n");
}

function checkShape(req: Sent, got: Got) {
  const where = `${req.method} ${req.path.slice(0, 120)} ${req.body?.slice(0, 200) ?? ""} -> ${got.status} ${got.status >= 500 ? `\n${serverFault(got)}` : got.text.slice(0, 200)}`;
  expect(got.status, where).toBeLessThan(500);
  if (got.status >= 400) {
    const body = JSON.parse(got.text) as { error?: Record<string, unknown> };
    expect(body.error, where).toBeDefined();
    expect(typeof body.error!.message, where).toBe("string");
    expect(body.error!.type, where).toBe("invalid_request_error");
    expect(typeof body.error!.code, where).toBe("string");
    expect("param" in body.error!, where).toBe(true);
  } else {
    expect(got.status, where).toBe(200);
    if (got.type.includes("text/event-stream")) expect(got.text.trimEnd().endsWith("data: [DONE]"), where).toBe(true);
    else JSON.parse(got.text);
  }
}

describe("fuzzing chat and search requests against the real app", () => {
  it(`when ${RUNS} generated bodies, headers and query strings arrive, then no 5xx, every 4xx is the error envelope, nothing crashes or pollutes Object.prototype`, async () => {
    const inputs = fc.sample(request, { numRuns: RUNS, seed: SEED });
    const statuses = new Map<number, number>();
    let next = 0;
    const failures: string[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < inputs.length) {
          const req = inputs[next++]!;
          const got = await send(req);
          statuses.set(got.status, (statuses.get(got.status) ?? 0) + 1);
          try {
            checkShape(req, got);
          } catch (err) {
            if (got.status >= 500) process.stdout.write(`fuzz: seed ${SEED}: ${(err as Error).message}\n`);
            if (failures.length < 5) failures.push((err as Error).message);
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(`fuzz: ${inputs.length} inputs in ${seconds.toFixed(1)} s, seed ${SEED}, statuses ${JSON.stringify(Object.fromEntries(statuses))}\n`);
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 50);
    const pollution = Object.getOwnPropertyNames(Object.prototype).filter((k) => !["constructor", "__defineGetter__", "__defineSetter__", "hasOwnProperty", "__lookupGetter__", "__lookupSetter__", "isPrototypeOf", "propertyIsEnumerable", "toString", "valueOf", "__proto__", "toLocaleString"].includes(k));
    expect(pollution).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(rejections).toEqual([]);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  }, 480_000);
});

describe("limits, with the contract's codes", () => {
  const auth = { authorization: `Bearer ${FUZZ_KEY}`, "content-type": "application/json" };
  const chat = (body: unknown) => send({ method: "POST", path: "/v1/chat/completions", headers: auth, body: JSON.stringify(body) });
  const user = (content: string) => ({ role: "user", content });
  const code = (got: Got) => (JSON.parse(got.text) as { error: { code: string } }).error.code;

  it.each<[string, () => Promise<Got>, number, string]>([
    ["a body over 1 MB", () => chat({ messages: [user("x".repeat(1_100_000))] }), 413, "request_too_large"],
    ["more than 5 user messages", () => chat({ messages: Array.from({ length: 6 }, () => user("Why?")) }), 429, "conversation_limit_exceeded"],
    ["a message over 20,000 characters", () => chat({ messages: [user("x".repeat(20_001))] }), 400, "context_length_exceeded"],
    ["system_instructions over 20,000 characters", () => chat({ messages: [user("Why?")], system_instructions: "s".repeat(20_001) }), 400, "context_length_exceeded"],
    ["over 100,000 characters in all", () => chat({ messages: [...Array.from({ length: 6 }, () => ({ role: "system", content: "s".repeat(19_000) })), user("Why?")] }), 400, "context_length_exceeded"],
    ["more than 200 verses", () => chat({ messages: [user("Why?")], book_id: "PSA", chapter: 119, verses: Array.from({ length: 201 }, (_, i) => i + 1) }), 400, "invalid_parameter"],
    ["max_words 0", () => chat({ messages: [user("Why?")], max_words: 0 }), 400, "invalid_parameter"],
    ["max_words 2001", () => chat({ messages: [user("Why?")], max_words: 2001 }), 400, "invalid_parameter"],
    ["max_words 2.5", () => chat({ messages: [user("Why?")], max_words: 2.5 }), 400, "invalid_parameter"],
    ["a search query over 1,000 characters", () => send({ method: "GET", path: `/v1/scripture/search?q=${"a".repeat(1001)}`, headers: {} }), 400, "invalid_parameter"],
    ["a search limit of 21", () => send({ method: "GET", path: "/v1/scripture/search?q=love&limit=21", headers: {} }), 400, "invalid_parameter"],
  ])("when %s, then the contract's status and code", async (_name, run, status, want) => {
    const got = await run();
    expect(got.status).toBe(status);
    expect(code(got)).toBe(want);
  });

  it("when the limits are just met, then the request is served", async () => {
    const ok = await chat({ messages: [user(`${"x ".repeat(9_990)}What is grace?`)], max_words: 2000, book_id: "PSA", chapter: 119, verses: Array.from({ length: 176 }, (_, i) => i + 1) });
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    const search = await send({ method: "GET", path: `/v1/scripture/search?q=${"love ".repeat(200)}&limit=20`, headers: {} });
    expect(search.status).toBe(200);
  });
});
