import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
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
