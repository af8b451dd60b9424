import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { Router, type Request, type Response } from "express";
import type { AppError } from "../../errors.js";
import type { ChargeRateLimit } from "../rate-limit.js";
import { createMcpServer, type McpDeps } from "../../mcp/server.js";
import { withBareErrorMessages } from "../../mcp/wire-errors.js";
import { jsonBody } from "../routes.js";

export const MCP_PATH = "/mcp";

/**
 * The most JSON-RPC messages one POST may carry. Each call is charged to the rate limit on its own, so a
 * batch does buy no more work than the same calls sent one by one (docs/reliability.md).
 */
export const MAX_MCP_BATCH = 20;

const jsonRpcError = (code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: "2.0" as const,
  error: { code, message, ...(data ? { data } : {}) },
  id: null,
});

/**
 * An error the service raised before the MCP SDK saw the request (rate limit 429, body over 1 MB 413,
 * malformed JSON 400) in JSON-RPC's shape, with the same status and headers: MCP clients read JSON-RPC.
 * The error handler calls this for the MCP path.
 */
export function mcpErrorBody(err: AppError) {
  const parseError = err.status === 400 && /not valid JSON/.test(err.message);
  return jsonRpcError(parseError ? -32700 : -32000, err.message, { type: err.type, code: err.code });
}

/**
 * Streamable HTTP at /mcp (no key), stateless: each POST gets its own server and transport, closed with
 * the response, so nothing is kept between requests. JSON responses rather than an SSE stream: every
 * call answers once and sends no notifications. GET (a server-to-client stream) and DELETE (a session
 * end) have nothing to serve without sessions: 405 in JSON-RPC's shape, as the SDK's stateless examples.
 */
export function mcpRouter(deps: McpDeps): Router {
  const router = Router();
  router.post(MCP_PATH, jsonBody, async (req: Request, res: Response) => {
    if (Array.isArray(req.body)) {
      const calls = req.body.length;
      if (calls > MAX_MCP_BATCH) {
        res.status(400).json(jsonRpcError(-32600, `A batch may carry at most ${MAX_MCP_BATCH} messages; this one has ${calls}. Send the rest in further requests.`));
        return;
      }
      const charge = res.locals.chargeRateLimit as ChargeRateLimit | undefined;
      const over = calls > 1 ? await charge?.(calls - 1) : undefined;
      if (over) {
        for (const [k, v] of Object.entries(over.headers)) res.setHeader(k, v);
        res.status(over.status).json(mcpErrorBody(over));
        return;
      }
    }
    const server = createMcpServer(deps);
    const transport = withBareErrorMessages(new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true }));
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      req.log?.error({ err: { name: (err as Error)?.name, message: (err as Error)?.message } }, "MCP request failed");
      if (!res.headersSent) res.status(500).json(jsonRpcError(-32603, "Internal server error"));
    }
  });
  router.all(MCP_PATH, (req, res, next) => {
    if (req.method === "OPTIONS") return next();
    res.setHeader("Allow", "POST");
    res.status(405).json(jsonRpcError(-32000, "Method not allowed: this MCP server is stateless; send JSON-RPC with POST."));
  });
  return router;
}
