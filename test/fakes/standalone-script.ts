import { type ChatMessage, type ChatRequest, forcedFunction, lastUserText, messageText, wantsJsonSchema } from "./chat-request.js";
import { careOpening, comforts, needsCare } from "./care-answer.js";
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

// search_scripture: "## 1 Corinthians 13 (eng-web, relevance 0.83; best verses 4, 7)", then the verses
// around those, numbered ("3 If I give..."); without best verses, the chapter's opening. (Older results
// carried a "Best verses: 4 "Love is patient..."" line instead.)
const SEARCH_HEADING = /^## (.+?) \(/;
const BEST_IN_HEADING = /; best verses (\d+)/;
const BEST_VERSES = /^Best verses: (.*)$/;
const HIGHLIGHT = /(\d+) "(.*?)"(?=; \d+ "|$)/g;
// lookup_passage: "John 3:16 (World English Bible, eng-web):" then "16 For God so loved..."
const LOOKUP_TITLE = /^(.+?) \([^()]*, [a-z]{3}-[a-z0-9-]+\):$/;
// keyword_search: "John 3:16: For God so loved..."
const KEYWORD_HIT = /^((?:[1-3] )?\p{L}[\p{L} ]*? \d+:\d+(?:-\d+)?): (.+)$/u;
// A line the tools write about the text rather than scripture: "[chapter 4]", "[3 more verses left out ...]".
const NOTE_LINE = /^\[.*\]$/;

/** The tool results after the last user message: only the last question's count. */
function toolResultsSinceUser(messages: ChatMessage[]): ChatMessage[] {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === "user") {
      start = i + 1;
      break;
    }
  }
  return messages.slice(start).filter((m) => m.role === "tool");
}

// A numbered verse line under a search heading or a lookup title: "19 Many are the afflictions ...".
const VERSE_LINE = /^(\d+) (.+)$/;
// A lookup across chapters marks where the next begins: "[chapter 4]".
const CHAPTER_NOTE = /^\[chapter (\d+)\]$/;

/** Every single verse the tools returned (search blocks, lookups, keyword hits), in the order given. */
export function versesFromToolResults(messages: ChatMessage[]): Found[] {
  const found: Found[] = [];
  for (const message of toolResultsSinceUser(messages)) {
    let chapter: string | undefined;
    for (const line of messageText(message).split("\n")) {
      const heading = SEARCH_HEADING.exec(line)?.[1] ?? LOOKUP_TITLE.exec(line)?.[1];
      const keyword = KEYWORD_HIT.exec(line);
      const next = CHAPTER_NOTE.exec(line.trim());
      const verse = VERSE_LINE.exec(line);
      if (heading) chapter = heading.replace(/:[\d-]+$/, "");
      else if (next && chapter) chapter = chapter.replace(/\d+$/, next[1]!);
      else if (keyword) found.push({ reference: keyword[1]!, text: keyword[2]! });
      else if (verse && chapter) found.push({ reference: `${chapter}:${verse[1]}`, text: verse[2]! });
    }
  }
  return found;
}

/** Passages in the tool results after the last user message, in the order the tools gave them. */
export function passagesFromToolResults(messages: ChatMessage[]): Found[] {
  const found: Found[] = [];
  for (const message of toolResultsSinceUser(messages)) {
    const lines = messageText(message).split("\n");
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const heading = SEARCH_HEADING.exec(line);
      const title = LOOKUP_TITLE.exec(line);
      const verse = KEYWORD_HIT.exec(line);
      const bestVerse = heading ? BEST_IN_HEADING.exec(line)?.[1] : undefined;
      const block = lines.slice(i + 1, lines.findIndex((l, j) => j > i && SEARCH_HEADING.test(l)) >>> 0);
      const bestLine = bestVerse ? block.find((l) => l.startsWith(`${bestVerse} `)) : undefined;
      if (heading && bestLine) {
        // The verse that matched best is the passage a model would cite.
        found.push({ reference: `${heading[1]}:${bestVerse}`, text: bestLine.slice(bestVerse!.length + 1) });
      } else if (heading) {
        // The verses that matched are the passage a model would cite; the chapter's text is the fallback.
        const best = BEST_VERSES.exec(lines[i + 1] ?? "");
        const first = best ? [...best[1]!.matchAll(HIGHLIGHT)][0] : undefined;
        if (first) found.push({ reference: `${heading[1]}:${first[1]}`, text: first[2]! });
        else found.push({ reference: heading[1]!, text: textAfter(lines, i + (best ? 2 : 1)) });
      } else if (title) {
        found.push({ reference: title[1]!, text: textAfter(lines, i + 1).replace(/^\d+ /, "") });
      } else if (verse) {
        found.push({ reference: verse[1]!, text: verse[2]! });
      }
    }
  }
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(f.reference) && seen.add(f.reference));
}

/** The first line of scripture from `from` on, skipping the tools' notes. */
function textAfter(lines: string[], from: number): string {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === "" || SEARCH_HEADING.test(line)) return "";
    if (!NOTE_LINE.test(line)) return line;
  }
  return "";
}

const OPENERS: Readonly<Record<string, string>> = { "“": "”", "‘": "’" };

/**
 * Where the text's quotation marks stop balancing: the index of the first opening mark that is never
 * closed or of a closing mark that was never opened, or -1 when every mark pairs. A ’ between two
 * letters is an apostrophe ("don’t"), and so is one after a letter that no ‘ opened ("sheep’ wool").
 */
export function unbalancedAt(text: string): number {
  const open: { mark: string; at: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c in OPENERS) open.push({ mark: c, at: i });
    else if (c === "”" || (c === "’" && !/\p{L}/u.test(text[i + 1] ?? "") && open.at(-1)?.mark === "‘")) {
      if (open.at(-1)?.mark !== (c === "”" ? "“" : "‘")) return i;
      open.pop();
    } else if (c === '"') return i;
  }
  return open[0]?.at ?? -1;
}

/**
 * A quotable piece of a passage: its first whole sentence of a quotable length, without an opening
 * quotation mark of its own, cut before any quotation it opens and does not close (then ending in
 * "…"), so the marks in the answer always pair. Undefined when nothing of a quotable length is left.
 */
export function quotablePart(text: string): string | undefined {
  const clipped = /\s…$/.test(text);
  let body = text.replace(/\s…$/, "").trim().replace(/^["“‘']+/u, "");
  const sentence = /^(.{20,240}?[.;!?][”’]*)(?:\s|$)/u.exec(body)?.[1];
  let cut = false;
  if (sentence !== undefined) body = sentence;
  else if (clipped || body.length > 240) {
    // The tools clip at a word; a longer text is cut here at the last whole word.
    if (body.length > 240) body = body.slice(0, 240).replace(/\s+\S*$/, "");
    cut = true;
  }
  // A sentence that ends where the passage's own quotation closes keeps its words but not the mark.
  body = body.replace(/[”’]+$/u, (marks) => (unbalancedAt(body) === -1 ? marks : ""));
  const at = unbalancedAt(body);
  if (at >= 0) {
    body = body.slice(0, at);
    cut = true;
  }
  body = body.replace(/[\s,;:—-]+$/u, "");
  if (body.length < 15) return undefined;
  return cut && !/[.!?]$/.test(body) ? `${body} …` : body;
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

export function answerFromPassages(passages: Found[]): string {
  if (passages.length === 0) {
    return `The scripture tools found no passage for this question, so there is nothing to cite. ${SCRIPTED_NOTE}`;
  }
  const top = passages.slice(0, MAX_REFERENCES);
  // Quote a whole sentence where one of the passages has it, else the first passage's cut one.
  const quotes = top.map((p) => ({ reference: p.reference, words: quotablePart(p.text) }));
  const chosen = quotes.find((q) => q.words !== undefined && !q.words.endsWith("…")) ?? quotes.find((q) => q.words !== undefined);
  const quote = chosen ? `${chosen.reference} reads: "${chosen.words}"` : "";
  if (top.length === 1 && quote !== "") return `${quote} ${SCRIPTED_NOTE}`;
  return `Scripture speaks to this in ${list(top.map((p) => p.reference))}.${quote ? ` ${quote}` : ""} ${SCRIPTED_NOTE}`;
}

/**
 * The answer for a person in distress (care-answer.ts): the help line first, then only verses that speak
 * comfort, quoted and cited; none of the others, however well they matched the search.
 */
export function careAnswer(messages: ChatMessage[], userText: string): string {
  const comfort = versesFromToolResults(messages)
    .map((v) => ({ reference: v.reference, words: quotablePart(v.text) }))
    .filter((v): v is { reference: string; words: string } => v.words !== undefined && !v.words.endsWith("…") && comforts(v.words));
  const seen = new Set<string>();
  const verses = comfort.filter((v) => !seen.has(v.reference) && seen.add(v.reference)).slice(0, MAX_REFERENCES);
  const scripture = verses[0] ? ` ${verses[0].reference} reads: "${verses[0].words}"${verses.length > 1 ? ` See also ${list(verses.slice(1).map((v) => v.reference))}.` : ""}` : "";
  return `${careOpening(messages, userText)}${scripture} ${SCRIPTED_NOTE}`;
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
  if (needsCare(body.messages)) return reply.text(careAnswer(body.messages, userText));
  return reply.text(answerFromPassages(passagesFromToolResults(body.messages)));
}
