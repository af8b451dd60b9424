import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEXT_LIMITS } from "../../src/limits.js";
import { MAX_MCP_BATCH } from "../../src/http/mcp/route.js";
import { withinOneRateWindow } from "../helpers/rate-window.js";
import { startService, type RunningService } from "../helpers/service.js";

const PER_MINUTE = 12;
const headers = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
const lookups = (n: number, from = 1) => Array.from({ length: n }, (_, i) => call(from + i, "lookup_passage", { reference: `John 3:${i + 1}` }));

describe("MCP under the service's limits", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ env: { RATE_LIMIT_PER_MINUTE: String(PER_MINUTE) } });
  });
  afterAll(async () => svc?.close());
  const post = (body: unknown) => fetch(`${svc.url}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });

  it("when a batch carries more messages than MAX_MCP_BATCH, then it is refused whole in JSON-RPC's shape", async () => {
    // This refused batch counts once, and the next test counts on from it: both in one rate window.
    await withinOneRateWindow();
    const res = await post(lookups(MAX_MCP_BATCH + 1));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain(`at most ${MAX_MCP_BATCH}`);
  });

  it("when batches are sent, then each call counts against the rate limit, not each request", async () => {
    const first = await post(lookups(8));
    expect(first.status).toBe(200);
    const answers = (await first.json()) as { id: number; result: { content: { text: string }[] } }[];
    expect(answers).toHaveLength(8);
    expect(answers[0]!.result.content[0]!.text).toContain("John 3:1");
    // 1 (batch of 21, refused) + 8 so far: a second batch of 8 passes the limit of 12.
    const second = await post(lookups(8, 100));
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await second.json()) as { error: { data: { code: string } } };
    expect(body.error.data.code).toBe("rate_limited");
  });

  it("when an argument is longer than its HTTP twin allows, then the tool answers a clear error without searching", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const other = await startService({});
    try {
      const client = new Client({ name: "limits-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${other.url}/mcp`)));
      const long = await client.callTool({ name: "search_scripture", arguments: { query: "love ".repeat(TEXT_LIMITS.query) } });
      expect(long.isError).toBe(true);
      expect(JSON.stringify(long.content)).toContain(`at most ${TEXT_LIMITS.query} characters`);
      const book = await client.callTool({ name: "search_scripture", arguments: { query: "love", book: `J${"\u0301".repeat(60_000)}` } });
      expect(book.isError).toBe(true);
      expect(JSON.stringify(book.content)).toContain(`at most ${TEXT_LIMITS.bookName} characters`);
      const ref = await client.callTool({ name: "lookup_passage", arguments: { reference: "John 3 ".repeat(1000) } });
      expect(ref.isError).toBe(true);
      expect(JSON.stringify(ref.content)).toContain(`at most ${TEXT_LIMITS.reference} characters`);
      await client.close();
    } finally {
      await other.close();
    }
  });
});
