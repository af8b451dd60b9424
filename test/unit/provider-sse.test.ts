import { Stream } from "openai/streaming";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sseEvents } from "../../graphs/chat/provider-sse.js";

// The agent's event stream is read by sseEvents instead of the openai SDK's Stream.fromSSEResponse:
// every case here feeds the same bytes, in several chunkings, to both, and expects the same events
// in the same order and the same end (done, or the same error).

const enc = new TextEncoder();
const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...enc.encode(p)] : p)));
const chunk = (i: number, extra: object = {}) => JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: `word ${i} “é” ` }, finish_reason: null }], ...extra });

/** How the body ends after its data: failing with `err`, or staying open (a provider still sending). */
type Ending = { kind: "error"; err: unknown } | { kind: "open" };

/** A Response whose body gives `data` in the pieces `cuts` makes, then ends (or fails with `ending`). */
function response(data: Uint8Array, cuts: number[], ending?: Ending): { res: Response; cancelled: () => boolean } {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < data.length))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const c of [...points, data.length]) {
    pieces.push(data.slice(from, c));
    from = c;
  }
  let i = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < pieces.length) return controller.enqueue(pieces[i++]!);
      if (ending?.kind === "error") return controller.error(ending.err);
      if (ending?.kind === "open") return new Promise<void>(() => {});
      controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  return { res: new Response(body, { headers: { "x-request-id": "req_9" } }), cancelled: () => cancelled };
}

interface Outcome {
  items: unknown[];
  end: string;
  cancelled: boolean;
}

const describeError = (err: unknown) => {
  const e = err as { name?: string; message?: string; constructor?: { name?: string }; error?: unknown; status?: unknown; headers?: unknown };
  return `${e?.constructor?.name}:${e?.name}:${e?.message}:${JSON.stringify(e?.error)}:${String(e?.status)}:${e?.headers instanceof Headers ? e.headers.get("x-request-id") : "-"}`;
};

async function drain(iterable: AsyncIterable<unknown>, stopAfter?: number): Promise<{ items: unknown[]; end: string }> {
  const items: unknown[] = [];
  try {
    for await (const item of iterable) {
      items.push(item);
      if (stopAfter !== undefined && items.length >= stopAfter) return { items, end: "stopped" };
    }
    return { items, end: "done" };
  } catch (err) {
    return { items, end: describeError(err) };
  }
}

async function both(data: Uint8Array, cuts: number[], ending?: Ending, stopAfter?: number): Promise<{ sdk: Outcome; ours: Outcome }> {
  const a = response(data, cuts, ending);
  const sdk = await drain(Stream.fromSSEResponse(a.res, new AbortController()), stopAfter);
  const b = response(data, cuts, ending);
  const ours = await drain(sseEvents(b.res), stopAfter);
  // The SDK aborts its request (a controller these Responses do not see); ours cancels the body.
  return { sdk: { ...sdk, cancelled: false }, ours: { ...ours, cancelled: false } };
}

function chunkings(length: number): number[][] {
  const every = Array.from({ length }, (_, i) => i);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const random = Array.from({ length: 6 }, () => Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Math.floor(rand() * length)));
  return [[], every, [1], [length - 1], ...random];
}

const CASES: Record<string, Uint8Array> = {
  "plain events and [DONE]": bytes(`data: ${chunk(1)}\n\ndata: ${chunk(2)}\n\ndata: [DONE]\n\n`),
  "CRLF line ends": bytes(`data: ${chunk(1)}\r\n\r\ndata: ${chunk(2)}\r\n\r\ndata: [DONE]\r\n\r\n`),
  "lone CR line ends": bytes(`data: ${chunk(1)}\r\rdata: ${chunk(2)}\r\r`),
  "mixed line ends and a CR before text": bytes(`data: ${chunk(1)}\r\n\ndata: ${chunk(2)}\n\r\n: note\rdata: ${chunk(3)}\r\n\r`),
  "comments, other fields, no space after the colon": bytes(`: keep-alive\n\nid: 4\nretry: 10\ndata:${chunk(1)}\n\nfoo\n\ndata: ${chunk(2)}\n\n`),
  "data over several lines": bytes(`data: {"choices":\ndata: [{"index":0,"delta":{"content":"a"}}]}\n\n`),
  "events after [DONE] are dropped": bytes(`data: ${chunk(1)}\n\ndata: [DONE]\n\ndata: ${chunk(2)}\n\ndata: {"error":{"message":"late"}}\n\n`),
  "no blank line at the end": bytes(`data: ${chunk(1)}\n\ndata: ${chunk(2)}`),
  "a CR alone at the very end": bytes(`data: ${chunk(1)}\r\r`, `data: ${chunk(2)}\r`),
  "BOMs at the start and at a line's start": bytes([0xef, 0xbb, 0xbf], `data: ${chunk(1)}\n\n`, [0xef, 0xbb, 0xbf], `data: ${chunk(2)}\n\n`),
  "invalid UTF-8 and a cut character": bytes(`data: {"choices":[{"index":0,"delta":{"content":"`, [0xe2, 0x82], `"}}]}\n\n`, `data: {"x":"`, [0xff], `"}\n\n`, `data: {"y":"`, [0xe2]),
  "an in-stream error": bytes(`data: ${chunk(1)}\n\ndata: {"error":{"message":"overloaded","type":"server_error","code":"busy"}}\n\ndata: ${chunk(2)}\n\n`),
  "a string error": bytes(`data: ${chunk(1)}\n\ndata: {"error":"boom"}\n\n`),
  "data that is not JSON": bytes(`data: ${chunk(1)}\n\ndata: {not json\n\ndata: ${chunk(2)}\n\n`),
  "named events, thread.* and error": bytes(`event: message\ndata: ${chunk(1)}\n\nevent: thread.run\ndata: {"a":1}\n\nevent: error\ndata: ${chunk(2)}\n\nevent:\ndata: ${chunk(3)}\n\n`),
  "an empty event name and no data": bytes(`event:\n\ndata: ${chunk(1)}\n\nevent\n\n`),
  "null and scalar payloads": bytes(`data: null\n\ndata: 5\n\ndata: "s"\n\ndata: {"error":null}\n\ndata: {"error":0}\n\n`),
  "field names that only start like data or event, colon-less lines, a bare data line": bytes(`datax: {"a":1}\ndata\ndata:  {"b":2}\n\neventful: x\nevent\ndata: {"c":3}\n\nx\ny\nz\ndat: 1\ndata:\n\nevent: e\ndata:${chunk(1)}\n\n`),
  "empty body": bytes(""),
  "a body of blank lines": bytes("\n\n\r\n\r\r"),
};

describe("sseEvents reads the event stream as the openai SDK does", () => {
  let errorLog: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    // The SDK writes a JSON failure's data to console.error; the comparison is of what the reader gets.
    errorLog = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => errorLog.mockRestore());

  for (const [name, data] of Object.entries(CASES)) {
    it(`when the stream has ${name}, then every chunking gives the SDK's events and end`, async () => {
      for (const cuts of chunkings(data.length)) {
        const { sdk, ours } = await both(data, cuts);
        expect({ cuts, ...ours }).toEqual({ cuts, ...sdk });
      }
    });
  }

  it("when the body fails after some events, then the events come first and the same error after them", async () => {
    const data = CASES["plain events and [DONE]"]!.slice(0, 40 + chunk(1).length);
    for (const err of [Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }), new DOMException("This operation was aborted", "AbortError")]) {
      for (const cuts of chunkings(data.length)) {
        const { sdk, ours } = await both(data, cuts, { kind: "error", err });
        expect(ours).toEqual(sdk);
      }
    }
    // An abort ends the stream quietly, as in the SDK.
    const { ours } = await both(data, [], { kind: "error", err: new DOMException("aborted", "AbortError") });
    expect(ours.end).toBe("done");
  });

  it("when the reader stops early, then the body is cancelled (the provider's connection closes)", async () => {
    for (const cuts of [[], [5], [60]]) {
      const early = response(CASES["plain events and [DONE]"]!, cuts, { kind: "open" });
      const got = await drain(sseEvents(early.res), 1);
      expect(got.items).toHaveLength(1);
      expect(early.cancelled()).toBe(true);
    }
  });

  it("when an in-stream error is read, then the body is cancelled and the SDK's APIError is thrown", async () => {
    const failing = response(CASES["an in-stream error"]!, [], { kind: "open" });
    const got = await drain(sseEvents(failing.res));
    expect(got.items).toHaveLength(1);
    expect(got.end).toMatch(/^APIError:Error:overloaded:.*"code":"busy".*:undefined:req_9$/);
    expect(failing.cancelled()).toBe(true);
  });
});

describe("sseEvents on a long event in many small reads", () => {
  /** CPU milliseconds to read one event of `reads` pieces of 16 bytes (best of three: the machine is shared). */
  async function readTime(reads: number): Promise<number> {
    const payload = JSON.stringify({ id: "x".repeat(reads * 16) });
    const data = bytes(`data: ${payload}\n\n`, "data: [DONE]\n\n");
    const cuts = Array.from({ length: Math.ceil(data.length / 16) }, (_, i) => i * 16);
    let best = Infinity;
    for (let attempt = 0; attempt < 3; attempt++) {
      const { res } = response(data, cuts);
      const t0 = performance.now();
      const events: unknown[] = [];
      for await (const e of sseEvents(res)) events.push(e);
      best = Math.min(best, performance.now() - t0);
      expect(events).toEqual([JSON.parse(payload)]);
    }
    return Math.max(best, 3);
  }

  it("when one event arrives in 8x as many reads, then it takes far less than the 64x a quadratic reading would (each read is not joined and searched again)", async () => {
    const small = await readTime(2_000);
    const large = await readTime(16_000);
    // Linear is about 8; quadratic about 64: the bound leaves room for a busy machine.
    expect(large / small).toBeLessThan(24);
  }, 60_000);
});
