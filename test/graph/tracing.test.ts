import { createServer, type IncomingMessage, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import { Client } from "langsmith";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import { KEY, startHarness, type Harness } from "./harness.js";

/** A LangSmith-compatible tracing endpoint that keeps the runs it is sent (POST /runs, PATCH /runs/:id). */
interface TraceSink {
  url: string;
  runs: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

async function raw(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const all = Buffer.concat(parts);
  return req.headers["content-encoding"] === "gzip" ? gunzipSync(all) : all;
}

/** LangSmith's multipart ingest: parts named post.<id>, post.<id>.inputs, patch.<id>.outputs, ... */
async function multipart(req: IncomingMessage, data: Buffer, runs: Map<string, Record<string, unknown>>) {
  const form = await new Response(new Uint8Array(data), { headers: { "content-type": String(req.headers["content-type"]) } }).formData();
  const entries: [string, string | Blob][] = [];
  form.forEach((value, name) => entries.push([name, value]));
  for (const [name, value] of entries) {
    const m = /^(post|patch)\.([\w-]+)(?:\.(inputs|outputs|events|extra|error|serialized))?$/.exec(name);
    if (!m) continue;
    const json = JSON.parse(typeof value === "string" ? value : await value.text()) as unknown;
    const run = runs.get(m[2]!) ?? {};
    if (m[3]) run[m[3]] = json;
    else Object.assign(run, json);
    runs.set(m[2]!, run);
  }
}

async function startTraceSink(): Promise<TraceSink> {
  const runs = new Map<string, Record<string, unknown>>();
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]!;
    const data = await raw(req);
    if (req.method === "POST" && path === "/runs/multipart") await multipart(req, data, runs);
    else if (req.method === "POST" && path === "/runs/batch") {
      const batch = JSON.parse(data.toString("utf8")) as { post?: Record<string, unknown>[]; patch?: Record<string, unknown>[] };
      for (const r of [...(batch.post ?? []), ...(batch.patch ?? [])]) runs.set(String(r.id), { ...(runs.get(String(r.id)) ?? {}), ...r });
    } else if (req.method === "POST" && path === "/runs") {
      const r = JSON.parse(data.toString("utf8")) as Record<string, unknown>;
      runs.set(String(r.id), r);
    } else if (req.method === "PATCH" && /^\/runs\/[\w-]+$/.test(path)) {
      const id = path.slice("/runs/".length);
      runs.set(id, { ...(runs.get(id) ?? {}), ...(JSON.parse(data.toString("utf8")) as Record<string, unknown>) });
    }
    res.setHeader("content-type", "application/json");
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    runs,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

const ANSWER = "God loved the world so much that he gave his Son (John 3:16).";

const ENV = ["LANGSMITH_TRACING", "LANGSMITH_ENDPOINT", "LANGSMITH_API_KEY", "LANGCHAIN_TRACING_V2", "LANGCHAIN_CALLBACKS_BACKGROUND"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

/**
 * As an operator turns it on: LANGSMITH_TRACING with an endpoint (here a local sink). LangGraph traces
 * the graph and its nodes; the runtime wraps its provider client, so each provider call is a run inside.
 */
describe("LangSmith tracing of the provider calls", () => {
  let sink: TraceSink;
  let client: Client;
  let traced: Harness;
  let plain: Harness;
  const llmRuns = () => [...sink.runs.values()].filter((r) => r.run_type === "llm");
  beforeAll(async () => {
    sink = await startTraceSink();
    Object.assign(process.env, { LANGSMITH_TRACING: "true", LANGSMITH_ENDPOINT: sink.url, LANGSMITH_API_KEY: "ls-test-key", LANGCHAIN_CALLBACKS_BACKGROUND: "false" });
    client = new Client({ apiUrl: sink.url, apiKey: "ls-test-key" });
    traced = await startHarness({ tracing: true, tracingClient: client });
    // The runtime's own switch off (config.tracing false) while LangSmith itself is on: no provider-call runs.
    plain = await startHarness({ tracing: false, tracingClient: client });
    for (const h of [traced, plain]) {
      h.provider.on(match.all(match.agent(), match.not(match.afterToolResult())), reply.toolCall("lookup_passage", { reference: "John 3:16" }));
      h.provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(ANSWER));
    }
  });
  afterAll(async () => {
    await Promise.all([traced?.close(), plain?.close()]);
    await sink?.close();
    for (const k of ENV) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  /** Runs arrive in the background: wait until the count settles at what is expected. */
  async function settle(want: (n: number) => boolean) {
    await client.awaitPendingTraceBatches();
    for (let i = 0; i < 100 && !want(llmRuns().filter((r) => r.end_time).length); i++) await new Promise((r) => setTimeout(r, 50));
  }

  it("when tracing is on, then each provider call is a run with its messages, output and usage, and the key is not in it", async () => {
    const out = await traced.run("What does John 3:16 teach about God's love?");
    expect(out.content).toBe(ANSWER);
    await settle((n) => n >= 2);
    const llm = llmRuns();
    // The classifier and the agent's one call (the prefetched tool turn is already in it).
    expect(llm).toHaveLength(traced.provider.chatRequests.length);
    expect(llm).toHaveLength(2);
    for (const run of llm) {
      // The messages sent, inside the graph's own trace (a child of the node that made the call).
      expect(JSON.stringify(run.inputs)).toContain("What does John 3:16 teach");
      expect(run.parent_run_id).toBeTruthy();
      const outputs = run.outputs as { choices?: { message?: unknown }[]; usage_metadata?: { input_tokens?: number; output_tokens?: number } };
      expect(outputs.choices?.[0]?.message).toBeTruthy();
      expect(outputs.usage_metadata?.input_tokens).toBeGreaterThan(0);
      expect(outputs.usage_metadata?.output_tokens).toBeGreaterThan(0);
    }
    expect(JSON.stringify(llm.map((r) => r.outputs))).toContain(ANSWER);
    expect(JSON.stringify([...sink.runs.values()])).not.toContain(KEY);
  });

  it("when the runtime's tracing is off, then its provider calls are not wrapped and no call run is sent", async () => {
    const before = llmRuns().length;
    const out = await plain.run("What does John 3:16 teach about God's love?");
    expect(out.content).toBe(ANSWER);
    await settle(() => false);
    expect(llmRuns()).toHaveLength(before);
  });
});
