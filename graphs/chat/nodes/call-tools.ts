import { type AIMessage, ToolMessage } from "@langchain/core/messages";
import { resolveContext, type ChatRunConfig } from "../configuration.js";
import { careFor } from "../care.js";
import type { ChatDeps } from "../deps.js";
import type { ChatStateUpdate, ChatStateValue } from "../state.js";
import { type ChatTool, createTools } from "../tools/index.js";

const MAX_ERROR_CHARS = 400;

/**
 * Runs the tool calls of the agent's last turn. Every failure the model can fix or work around
 * (arguments that are not JSON or do not fit the schema, an unknown tool) comes back as a tool
 * message it reads; expected misses are already plain results inside the tools.
 */
export function createCallTools(deps: ChatDeps) {
  return async function callTools(state: ChatStateValue, config: ChatRunConfig): Promise<ChatStateUpdate> {
    const ctx = resolveContext(config, deps);
    const tools = new Map<string, ChatTool>(createTools(deps, ctx, careFor(state)).map((t) => [t.name, t]));
    const last = state.messages[state.messages.length - 1] as AIMessage;
    const invalid = new Set((last.invalid_tool_calls ?? []).map((c) => c.id));
    const messages = await Promise.all(
      (last.tool_calls ?? []).map(async (call) => {
        const id = call.id ?? "";
        const content = await (async () => {
          if (invalid.has(id)) {
            return `Error: the arguments for ${call.name} were not valid JSON. Call it again with a JSON object that matches its schema.`;
          }
          const tool = tools.get(call.name);
          if (!tool) return `Error: there is no tool named "${call.name}". Available: ${[...tools.keys()].join(", ")}.`;
          try {
            // The three tools differ in argument types; each validates its own input with zod.
            // The run's configurable goes along: it says whether the tool's run stores its config (run-context.ts).
            const out: unknown = await (tool as { invoke(input: unknown, options?: unknown): Promise<unknown> }).invoke(call.args, {
              callbacks: config.callbacks,
              signal: config.signal,
              configurable: config.configurable,
            });
            return typeof out === "string" ? out : JSON.stringify(out);
          } catch (err) {
            if (config.signal?.aborted) throw err;
            const message = err instanceof Error ? err.message : String(err);
            return `Error: ${call.name} could not run with these arguments: ${message.slice(0, MAX_ERROR_CHARS)}`;
          }
        })();
        return new ToolMessage({ content, tool_call_id: id, name: call.name });
      }),
    );
    return { messages };
  };
}
