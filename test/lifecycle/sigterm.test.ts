import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { match, reply, startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { childProcesses } from "../helpers/processes.js";

const KEY = "sk-test-lifecycle-6a0f93c2d1";
const ANSWER =
  "Hope in the Bible is confident expectation, not wishful thinking, because it rests on God's promises. " +
  "Romans 5:5 says that hope does not disappoint, and Hebrews 6:19 calls it an anchor of the soul, sure and steadfast. ";

interface Running {
  proc: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  chromaPid: number;
}

let provider: FakeProvider;
const dirs: string[] = [];
const procs: ChildProcess[] = [];
beforeAll(async () => {
  provider = await startFakeProvider();
});
afterEach(() => provider.reset());
afterAll(async () => {
  for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
  await provider.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The real service from its sources (tsx loader), on a copy of the run's index; stop-everything.test.ts runs the production start. */
async function startMain(env: Record<string, string>): Promise<Running> {
  const dataDir = mkdtempSync(join(tmpdir(), "bc-life-"));
  dirs.push(dataDir);
  cpSync(inject("indexDataDir"), dataDir, { recursive: true });
  const proc = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, OPENAI_BASE_URL: provider.baseURL, LOG_LEVEL: "debug", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  procs.push(proc);
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  // Every line the service logs joins the suite's key-leak scan.
  const logFile = join(inject("captureDir"), `log-main-${proc.pid}.txt`);
  proc.stderr!.on("data", (c: Buffer) => appendFileSync(logFile, c));
  const lines = createInterface({ input: proc.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`main exited early (${code})`)));
    lines.on("line", (line) => {
      appendFileSync(logFile, `${line}\n`);
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  const deadline = Date.now() + 60_000;
  // /readyz answers 200 as soon as chat can; its body says when search (and its Chroma) is up.
  while (!(await searchReady(url))) {
    if (Date.now() > deadline) throw new Error("main never became ready");
    await new Promise((r) => setTimeout(r, 200));
  }
  const chromaPid = childProcesses(proc.pid!)[0]?.pid ?? 0;
  expect(chromaPid).toBeGreaterThan(0);
  return { proc, url, exited, chromaPid };
}

/** Running, not a zombie (a container's init may be slow to reap a reparented child). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}
async function stopped(pid: number, withinMs = 5000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (running(pid)) {
    if (Date.now() > deadline) {
      process.stderr.write(`still running: ${readFileSync(`/proc/${pid}/stat`, "utf8").slice(0, 120)}\n`);
      return false;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/** A connection whose request has begun (headers half sent) before shutdown, finished after it. */
function halfSentRequest(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "What is hope?" }] });
  socket.write(`POST /v1/chat/completions HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${KEY}\r\n`);
  let response = "";
  socket.on("data", (c: Buffer) => (response += c.toString()));
  const closed = new Promise<string>((r) => socket.on("close", () => r(response)));
  socket.on("error", () => undefined);
  return {
    finish: () => socket.end(`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
    response: closed,
  };
}

describe("when the service gets SIGTERM with streams in flight", () => {
  it("then the streams finish, new requests get 503, the embedded Chroma stops and the process exits 0", async () => {
    provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(ANSWER, { chunkDelayMs: 60 }));
    const svc = await startMain({ SHUTDOWN_TIMEOUT_MS: "20000" });
    const client = new OpenAI({ baseURL: `${svc.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const started: Promise<void>[] = [];
    const streams = [0, 1].map((i) => {
      let markStarted!: () => void;
      started[i] = new Promise<void>((r) => (markStarted = r));
      return (async () => {
        const s = await client.chat.completions.create({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "What is hope?" }] });
        let text = "";
        let finish: string | null = null;
        for await (const c of s) {
          text += c.choices[0]?.delta.content ?? "";
          if (text) markStarted();
          finish = c.choices[0]?.finish_reason ?? finish;
        }
        return { text, finish };
      })();
    });
    // Both answers are mid-stream (text already received) when the signal comes.
    await Promise.all(started);
    const pending = halfSentRequest(svc.url);
    await new Promise((r) => setTimeout(r, 100));

    const signalled = Date.now();
    svc.proc.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 200));
    pending.finish();
    const late = await pending.response;
    expect(late).toMatch(/^HTTP\/1\.1 503/);
    expect(late).toContain('"code":"service_unavailable"');
    const fresh = await fetch(`${svc.url}/v1/models`).then((r) => r.status, () => "refused");
    expect([503, "refused"]).toContain(fresh);

    const done = await Promise.all(streams);
    for (const d of done) {
      expect(d.finish).toBe("stop");
      expect(d.text).toContain("anchor of the soul");
    }
    expect(await svc.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(20_000);
    expect(await stopped(svc.chromaPid)).toBe(true);
  }, 120_000);

  it("then a keep-alive client's connection is closed as soon as its stream ends, so the process exits long before SHUTDOWN_TIMEOUT_MS", async () => {
    provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(ANSWER, { chunkDelayMs: 60 }));
    const svc = await startMain({ SHUTDOWN_TIMEOUT_MS: "30000" });
    // Keep-alive, as every SDK, browser and balancer connects: the socket stays open after the response.
    const agent = new Agent({ keepAlive: true });
    const { hostname, port } = new URL(svc.url);
    let firstText!: () => void;
    const textSeen = new Promise<void>((r) => (firstText = r));
    const stream = new Promise<{ body: string; endedAt: number }>((resolve, reject) => {
      const req = request(
        { host: hostname, port, path: "/v1/chat/completions", method: "POST", agent, headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" } },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => ((body += c), body.includes('"content":"H') && firstText()));
          res.on("end", () => resolve({ body, endedAt: Date.now() }));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "What is hope?" }] }));
    });
    await textSeen;
    svc.proc.kill("SIGTERM");
    const { body, endedAt } = await stream;
    expect(body.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(body).toContain("anchor");
    expect(await svc.exited).toBe(0);
    // Without closing connections that turn idle during the drain, it waits out the whole 30 s deadline.
    expect(Date.now() - endedAt).toBeLessThan(10_000);
    agent.destroy();
  }, 120_000);

  it("then a stream that never ends gets an error event and [DONE] at SHUTDOWN_TIMEOUT_MS, the log says so, and the process still exits 0", async () => {
    provider.on(match.all(match.agent(), match.afterToolResult()), reply.stall(50, { text: ANSWER.repeat(3) }));
    const svc = await startMain({ SHUTDOWN_TIMEOUT_MS: "1500", PROVIDER_TIMEOUT_MS: "60000" });
    const client = new OpenAI({ baseURL: `${svc.url}/v1`, apiKey: KEY, maxRetries: 0 });
    const s = await client.chat.completions.create({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "What is hope?" }] });
    const reading = (async () => {
      try {
        for await (const _c of s) void _c;
        return undefined;
      } catch (err) {
        return err as { code?: unknown; status?: unknown };
      }
    })();
    // The raw bytes too: the stream must end with [DONE], not a cut socket.
    const raw = fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "What is hope?" }] }),
    }).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 500));
    const signalled = Date.now();
    svc.proc.kill("SIGTERM");
    expect(await svc.exited).toBe(0);
    const took = Date.now() - signalled;
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(10_000);
    // The official client reads the error event as an APIError with the service's code.
    expect(await reading).toMatchObject({ code: "service_unavailable" });
    const text = await raw;
    expect(text).toContain('"code":"service_unavailable"');
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const access = readFileSync(join(inject("captureDir"), `log-main-${svc.proc.pid}.txt`), "utf8")
      .split("\n")
      .filter((l) => l.includes('"msg":"request"') && l.includes("/v1/chat/completions"));
    expect(access.length).toBe(2);
    for (const line of access) expect(JSON.parse(line)).toMatchObject({ status: 200, code: "service_unavailable" });
    expect(await stopped(svc.chromaPid)).toBe(true);
  }, 120_000);
});

async function searchReady(url: string): Promise<boolean> {
  const res = await fetch(`${url}/readyz`).catch(() => undefined);
  return res?.status === 200 && ((await res.json()) as { search?: { ready?: boolean } }).search?.ready === true;
}
