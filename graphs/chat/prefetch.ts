import { AIMessage, type BaseMessage, type ToolCall, ToolMessage } from "@langchain/core/messages";
import { runKey, type ChatRunConfig, type ChatContext } from "./configuration.js";
import type { ChatDeps, PassageRef } from "./deps.js";
import { userTexts } from "./messages.js";
import { createTools } from "./tools/index.js";
import { clipText } from "../../src/limits.js";
import { unfounded } from "./tools/search-scripture.js";

/**
 * The first agent call should not have to ask for scripture: before it, the service runs its own
 * retrieval for the question (local, milliseconds) and hands the results to the model as a completed
 * tool turn, the shape the model itself would have produced (an assistant message with
 * search_scripture / lookup_passage calls, then one tool message per call). The results come from the
 * same tool functions the agent calls (tools/index.ts), so the model reads exactly what it would have
 * read. It may still call tools for more.
 */

/** Tool call ids the service writes: exactly 9 letters and digits, the strictest rule a provider has (Mistral's). */
export const SERVICE_TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export function serviceToolCallId(): string {
  let id = "";
  // The global crypto source: the chat runtime pools its small draws (random-pool.ts, one pool for the process).
  for (const byte of crypto.getRandomValues(new Uint8Array(9))) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

/** A message shorter than this many words that follows a question ("Why?", "And Paul?") is searched with it. */
const FOLLOW_UP_WORDS = 4;

/** References named in the message (beside the request's passage) looked up at most. */
const MAX_LOOKUPS = 2;

/** What the prefetch needs of a tool: its argument schema and the plain function the tool calls. */
interface PrefetchTool {
  schema: { parse(input: unknown): unknown };
  run(input: unknown): Promise<string>;
}

export interface PrefetchCall {
  name: "search_scripture" | "lookup_passage";
  args: Record<string, string>;
}

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;

/** The user messages' texts, trimmed. */
const trimmedUserTexts = (messages: BaseMessage[]) => userTexts(messages).map((t) => t.trim());

/**
 * What to search for: the last user message, or, for a short follow-up, the conversation's question
 * (the latest earlier user message of FOLLOW_UP_WORDS words or more) followed by the follow-up.
 */
export function searchQuery(messages: BaseMessage[]): string {
  const users = trimmedUserTexts(messages);
  const last = users[users.length - 1] ?? "";
  if (words(last) >= FOLLOW_UP_WORDS) return last;
  for (let i = users.length - 2; i >= 0; i--) {
    const question = users[i]!;
    if (words(question) >= FOLLOW_UP_WORDS) return `${question} ${last}`.trim();
  }
  return last;
}

/** The request's passage (book_id, chapter, verses) as one reference: the verses given, as the range that holds them. */
function requestPassage(ctx: ChatContext): PassageRef | undefined {
  const p = ctx.passage;
  if (!p) return undefined;
  const verses = p.verses && p.verses.length > 0 ? [...p.verses].sort((a, b) => a - b) : undefined;
  if (!verses) return { book: p.book, chapter: p.chapter };
  const first = verses[0]!;
  const last = verses[verses.length - 1]!;
  return { book: p.book, chapter: p.chapter, verseStart: first, ...(last !== first ? { verseEnd: last } : {}) };
}

/**
 * The calls the service makes for the question: lookup_passage for the passage the request names and
 * for references in the message (at most MAX_LOOKUPS of those), then search_scripture for the question
 * unless the whole message is a reference (then the lookup is the answer's scripture).
 */
export function prefetchCalls(deps: Pick<ChatDeps, "references">, ctx: ChatContext, messages: BaseMessage[]): PrefetchCall[] {
  const users = trimmedUserTexts(messages);
  const last = users[users.length - 1] ?? "";
  if (last === "") return [];
  const refs: PassageRef[] = [];
  const fromRequest = requestPassage(ctx);
  if (fromRequest) refs.push(fromRequest);
  const whole = deps.references.parsePassageQuery(last);
  // The references a message names are looked for in its opening TEXT_LIMITS.reference characters: the
  // parser costs about 0.1 ms a character on text dense with references, and this runs before any
  // provider has accepted the caller's key. The agent looks up the rest itself.
  const named = whole ? [whole] : (deps.references.findReferences?.(clipText(last, "reference")) ?? []).map((f) => f.ref);
  refs.push(...named.slice(0, MAX_LOOKUPS));
  const seen = new Set<string>();
  const calls: PrefetchCall[] = [];
  for (const ref of refs) {
    const reference = deps.references.formatReference(ref, "en");
    if (seen.has(reference)) continue;
    seen.add(reference);
    calls.push({ name: "lookup_passage", args: { reference } });
  }
  // The passages named come first (what the question is about), then the search for the question.
  // A long message is searched by its opening words: the tool takes a query of TEXT_LIMITS.query at most.
  if (!whole) calls.push({ name: "search_scripture", args: { query: clipText(searchQuery(messages), "query") } });
  return calls;
}

/**
 * One run's prefetched turn, by its context object and care decision, so the speculative call and the
 * state carry the same ids and text; a verdict that finds care the rules missed makes a care-safe one.
 */
const turns = new WeakMap<object, Map<boolean, Promise<BaseMessage[]>>>();

/**
 * The completed tool turn for the run's question: [assistant tool calls, tool results...], or [] when
 * there is nothing to retrieve. Computed once per run (classifyPreflight may need it before
 * callAgent's first step adds it) for each care decision (care.ts). A tool that fails the way tools report failures (search down) gives the
 * result the model would read; anything else leaves the turn out, and the agent searches itself.
 */
export function prefetchTurn(deps: ChatDeps, ctx: ChatContext, messages: BaseMessage[], config: ChatRunConfig, care: boolean): Promise<BaseMessage[]> {
  const run = runKey(config);
  let byCare = run ? turns.get(run) : undefined;
  if (run && !byCare) turns.set(run, (byCare = new Map()));
  const known = byCare?.get(care);
  if (known) return known;
  const made = retrieve(deps, ctx, messages, config, care);
  byCare?.set(care, made);
  return made;
}

async function retrieve(deps: ChatDeps, ctx: ChatContext, messages: BaseMessage[], config: ChatRunConfig, care: boolean): Promise<BaseMessage[]> {
  const calls = prefetchCalls(deps, ctx, messages);
  if (calls.length === 0) return [];
  const tools = new Map(createTools(deps, ctx, care).map((t) => [t.name, t]));
  try {
    const results = await Promise.all(
      calls.map(async (call) => {
        const tool = tools.get(call.name) as PrefetchTool | undefined;
        if (!tool) throw new Error(`no tool named ${call.name}`);
        // The tool's own function over its own schema's reading of the arguments, as tool.invoke would
        // call it, without a runnable's callbacks and config for each call (docs/performance.md, session 7).
        return tool.run(tool.schema.parse(call.args));
      }),
    );
    // Retrieval that found nothing to build on (no passage, or guesses from words that only begin like
    // the question's) is left out: a misleading turn is worse than none, and the model can still search.
    // Weak but real matches stay, with the tool's note saying so (search-scripture.ts WEAK_NOTE).
    const kept = calls.map((call, i) => ({ call, result: results[i]! })).filter(({ call, result }) => !(call.name === "search_scripture" && unfounded(result)));
    if (kept.length === 0) return [];
    const toolCalls: ToolCall[] = kept.map(({ call }) => ({ id: serviceToolCallId(), name: call.name, args: call.args, type: "tool_call" }));
    return [
      new AIMessage({ content: "", tool_calls: toolCalls }),
      ...toolCalls.map((c, i) => new ToolMessage({ content: kept[i]!.result, tool_call_id: c.id!, name: c.name })),
    ];
  } catch (err) {
    if (config.signal?.aborted) throw err;
    deps.logger?.warn({ err: { name: (err as Error)?.name }, node: "callAgent", step: "prefetch" }, "prefetched retrieval failed; the agent searches itself");
    return [];
  }
}
