import { describe, expect, it } from "vitest";

type SseData = (body: ReadableStream<Uint8Array>) => AsyncGenerator<string>;
// The lab's parser is a plain browser module with no type declarations; a computed specifier keeps tsc out of it.
const modulePath = "../../src/http/pages/assets/lab-sse.js";
const { sseData } = (await import(modulePath)) as { sseData: SseData };

function body(pieces: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(enc.encode(p));
      controller.close();
    },
  });
}

async function collect(pieces: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(body(pieces))) out.push(data);
  return out;
}

describe("the prompt lab's SSE reader", () => {
  const stream = 'data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]\n\n';

  it.each([
    ["one piece", [stream]],
    ["one byte at a time", [...stream]],
    ["split inside the blank line", ['data: {"a":1}\n', '\ndata: {"b":2}\n\nda', "ta: [DONE]\n\n"]],
    ["CRLF line endings", [stream.replaceAll("\n", "\r\n")]],
    ["no final blank line", ['data: {"a":1}\n\ndata: {"b":2}\n\ndata: [DONE]']],
  ])("when events arrive as %s, then each data payload comes out whole", async (_name, pieces) => {
    expect(await collect(pieces)).toEqual(['{"a":1}', '{"b":2}', "[DONE]"]);
  });

  it("when an event has comments, other fields and multi-line data, then only the data is joined", async () => {
    expect(await collect([": keep-alive\n\nevent: x\nid: 1\ndata: line one\ndata:line two\n\n"])).toEqual(["line one\nline two"]);
  });

  it("when a multi-byte character is split across chunks, then it is decoded intact", async () => {
    const bytes = new TextEncoder().encode("data: Génesis 1\n\n");
    const cut = 8; // inside the two-byte "é"
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, cut));
        c.enqueue(bytes.slice(cut));
        c.close();
      },
    });
    const out: string[] = [];
    for await (const d of sseData(stream)) out.push(d);
    expect(out).toEqual(["Génesis 1"]);
  });
});
