import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertLinks } from "../../src/scripture/links.js";
import { limitWords } from "../../graphs/chat/answer/word-limit.js";
import { toMessages } from "../../graphs/chat/messages.js";
import { match, reply } from "../fakes/index.js";
import { context, KEY, startHarness, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ANSWER =
  "Jesus says in John 3:16 that God loved the world. Paul echoes it in Romans 5:8, and again in Romans 8:28-30! " +
  "The shepherd of Psalm 23 cares for his sheep. ¿Y Juan 1:1? It names the Word. See 1 Corinthians 13:4-7 on love, " +
  "and Ephesians 2:8 on grace, which is a gift and not earned by works of any kind at all.";

function chunksOf(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * text.length)))].filter((p) => p > 0 && p < text.length).sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

describe("streamed and non-streamed answers through the graph", () => {
  it("when the provider chunks the answer in any way, then both modes give the same content and the deltas add up to it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 25 }),
        fc.integer({ min: 5, max: 80 }),
        fc.boolean(),
        async (cuts, maxWords, links) => {
          const chunks = chunksOf(ANSWER, cuts);
          h.provider.reset();
          h.provider.on(match.agent(), reply.text("", { chunks }));
          const ctx = { skipPreflight: true, maxWords, convertLinks: links };
          const streamed = await h.run("Tell me about God's love", ctx);
          const plain = await h.run("Tell me about God's love", ctx, { stream: false });
          const raw = limitWords(ANSWER, maxWords).text;
          const expected = links ? convertLinks(raw) : raw;
          expect(streamed.content).toBe(expected);
          expect(plain.content).toBe(expected);
          expect(streamed.deltas.join("")).toBe(expected);
          expect(streamed.kind === "answer" && streamed.finishReason).toBe(limitWords(ANSWER, maxWords).cut ? "length" : "stop");
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);

  it("when a run has no delta listener (LangGraph Studio's), then the answer pieces come on the custom stream and add up to the content", async () => {
    h.provider.reset();
    h.provider.on(match.agent(), reply.text("", { chunks: chunksOf(ANSWER, [0.1, 0.35, 0.6, 0.9]) }));
    const stream = await h.graph.stream(
      { messages: toMessages([{ role: "user", content: "Tell me about God's love" }]) },
      { context: context({ skipPreflight: true, convertLinks: true }) as unknown as Record<string, unknown>, streamMode: ["custom", "values"] },
    );
    const pieces: string[] = [];
    let content = "";
    for await (const [mode, data] of stream as AsyncIterable<[string, { kind?: string; text?: string; content?: string }]>) {
      if (mode === "custom" && data.kind === "answer") pieces.push(data.text ?? "");
      if (mode === "values") content = data.content ?? "";
    }
    expect(content).toBe(convertLinks(limitWords(ANSWER, 300).text));
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join("")).toBe(content);
  });
});

describe("what the graph keeps", () => {
  it("when a run ends, then neither the key nor the caller's system text is in its state", async () => {
    h.provider.reset();
    h.provider.on(match.agent(), reply.text("An answer."));
    const secret = "CALLER-SYSTEM-TEXT-7f3a";
    const state = await h.graph.invoke(
      { messages: toMessages([{ role: "user", content: "What is grace?" }]) },
      { context: context({ skipPreflight: true, callerSystem: secret }) as unknown as Record<string, unknown> },
    );
    const dump = JSON.stringify(state);
    expect(dump).not.toContain(KEY);
    expect(dump).not.toContain(secret);
    expect(state.content).toBe("An answer.");
    expect(h.provider.chatRequests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
