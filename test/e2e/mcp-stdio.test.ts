import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, inject, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const LAUNCHER = join(ROOT, "scripts/biblical-chat.mjs");

/** The package's command as an assistant runs it (`biblical-chat mcp`), with its stderr kept for the assertions. */
function launch(env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [LAUNCHER, "mcp"],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "info", ...env },
    stderr: "pipe",
  });
  const stderr: string[] = [];
  (transport.stderr as Readable | null)?.on("data", (c: Buffer) => stderr.push(c.toString()));
  return { transport, stderr };
}

const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("MCP over stdio (`biblical-chat mcp`), no HTTP service", () => {
  it("when launched against the shared index, then it lists the tools, answers each kind of call, and refuses bad arguments as tool errors", async () => {
    const { transport, stderr } = launch({ DATA_DIR: inject("indexDataDir"), CHROMA_URL: inject("indexChromaUrl") });
    const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["commentary", "keyword_search", "lookup_passage", "search_scripture", "topics", "word_study"]);
      const search = (await client.callTool({ name: "search_scripture", arguments: { query: "the Good Samaritan", limit: 2 } })) as CallToolResult;
      expect(search.isError).toBeFalsy();
      // No PUBLIC_BASE_URL: links stay root-relative, as the service's own.
      expect(textOf(search)).toMatch(/^## \[Luke 10\]\(\/read\/LUK\/10\)/);
      const passage = (await client.callTool({ name: "lookup_passage", arguments: { reference: "Juan 3:16", translation: "spa-rv1909" } })) as CallToolResult;
      expect(textOf(passage)).toMatch(/^\[Juan 3:16\]\(\/read\/JHN\/3\?verse=16&bible_id=spa-rv1909\) \(.*spa-rv1909\):\n16 Porque de tal manera amó Dios al mundo/);
      const words = (await client.callTool({ name: "word_study", arguments: { strong: "G26" } })) as CallToolResult;
      expect(textOf(words)).toMatch(/^G26 /m);
      const bad = (await client.callTool({ name: "search_scripture", arguments: { query: "faith", testament: "both" } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/testament/);
    } finally {
      await client.close();
    }
    // Every log line went to stderr (stdout carried the protocol, or the client would have failed above).
    const logs = stderr.join("");
    expect(logs).toMatch(/"msg":"MCP server on stdio"/);
  }, 90_000);

  it("when it opens its own index with an embedded Chroma and the client closes stdin, then it stops that Chroma and exits", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "bc-mcp-stdio-"));
    dirs.push(dataDir);
    cpSync(inject("indexDataDir"), dataDir, { recursive: true });
    const { transport, stderr } = launch({ DATA_DIR: dataDir });
    const client = new Client({ name: "mcp-stdio-test", version: "1.0.0" });
    await client.connect(transport);
    const pid = transport.pid!;
    const result = (await client.callTool({ name: "keyword_search", arguments: { query: "be still", book: "Psalms", limit: 3 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^\[Psalm 46:\d+(-\d+)?\]\(\/read\/PSA\/46\?verse=/m);
    const chromaUrl = /"url":"(http:\/\/127\.0\.0\.1:\d+)"[^\n]*"msg":"embedded Chroma ready"/.exec(stderr.join(""))?.[1];
    expect(chromaUrl).toBeDefined();
    expect((await fetch(`${chromaUrl}/api/v2/heartbeat`)).ok).toBe(true);

    await transport.close(); // ends stdin (the SDK signals only if the process lingers)
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 20_000;
      const poll = setInterval(() => {
        let alive = true;
        try {
          process.kill(pid, 0);
        } catch {
          alive = false;
        }
        if (!alive) resolve(clearInterval(poll));
        else if (Date.now() > deadline) reject(new Error("the stdio server did not exit"));
      }, 100);
    });
    expect(stderr.join("")).toMatch(/"why":"stdin closed"/);
    await expect(fetch(`${chromaUrl}/api/v2/heartbeat`)).rejects.toThrow();
  }, 90_000);
});
