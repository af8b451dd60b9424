import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import { startService, type RunningService } from "../helpers/service.js";

const KEY = "sk-test-request-deadline-7d21c0";
const DEADLINE_MS = 1_500;
// A provider that never goes silent long enough for PROVIDER_TIMEOUT_MS, yet would take minutes to finish.
const TRICKLE = reply.text("word ".repeat(400), { chunkDelayMs: 200 });

describe("one overall deadline per chat request (REQUEST_DEADLINE_MS)", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ env: { REQUEST_DEADLINE_MS: String(DEADLINE_MS), PROVIDER_TIMEOUT_MS: "60000", PREFLIGHT_MODE: "sequential" } });
  });
  afterEach(() => svc.provider.reset());
  afterAll(async () => svc?.close());

  const ask = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: "What does the Bible say about patience?" }] };
  const accessLines = () =>
    svc.logs
      .flatMap((chunk) => chunk.split("\n").filter(Boolean))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "request" && l.path === "/v1/chat/completions");

  it("when a non-streamed answer trickles past the deadline, then the caller gets a 504 request_timeout in the error envelope at the deadline", async () => {
    svc.provider.on(match.agent(), TRICKLE);
    const started = performance.now();
    const err = await svc.client(KEY).chat.completions.create(ask).then(
      () => undefined,
      (e: unknown) => e as { status?: number; code?: string; type?: string },
    );
    const took = performance.now() - started;
    expect(err).toMatchObject({ status: 504, code: "request_timeout", type: "server_error" });
    expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(took).toBeLessThan(DEADLINE_MS + 3_000);
  });

  it("when a streamed answer trickles past the deadline, then the stream carries an error event and ends with [DONE]", async () => {
    svc.provider.on(match.agent(), TRICKLE);
    const res = await fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ ...ask, stream: true }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const events = text.split("\n\n").filter(Boolean);
    expect(events.some((e) => e.includes('"content":"word'))).toBe(true);
    expect(events.at(-2)).toContain('"code":"request_timeout"');
    expect(events.at(-1)).toBe("data: [DONE]");
    await new Promise((r) => setTimeout(r, 50));
    expect(accessLines().at(-1)).toMatchObject({ status: 200, code: "request_timeout" });
  });

  it("when the caller leaves before any response, then the access line says 499, not 200", async () => {
    svc.provider.on(match.agent(), TRICKLE);
    const leave = new AbortController();
    const pending = fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${KEY}` },
      body: JSON.stringify(ask),
      signal: leave.signal,
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 400));
    leave.abort();
    await pending;
    await new Promise((r) => setTimeout(r, 100));
    expect(accessLines().at(-1)).toMatchObject({ status: 499, aborted: true });
  });
});
