import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageText } from "../fakes/index.js";
import { startChatStack, type ChatStack } from "./chat-stack.js";

/**
 * The model client is shared by all requests and the caller's key rides on each request's headers, so
 * a model or client reused across requests (a cache, a shared mutable option) would hand one caller's
 * key to another. Each request carries a numbered key and a question with the same number; every
 * provider call is checked against the number it carries. (Checked: caching the model per purpose
 * makes this fail.)
 */
let s: ChatStack;
beforeAll(async () => {
  s = await startChatStack({ logLevel: "warn" });
});
afterAll(() => s.close());

const N = 24;
const keyFor = (i: number) => `sk-test-isolation-${i}-${"x".repeat(i % 5)}`;
const question = (i: number) => `Request number ${i}: what does John 3:16 teach about God's love?`;

describe("chat completions: keys under concurrency", () => {
  it("when many requests with different keys overlap, then every provider call carries its own request's key", async () => {
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const client = s.client(keyFor(i));
        const params = { model: "gpt-4o-mini", messages: [{ role: "user" as const, content: question(i) }] };
        if (i % 2 === 0) {
          const res = await client.chat.completions.create(params);
          expect(res.choices[0]!.message.content).toBeTruthy();
        } else {
          const stream = await client.chat.completions.create({ ...params, stream: true });
          for await (const _chunk of stream) void _chunk;
        }
      }),
    );
    const calls = s.provider.chatRequests;
    expect(calls.length).toBeGreaterThanOrEqual(2 * N);
    const seen = new Set<number>();
    for (const call of calls) {
      const text = call.body.messages.map((m) => messageText(m)).join("\n");
      const n = Number(/Request number (\d+):/.exec(text)?.[1]);
      expect(Number.isInteger(n)).toBe(true);
      expect(call.headers.authorization).toBe(`Bearer ${keyFor(n)}`);
      seen.add(n);
    }
    expect(seen.size).toBe(N);
  });

  it("when those requests were served, then none of their keys appears in any log line", () => {
    const all = s.logs.join("");
    for (let i = 0; i < N; i++) expect(all).not.toContain(keyFor(i));
  });
});
