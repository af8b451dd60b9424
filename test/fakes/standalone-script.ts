import { type ChatMessage, type ChatRequest, forcedFunction, lastUserText, messageText, wantsJsonSchema } from "./chat-request.js";
import { defaultReply, hasToolResultSinceUser } from "./default-script.js";
import { type FakeReply, reply } from "./replies.js";
import { toolArguments, toolFor } from "./tool-arguments.js";

/**
 * The standalone fake's script (`npm run fake-provider`): what a newcomer's first questions meet. Like
 * the default script it lets the question through preflight and makes one tool round trip, but it picks
 * the tool a model would (a lookup when the question names a passage, else the search) and answers from
 * what the service's tools returned: the references they found and a sentence of their text, so the
 * first answer shows real passages and working links. It is still a script, and says so.
 */
export const SCRIPTED_NOTE = "(A scripted answer from the fake provider, built from the passages the service's tools returned; connect a real model for real answers.)";

const MAX_REFERENCES = 3;

interface Found {
  reference: string;
  text: string;
}

/** Passages in the tool results after the last user message, in the order the tools gave them. */
export function passagesFromToolResults(messages: ChatMessage[]): Found[] {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      start = i + 1;
      break;
    }
  }
  const found: Found[] = [];
  for (const message of messages.slice(start)) {
    if (message.role !== "tool") continue;
    const lines = messageText(message).split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      // search_scripture: "## 1 Corinthians 13 (eng-web, relevance 0.83)" then the text
      const heading = /^## (.+?) \(/.exec(line);
      // lookup_passage: "John 3:16 (World English Bible, eng-web):" then "16 For God so loved..."
      const title = /^(.+?) \([^()]*, [a-z]{3}-[a-z0-9-]+\):$/.exec(line);
      // keyword_search: "John 3:16: For God so loved..."
      const verse = /^((?:[1-3] )?\p{L}[\p{L} ]*? \d+:\d+(?:-\d+)?): (.+)$/u.exec(line);
      if (heading || title) {
        const text = (lines[i + 1] ?? "").replace(/^\d+ /, "");
        found.push({ reference: (heading ?? title)![1]!, text });
      } else if (verse) {
        found.push({ reference: verse[1]!, text: verse[2]! });
      }
    }
  }
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(f.reference) && seen.add(f.reference));
}

/** The first whole sentence of a passage, when it has one of a quotable length. */
function firstSentence(text: string): string | undefined {
  const m = /^(.{20,240}?[.;!?])(?:\s|$)/u.exec(text.trim());
  // Without the passage's own opening quotation mark, so the quotation marks stay balanced.
  return m?.[1]?.replace(/^["“‘']+/u, "");
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function answerFromPassages(passages: Found[]): string {
  if (passages.length === 0) {
    return `The scripture tools found no passage for this question, so there is nothing to cite. ${SCRIPTED_NOTE}`;
  }
  const top = passages.slice(0, MAX_REFERENCES);
  const sentence = firstSentence(top[0]!.text);
  const quote = sentence ? ` ${top[0]!.reference} begins: "${sentence}"` : "";
  return `Scripture speaks to this in ${list(top.map((p) => p.reference))}.${quote} ${SCRIPTED_NOTE}`;
}

export function standaloneReply(request: ChatRequest): FakeReply {
  const body = request.body;
  if (wantsJsonSchema(body) || forcedFunction(body)) return defaultReply(request);
  const userText = lastUserText(body);
  const tool = toolFor(body.tools ?? [], userText);
  if (tool && body.tool_choice !== "none" && !hasToolResultSinceUser(request)) {
    return reply.toolCall(tool.function.name, toolArguments(tool, userText));
  }
  // Used as a plain chat provider (no tools ran), it answers like the default script.
  if (!hasToolResultSinceUser(request)) return defaultReply(request);
  return reply.text(answerFromPassages(passagesFromToolResults(body.messages)));
}
