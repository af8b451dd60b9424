/**
 * A chat UI's housekeeping request: the UI asks the model that answers the chat for a title, tags or
 * follow-up suggestions, with the conversation pasted into one message. Open WebUI's templates
 * (backend/open_webui/config.py: DEFAULT_TITLE_GENERATION_PROMPT_TEMPLATE, ..._TAGS_..., ..._FOLLOW_UP_...)
 * have a task header (`### Task:`), an output format (`JSON format: { "title": ... }`) and the
 * conversation in a `<chat_history>` block of `USER:` / `ASSISTANT:` lines; LibreChat's completion
 * title prompt (@librechat/agents src/utils/title.ts) asks for "a concise ... title for the
 * conversation" and pastes it after `Conversation:` as `User:` / `AI:` lines.
 *
 * Recognised by that shape, not by one version's wording: the instructions (the text outside the
 * conversation) must ask for one of the three things about the conversation, and the conversation must
 * read as role-labelled turns. Anything else, including other "task" templates (search queries,
 * autocompletion, image prompts), is not housekeeping and goes through preflight as before.
 */

export const HOUSEKEEPING_TASKS = ["title", "tags", "follow_ups"] as const;
export type HousekeepingKind = (typeof HOUSEKEEPING_TASKS)[number];

export interface HousekeepingRequest {
  kind: HousekeepingKind;
  /** "json": answer with the JSON object the template asks for; "text": the bare title. */
  format: "json" | "text";
  /** The conversation as the UI pasted it. */
  history: string;
}

/** Longer instructions than any UI's template are not a UI's: no room to smuggle a prompt in. */
const MAX_INSTRUCTION_CHARS = 4_000;

const TASK_HEADER = /^[ \t]*#{1,6}[ \t]*\**task\**[ \t]*:/im;
const JSON_KEY = /\{\s*"(title|tags|follow_ups)"\s*:/;
const OPEN_TAG = "<chat_history>";
const CLOSE_TAG = "</chat_history>";
/** The pasted conversation opens with a turn. */
const OPENS_WITH_TURN = /^(?:user|assistant|ai|human)[ \t]*:/i;
const CONVERSATION_HEADER = /^[ \t]*conversation[ \t]*:[ \t]*$/im;
const TITLE_ASK = /\btitle\b[^\n]{0,80}\b(?:conversation|chat)\b|\b(?:conversation|chat)\b[^\n]{0,80}\btitle\b/i;

/** Open WebUI's shape: task header, JSON output format, and a chat_history block of turns. */
function openWebUi(text: string): HousekeepingRequest | null {
  // indexOf, not a lazy regex: a message full of opening tags stays one linear scan.
  const lower = text.toLowerCase();
  const start = lower.indexOf(OPEN_TAG);
  const end = start < 0 ? -1 : lower.indexOf(CLOSE_TAG, start + OPEN_TAG.length);
  if (end < 0) return null;
  const history = text.slice(start + OPEN_TAG.length, end).trim();
  const instructions = text.slice(0, start) + text.slice(end + CLOSE_TAG.length);
  if (instructions.length > MAX_INSTRUCTION_CHARS || !TASK_HEADER.test(instructions) || !/\bJSON\b/i.test(instructions)) return null;
  const key = JSON_KEY.exec(instructions)?.[1] as HousekeepingKind | undefined;
  if (!key || !OPENS_WITH_TURN.test(history)) return null;
  return { kind: key, format: "json", history };
}

/** LibreChat's shape: a request for the conversation's title, then `Conversation:` and its turns. */
function libreChat(text: string): HousekeepingRequest | null {
  const header = CONVERSATION_HEADER.exec(text);
  if (!header) return null;
  const instructions = text.slice(0, header.index);
  const history = text.slice(header.index + header[0].length).trim();
  if (instructions.length > MAX_INSTRUCTION_CHARS || !TITLE_ASK.test(instructions)) return null;
  if (!OPENS_WITH_TURN.test(history)) return null;
  return { kind: "title", format: "text", history };
}

/** The housekeeping request in a user message, or null when the message is anything else. */
export function recogniseHousekeeping(text: string): HousekeepingRequest | null {
  return openWebUi(text) ?? libreChat(text);
}
