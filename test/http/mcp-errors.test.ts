import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScriptureSearcher } from "../../graphs/chat/deps.js";
import { buildChatRuntime } from "../../graphs/chat/runtime.js";
import { loadConfig } from "../../src/config.js";
import { mcpRouter } from "../../src/http/mcp/route.js";
import { createLogger } from "../../src/logger.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { createStudyLibrary } from "../../src/study/library.js";
import { shippedBibles, startPagesApp, type PagesApp } from "../browser/app.js";

// The errors under test come before any search: a search call would be a test failure.
const noSearch: ScriptureSearcher = {
  search: async () => Promise.reject(new Error("search is not part of this test")),
  keyword: async () => Promise.reject(new Error("search is not part of this test")),
};

let srv: PagesApp;
let client: Client;

beforeAll(async () => {
  const config = loadConfig({});
  const runtime = buildChatRuntime(config, { prompts: loadPrompts(), bibles: shippedBibles(), search: noSearch });
  const mcp = mcpRouter({
    search: noSearch,
    bibles: shippedBibles(),
    references: runtime.deps.references,
    study: createStudyLibrary(),
    logger: createLogger("silent"),
    publicBaseUrl: undefined,
  });
  srv = await startPagesApp([mcp]);
  client = new Client({ name: "mcp-errors-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
});

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable("the call should fail"),
    (err: Error & { code?: number }) => err,
  );

describe("MCP errors as a client sees them", () => {
  it("when the study prompt gets a bad reference, then the message says 'MCP error -32602:' once, then the reason", async () => {
    const err = await errorOf(client.getPrompt({ name: "study_passage", arguments: { reference: "not a verse" } }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/^MCP error -32602: "not a verse" is not a Bible reference/);
    expect(err.message.match(/MCP error/g)).toHaveLength(1);
  });

  it("when the SDK itself refuses (arguments that fail the schema, an unknown prompt), then the prefix is said once too", async () => {
    const invalid = await errorOf(client.getPrompt({ name: "study_passage", arguments: { reference: "" } }));
    expect(invalid.code).toBe(-32602);
    expect(invalid.message).toMatch(/^MCP error -32602: Invalid arguments for prompt study_passage/);
    expect(invalid.message.match(/MCP error/g)).toHaveLength(1);
    const unknown = await errorOf(client.getPrompt({ name: "no_such_prompt", arguments: {} }));
    expect(unknown.message).toMatch(/^MCP error -32602: Prompt no_such_prompt not found/);
    expect(unknown.message.match(/MCP error/g)).toHaveLength(1);
  });

  it("when the raw JSON-RPC answer is read, then its error message carries no prefix: the code has its own field", async () => {
    const res = await fetch(`${srv.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "prompts/get", params: { name: "study_passage", arguments: { reference: "not a verse" } } }),
    });
    const body = (await res.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32602);
    expect(body.error.message).toMatch(/^"not a verse" is not a Bible reference/);
  });
});
