import type { ServerResponse } from "node:http";
import type { RecordedRequest } from "./chat-request.js";
import { embeddingsResponse } from "./embeddings.js";
import type { FakeReply } from "./replies.js";
import { defaultErrorFor } from "./wire.js";

function json(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(body);
}

/** Serves vectors, or plays a scripted fault; chat-only shapes (text, tool calls) just serve vectors. */
export async function respondToEmbeddings(
  res: ServerResponse,
  record: RecordedRequest,
  dimensions: number,
  reply: FakeReply,
): Promise<void> {
  record.replyKind = reply.kind;
  const delayMs = reply.delayMs ?? 0;
  if (delayMs > 0) {
    const stillThere = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(!res.destroyed), delayMs);
      res.once("close", () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    if (!stillThere) return;
  }
  switch (reply.kind) {
    case "hang":
      return;
    case "reset":
      res.socket?.destroy();
      return;
    case "stall":
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders();
      return;
    case "error":
      json(res, reply.status, reply.rawBody ?? JSON.stringify({ error: { ...defaultErrorFor(reply.status), ...reply.error } }), reply.headers);
      return;
    default:
  }
  const result = embeddingsResponse(record.body, dimensions);
  if (!result.ok) {
    json(res, 400, JSON.stringify({ error: { message: result.message, type: "invalid_request_error", param: result.param, code: null } }));
    return;
  }
  const body = JSON.stringify(result.body);
  const broken = reply.kind === "cut" || reply.kind === "malformed";
  json(res, 200, broken ? body.slice(0, Math.floor(body.length / 2)) : body);
}
