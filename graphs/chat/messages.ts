import { AIMessage, HumanMessage, type BaseMessage, type ToolMessage } from "@langchain/core/messages";
import type { ChatCompletionMessageParam } from "./models.js";
import type { ChatTurn } from "./contract.js";

export function toMessages(turns: ChatTurn[]): BaseMessage[] {
  return turns.map((t) => (t.role === "user" ? new HumanMessage(t.content) : new AIMessage(t.content)));
}

/** Plain text of a message's content, whether a string or a list of parts. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part && typeof part === "object" && typeof part.text === "string" ? part.text : "")).join("");
}

export function lastUserText(messages: BaseMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.getType() === "human") return textOf(m.content);
  }
  return "";
}

/** The text of every user message, oldest first (the care check reads the whole conversation). */
export function userTexts(messages: BaseMessage[]): string[] {
  return messages.filter((m) => m.getType() === "human").map((m) => textOf(m.content));
}

/** The texts of the conversation's results from the tool `name` (the prefetched turn's and the agent's own calls'). */
export function toolResultTexts(messages: BaseMessage[], name: string): string[] {
  return messages.filter((m) => m.getType() === "tool" && (m as ToolMessage).name === name).map((m) => textOf(m.content));
}

/**
 * The run's messages as the provider's wire format, after our system prompt. The state keeps LangChain
 * messages (Studio shows them); the provider call needs only this plain form.
 */
export function toProviderMessages(system: string, messages: BaseMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  for (const m of messages) {
    const type = m.getType();
    if (type === "human") out.push({ role: "user", content: textOf(m.content) });
    else if (type === "tool") out.push({ role: "tool", tool_call_id: (m as ToolMessage).tool_call_id, content: textOf(m.content) });
    else if (type === "ai") {
      const calls = (m as AIMessage).tool_calls ?? [];
      if (calls.length === 0) out.push({ role: "assistant", content: textOf(m.content) });
      else {
        out.push({
          role: "assistant",
          content: textOf(m.content) || null,
          tool_calls: calls.map((c) => ({ id: c.id ?? "", type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })),
        });
      }
    } else if (type === "system") out.push({ role: "system", content: textOf(m.content) });
  }
  return out;
}

/** Characters of text sent in a request: the base of the usage estimate for a call that reported none. */
export function promptChars(messages: ChatCompletionMessageParam[]): number {
  let n = 0;
  for (const m of messages) if (typeof m.content === "string") n += m.content.length;
  return n;
}
