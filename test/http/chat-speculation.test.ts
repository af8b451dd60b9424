import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import { startChatStack, type ChatStack } from "./chat-stack.js";

/**
 * PREFLIGHT_MODE=parallel through the whole service: the agent's first call runs beside a slow
 * classifier, and a streamed request still gets the plain HTTP error a rejection gets sequentially,
 * because no SSE header (or answer byte) leaves before the verdict.
 */
const KEY = "sk-speculation-caller-4c1d";
const QUESTION = "Could you help me understand what this means for my church group?";
const ANSWER = "Grace is the free favour of God toward people who have not earned it.";
let s: ChatStack;
beforeAll(async () => {
  s = await startChatStack();
});
afterAll(() => s.close());
beforeEach(() => s.provider.reset());

const post = (body: Record<string, unknown>) =>
  fetch(`${s.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: QUESTION }], stream: true, ...body }),
  });

describe("a streamed request with the classifier slow and the agent fast", () => {
  it("when the verdict rejects, then the response is the plain 400 content_filter, not a stream, and the agent call is closed", async () => {
    s.provider.on(match.structured(), reply.json({ category: "hacker_activity" }, { delayMs: 300 }));
    s.provider.on(match.agent(), reply.text(`${ANSWER} `.repeat(20), { chunkDelayMs: 30 }));
    const res = await post({});
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("content_filter");
    expect(body.error.message).not.toContain("Grace");
    const agent = s.provider.chatRequests.find((r) => (r.body.tools?.length ?? 0) > 0)!;
    expect(agent).toBeTruthy();
    await s.provider.waitFor(() => agent.aborted);
  });

  it("when the verdict passes, then the speculative answer streams as server-sent events", async () => {
    s.provider.on(match.structured(), reply.json({ category: "biblical_question" }, { delayMs: 300 }));
    s.provider.on(match.agent(), reply.text(ANSWER));
    const res = await post({});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const text = await res.text();
    const content = text
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? "")
      .join("");
    expect(content).toBe(ANSWER);
    expect(s.provider.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0)).toHaveLength(1);
  });
});
