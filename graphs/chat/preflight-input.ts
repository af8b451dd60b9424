import type { BaseMessage } from "@langchain/core/messages";
import { textOf } from "./messages.js";

/** How much of the conversation the classifier sees before the message it classifies. */
export const PREFLIGHT_CONTEXT = { turns: 4, charsPerTurn: 400 } as const;

interface Turn {
  role: "user" | "assistant";
  text: string;
}

/** The user and assistant turns of a conversation, oldest first (tool turns and empty ones left out). */
function turnsOf(messages: BaseMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    const type = m.getType();
    if (type !== "human" && type !== "ai") continue;
    const text = textOf(m.content).trim();
    if (text) turns.push({ role: type === "human" ? "user" : "assistant", text });
  }
  return turns;
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/**
 * What the classifier model is given as its user message: the last user message alone when it opens
 * the conversation, else the turns before it (the last few, each clipped) and then the message, so
 * that "Why?" or "yes please" after an answer is judged as the follow-up it is. Only the last message
 * is classified; the preflight prompt's partial for earlier turns (`withTurns`) says so.
 */
export function classifierInput(messages: BaseMessage[]): { text: string; hasContext: boolean; withTurns: boolean } {
  const turns = turnsOf(messages);
  let last = -1;
  for (let i = turns.length - 1; i >= 0; i--) {
    if (turns[i]!.role === "user") {
      last = i;
      break;
    }
  }
  if (last < 0) return { text: "", hasContext: false, withTurns: false };
  const message = turns[last]!.text;
  const before = turns.slice(Math.max(0, last - PREFLIGHT_CONTEXT.turns), last);
  if (before.length === 0) return { text: message, hasContext: false, withTurns: false };
  const lines = before.map((t) => `${t.role === "user" ? "User" : "Assistant"}: ${clip(t.text, PREFLIGHT_CONTEXT.charsPerTurn)}`);
  return {
    text: ["<conversation_so_far>", ...lines, "</conversation_so_far>", "", "<message_to_classify>", message, "</message_to_classify>"].join("\n"),
    hasContext: before.some((t) => t.role === "assistant"),
    withTurns: true,
  };
}
