import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { ChatBody, ChatRequest } from "./chat-request.js";
import { defaultReply, match, reply, startFakeProvider } from "./index.js";

const request = (body: Partial<ChatBody>): ChatRequest => ({
  seq: 1,
  method: "POST",
  path: "/v1/chat/completions",
  headers: {},
  receivedAt: 0,
  aborted: false,
  body: { model: "gpt-4o-mini", messages: [], ...body },
});

const tools = [{ type: "function", function: { name: "lookup_passage", parameters: { type: "object", properties: { reference: { type: "string" } } } } }];
const preflight = request({ messages: [{ role: "user", content: "hi" }], response_format: { type: "json_schema", json_schema: { name: "preflight" } } });
const forced = request({ messages: [{ role: "user", content: "hi" }], tools, tool_choice: { type: "function", function: { name: "lookup_passage" } } });
const agentTurn = request({ messages: [{ role: "system", content: "You are a guide." }, { role: "user", content: [{ type: "text", text: "Who was Ruth?" }] }], tools });
const afterTool = request({
  tools,
  messages: [
    { role: "user", content: "Ruth?" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "lookup_passage", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content: "Ruth 1:16" },
  ],
});

describe("matchers", () => {
  it.each([
    ["structured", match.structured(), [true, true, false, false]],
    ["preflight", match.preflight(), [true, true, false, false]],
    ["schemaName(preflight)", match.schemaName("preflight"), [true, false, false, false]],
    ["agent", match.agent(), [false, false, true, true]],
    ["afterToolResult", match.afterToolResult(), [false, false, false, true]],
    ["lastUser(Ruth) across text parts", match.lastUser(/Ruth/), [false, false, true, true]],
    ["contains(Ruth 1:16) in a tool result", match.contains("Ruth 1:16"), [false, false, false, true]],
    ["system(guide)", match.system("guide"), [false, false, true, false]],
    ["all(agent, not(afterToolResult))", match.all(match.agent(), match.not(match.afterToolResult())), [false, false, true, false]],
  ])("when matching %s, then only the expected requests match", (_name, matcher, expected) => {
    expect([preflight, forced, agentTurn, afterTool].map(matcher)).toEqual(expected);
  });
});

describe("default script", () => {
  it("when a request is structured, tool-enabled, after a tool, or tools are switched off, then it picks json, a tool call, or text", () => {
    expect(defaultReply(preflight).kind).toBe("json");
    expect(defaultReply(forced)).toMatchObject({ kind: "json", value: { reference: "John 3:16" } });
    expect(defaultReply(agentTurn)).toMatchObject({ kind: "toolCalls", calls: [{ name: "lookup_passage", args: { reference: "John 3:16" } }] });
    expect(defaultReply(afterTool).kind).toBe("text");
    expect(defaultReply({ ...agentTurn, body: { ...agentTurn.body, tool_choice: "none" } }).kind).toBe("text");
  });
});

describe("lifecycle", () => {
  it("when closed with a request hanging, then close resolves promptly and the client sees a connection error", async () => {
    const provider = await startFakeProvider({ fallback: reply.hang() });
    const client = new OpenAI({ baseURL: provider.baseURL, apiKey: "k", maxRetries: 0 });
    const pending = client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    await provider.waitFor((p) => p.chatRequests.length === 1);
    const started = Date.now();
    await provider.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(provider.stats.openSockets).toBe(0);
  });

  it("when a fallback function and a default delay are set, then every unscripted reply uses them", async () => {
    const provider = await startFakeProvider({ delayMs: 50, fallback: async (r) => reply.text(`echo: ${r.body.model}`) });
    try {
      const client = new OpenAI({ baseURL: provider.baseURL, apiKey: "k", maxRetries: 0 });
      const started = Date.now();
      const completion = await client.chat.completions.create({ model: "gpt-x", messages: [{ role: "user", content: "x" }] });
      expect(completion.choices[0]?.message.content).toBe("echo: gpt-x");
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      provider.setFallback(reply.text("replaced", { delayMs: 0 }));
      const replaced = await client.chat.completions.create({ model: "gpt-x", messages: [{ role: "user", content: "x" }] });
      expect(replaced.choices[0]?.message.content).toBe("replaced");
    } finally {
      await provider.close();
    }
  });

  it("when an unknown route or a non-JSON body arrives, then an OpenAI-shaped 404 or 400 comes back", async () => {
    const provider = await startFakeProvider();
    try {
      const notFound = await fetch(`${provider.baseURL}/nope`);
      expect(notFound.status).toBe(404);
      expect(await notFound.json()).toMatchObject({ error: { type: "invalid_request_error", code: "unknown_url" } });
      const bad = await fetch(`${provider.baseURL}/chat/completions`, { method: "POST", body: "{" });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { message: expect.any(String) } });
    } finally {
      await provider.close();
    }
  });

  it("when run standalone, then it prints its base URL, answers, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/fakes/cli.ts", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
      expect(line).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const client = new OpenAI({ baseURL: line, apiKey: "k", maxRetries: 0 });
      const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
      expect(completion.choices[0]?.message.content).toContain("John 3:16");
      child.kill("SIGTERM");
      const [code] = (await once(child, "exit")) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
