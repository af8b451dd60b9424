import type { ChatRequest } from "./chat-request.js";
import { messageText } from "./chat-request.js";

/**
 * A readable record of one chat request as the fake received it, for prompt authors who want to see
 * their prompt reach the provider: the model, the tools offered and every message in full, system
 * prompt included. Headers are left out: they carry the caller's key.
 */
export function formatChatRequest(request: ChatRequest): string {
  const body = request.body;
  const tools = (body.tools ?? []).map((t) => t.function.name);
  const structured = body.response_format?.json_schema?.name ?? (typeof body.tool_choice === "object" ? body.tool_choice.function?.name : undefined);
  const head = [
    `request ${request.seq}`,
    `model=${body.model}`,
    `stream=${body.stream === true}`,
    ...(tools.length ? [`tools=${tools.join(",")}`] : []),
    ...(structured ? [`structured=${structured}`] : []),
  ].join(" ");
  const parts = [`===== ${head} =====`];
  for (const message of body.messages) {
    const calls = (message.tool_calls ?? []).map((c) => `${c.function.name}(${c.function.arguments})`);
    const label = message.role === "tool" ? `tool ${message.tool_call_id ?? ""}`.trim() : message.role;
    parts.push(`--- ${label}${calls.length ? ` -> ${calls.join(", ")}` : ""}`);
    const text = messageText(message);
    if (text) parts.push(text);
  }
  return `${parts.join("\n")}\n`;
}
