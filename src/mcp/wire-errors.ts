import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { isJSONRPCError } from "@modelcontextprotocol/sdk/types.js";

/** What the SDK's McpError puts in front of its message: "MCP error -32602: ". */
const MCP_ERROR_PREFIX = /^MCP error -?\d+: /;

/**
 * The SDK's McpError writes "MCP error <code>: " into its own message, and the server sends that message
 * as the JSON-RPC error's; the client's McpError then adds the same prefix again, so a user read
 * "MCP error -32602: MCP error -32602: ...". The code travels in its own field, so the wire carries the
 * bare message and the client says the prefix once. Applies to every error the server answers with, the
 * SDK's own (argument validation, unknown prompt) and ours.
 */
export function withBareErrorMessages<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (isJSONRPCError(message) && MCP_ERROR_PREFIX.test(message.error.message)) {
      return send({ ...message, error: { ...message.error, message: message.error.message.replace(MCP_ERROR_PREFIX, "") } }, options);
    }
    return send(message, options);
  };
  return transport;
}
