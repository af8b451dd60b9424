/**
 * npm run bench:latency — how long a user waits for the first answer word, against a provider that
 * takes time to answer, and what the prompts cost (issue 23). Two processes besides this one:
 *   the service, started by scripts/start.sh as `npm start` starts it (its embedded Chroma, the real
 *   search index in BENCH_DATA_DIR), preflight on (whatever PREFLIGHT_MODE this environment sets);
 *   the fake provider, in this process so its request log (every message and tool definition the
 *   service sent) can be read: every chat completion waits BENCH_DELAY_MS (400) before its first byte,
 *   and an answer streams one word every BENCH_PACE_MS (15); it answers with its standalone script
 *   (the tool a model would pick, an answer built from the passages the tools returned).
 * For each ordinary question (rounds x questions, interleaved): the question through the service over
 * HTTP with the official openai client, streamed; then the same question streamed straight to the
 * fake (the floor: one round trip, nothing in between). Reported:
 *   first answer word, client side, p50/p90 for both, and the ratio;
 *   provider calls per question, and the round trips on the path before the first word (calls that
 *   each waited for the one before to finish);
 *   prompt tokens per question, js-tiktoken o200k_base over what the fake received: each message's text,
 *   tool calls' names and arguments, tool definitions and response_format schemas as JSON, plus OpenAI's
 *   framing (3 tokens a message, 3 to prime the reply);
 *   the agent's system prompt, and the tokens two different questions' agent system prompts share as a
 *   prefix (what a provider's prompt cache can serve; OpenAI caches from 1,024 tokens).
 * BENCH_ROUNDS (3), BENCH_DELAY_MS, BENCH_PACE_MS, BENCH_PORT (18480), BENCH_DATA_DIR tune the run;
 * BENCH_DUMP=<file> writes every provider call of the first round, as the fake received it, to read what costs the tokens.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import OpenAI from "openai";
import { type ChatBody, type ChatRequest, messageText, startFakeProvider, type FakeReply } from "../test/fakes/index.js";
import { formatChatRequest } from "../test/fakes/request-log.js";
import { standaloneReply } from "../test/fakes/standalone-script.js";
import { loadAverage, startServiceProcess } from "./lib/service-process.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 400);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 15);
const PORT = Number(process.env.BENCH_PORT ?? 18_480);
const DATA_DIR = process.env.BENCH_DATA_DIR ?? join(tmpdir(), "bc-bench-latency-data");
const KEY = "sk-bench-latency-0000";
const MODEL = "gpt-4o-mini";

interface Question {
  text: string;
  /** Extra body fields, as callers send them. */
  extra?: Record<string, unknown>;
}

/**
 * Ordinary questions as users ask them: some the preflight rules settle (a bare reference, a name
 * alone), the rest go to the classifier; English and Spanish; the default word limit and others.
 */
const QUESTIONS: Question[] = [
  { text: "What does the Bible say about forgiveness?" },
  { text: "How should a Christian deal with anxiety?", extra: { max_words: 150 } },
  { text: "Who was Melchizedek?" },
  { text: "¿Qué dice la Biblia sobre la esperanza?", extra: { max_words: 200 } },
  { text: "Why did Jesus speak in parables?" },
  { text: "What does Psalm 23 teach about God's care?" },
  { text: "John 3:16" },
  { text: "Ruth" },
  { text: "Is it wrong to be angry with God?", extra: { max_words: 120 } },
];

const enc = getEncoding("o200k_base");
const tokens = (text: string) => enc.encode(text).length;
const now = () => performance.timeOrigin + performance.now();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const fmt = (x: number) => Math.round(x).toLocaleString("en-US");

interface Tokens {
  total: number;
  system: number;
  toolDefinitions: number;
  toolResults: number;
}

/** Prompt tokens of one chat request as a provider counts them (o200k_base; framing as OpenAI documents it). */
export function requestTokens(body: ChatBody): Tokens {
  const t: Tokens = { total: 3, system: 0, toolDefinitions: 0, toolResults: 0 };
  for (const m of body.messages) {
    let n = 3 + tokens(m.role) + tokens(messageText(m));
    for (const call of m.tool_calls ?? []) n += 3 + tokens(call.function.name) + tokens(call.function.arguments);
    if (m.role === "system") t.system += n;
    if (m.role === "tool") t.toolResults += n;
    t.total += n;
  }
  if (body.tools?.length) t.toolDefinitions = tokens(JSON.stringify(body.tools.map((x) => x.function)));
  t.total += t.toolDefinitions;
  if (body.response_format?.json_schema) t.total += tokens(JSON.stringify(body.response_format.json_schema));
  return t;
}

const isClassifier = (b: ChatBody) => b.response_format !== undefined || (typeof b.tool_choice === "object" && b.tool_choice !== null);
const isAgent = (b: ChatBody) => !isClassifier(b) && (b.tools?.length ?? 0) > 0;
const systemText = (b: ChatBody) => b.messages.filter((m) => m.role === "system").map(messageText).join("\n");

/** Round trips in a row before `until`: the longest chain of calls each sent after the one before had finished. */
function roundTripsOnPath(calls: ChatRequest[], until: number): number {
  const before = calls.filter((c) => c.receivedAt < until).sort((a, b) => a.receivedAt - b.receivedAt);
  const depth: number[] = [];
  before.forEach((c, i) => {
    let d = 1;
    for (let j = 0; j < i; j++) {
      const done = before[j]!.finishedAt;
      if (done !== undefined && done <= c.receivedAt) d = Math.max(d, depth[j]! + 1);
    }
    depth.push(d);
  });
  return Math.max(0, ...depth);
}

interface Sample {
  firstWord: number;
  /** Epoch ms of the first word. */
  firstAt: number;
  calls: ChatRequest[];
}

/** Streams one request with the official client; the time of the first chunk carrying a word. */
async function firstWord(client: OpenAI, q: Question, onlyUser: boolean): Promise<{ t0: number; firstWord: number; t1: number; text: string }> {
  const t0 = now();
  const stream = await client.chat.completions.create({
    model: MODEL,
    stream: true,
    messages: [{ role: "user", content: q.text }],
    ...(onlyUser ? {} : (q.extra ?? {})),
  } as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
  let first: number | undefined;
  let text = "";
  for await (const chunk of stream) {
    const piece = chunk.choices[0]?.delta?.content ?? "";
    if (first === undefined && /\p{L}/u.test(piece)) first = now();
    text += piece;
  }
  const t1 = now();
  if (first === undefined) throw new Error(`no answer word for ${JSON.stringify(q.text)}: ${text.slice(0, 200)}`);
  return { t0, firstWord: first - t0, t1, text };
}

/** The shared leading tokens of two texts. */
function sharedPrefixTokens(a: string, b: string): number {
  const ta = enc.encode(a);
  const tb = enc.encode(b);
  let i = 0;
  while (i < ta.length && i < tb.length && ta[i] === tb[i]) i++;
  return i;
}

export async function main(): Promise<void> {
  const loadAtStart = loadavg().map((l) => l.toFixed(2)).join(" ");
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      return "?";
    }
  })();
  // Only a final answer is paced like a model writing; tool turns and the classifier come whole after the delay.
  const paced = (request: ChatRequest): FakeReply => {
    const r = standaloneReply(request);
    return r.kind === "text" ? { ...r, chunkDelayMs: PACE_MS } : r;
  };
  const fake = await startFakeProvider({ delayMs: DELAY_MS, fallback: paced, maxRecorded: 100_000 });
  const service = await startServiceProcess({ DATA_DIR, OPENAI_BASE_URL: fake.baseURL, LOG_LEVEL: "warn" }, { port: PORT });
  const viaService = new OpenAI({ baseURL: `${service.url}/v1`, apiKey: KEY, maxRetries: 0 });
  const direct = new OpenAI({ baseURL: fake.baseURL, apiKey: KEY, maxRetries: 0 });
  const serviceSamples: Sample[][] = QUESTIONS.map(() => []);
  const directSamples: number[][] = QUESTIONS.map(() => []);
  try {
    // One warm-up of each path: the first request compiles code paths and opens sockets.
    await firstWord(viaService, QUESTIONS[0]!, false);
    await firstWord(direct, QUESTIONS[0]!, true);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, q] of QUESTIONS.entries()) {
        const seq = fake.requests.at(-1)?.seq ?? 0;
        const run = await firstWord(viaService, q, false);
        // Let the fake stamp finishedAt on the last response before its records are read.
        await new Promise((r) => setTimeout(r, 20));
        const calls = fake.chatRequests.filter((r) => r.seq > seq);
        serviceSamples[i]!.push({ firstWord: run.firstWord, firstAt: run.t0 + run.firstWord, calls });
        directSamples[i]!.push((await firstWord(direct, q, true)).firstWord);
      }
    }
  } finally {
    await service.stop();
    await fake.close();
  }

  if (process.env.BENCH_DUMP) {
    const dump = serviceSamples.flatMap((ss, i) => [`########## ${QUESTIONS[i]!.text}\n`, ...ss[0]!.calls.map(formatChatRequest)]);
    writeFileSync(process.env.BENCH_DUMP, dump.join(""));
  }
  const serviceFirst = serviceSamples.flat().map((s) => s.firstWord);
  const directFirst = directSamples.flat();
  const perQuestionTokens = serviceSamples.map((ss) => pct(ss.map((s) => s.calls.reduce((n, c) => n + requestTokens(c.body).total, 0)), 50));
  // Where a question's tokens go: the classifier's call, and the agent's system prompts, tool definitions and tool results over its calls.
  const part = (pick: (c: ChatRequest) => number) => pct(serviceSamples.map((ss) => ss[0]!.calls.reduce((n, c) => n + pick(c), 0)), 50);
  const parts = {
    classifier: part((c) => (isClassifier(c.body) ? requestTokens(c.body).total : 0)),
    system: part((c) => (isAgent(c.body) ? requestTokens(c.body).system : 0)),
    toolDefinitions: part((c) => (isAgent(c.body) ? requestTokens(c.body).toolDefinitions : 0)),
    toolResults: part((c) => (isAgent(c.body) ? requestTokens(c.body).toolResults : 0)),
  };
  const callsPer = serviceSamples.flat().map((s) => s.calls.length);
  const pathPer = serviceSamples.flat().map((s) => roundTripsOnPath(s.calls, s.firstAt));
  const agentSystems = serviceSamples.map((ss) => ss[0]!.calls.find((c) => isAgent(c.body))).map((c) => (c ? systemText(c.body) : ""));
  const agentSystemTokens = agentSystems.map((s) => tokens(s));
  const agentCallsPer = serviceSamples.flat().map((s) => s.calls.filter((c) => isAgent(c.body)).length);
  const classifierPer = serviceSamples.flat().map((s) => s.calls.filter((c) => isClassifier(c.body)).length);
  // Two different questions with the same theology, profile and translation: the first (default
  // max_words, English) and the Spanish one (max_words 200); then the least any pair shares.
  const spanish = QUESTIONS.findIndex((q) => q.text.startsWith("¿"));
  const pairShared = sharedPrefixTokens(agentSystems[0]!, agentSystems[spanish]!);
  let minShared = Infinity;
  for (let a = 0; a < agentSystems.length; a++) for (let b = a + 1; b < agentSystems.length; b++) minShared = Math.min(minShared, sharedPrefixTokens(agentSystems[a]!, agentSystems[b]!));

  const p50s = pct(serviceFirst, 50);
  const d50 = pct(directFirst, 50);
  const distinct = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b).join(", ");
  console.log(
    `latency benchmark at ${commit}: the service (scripts/start.sh, PREFLIGHT_MODE=${process.env.PREFLIGHT_MODE ?? "(default)"}) and the fake provider ` +
      `(${DELAY_MS} ms before every chat completion's first byte, answer words every ${PACE_MS} ms); ${QUESTIONS.length} questions x ${ROUNDS} rounds, ` +
      `each through the service and straight to the fake, streamed with the openai client; Node ${process.version}; ` +
      `load average at start ${loadAtStart}, at end ${loadAverage()}\n`,
  );
  console.log("| measure | value |\n|---|---|");
  const rows: [string, string][] = [
    ["first answer word through the service, p50 / p90", `**${fmt(p50s)} ms** / ${fmt(pct(serviceFirst, 90))} ms`],
    ["the same questions straight to the provider, p50 / p90", `${fmt(d50)} ms / ${fmt(pct(directFirst, 90))} ms`],
    ["ratio (p50)", `**${(p50s / d50).toFixed(2)}x**`],
    ["provider calls per question (classifier / agent)", `${distinct(callsPer)} (${distinct(classifierPer)} / ${distinct(agentCallsPer)})`],
    ["round trips on the path before the first word", distinct(pathPer)],
    ["prompt tokens per question (o200k_base), p50 / max", `**${fmt(pct(perQuestionTokens, 50))}** / ${fmt(Math.max(...perQuestionTokens))}`],
    ["agent system prompt tokens, p50 (sent with each agent call)", fmt(pct(agentSystemTokens, 50))],
    [
      "where a question's tokens go, p50 over questions",
      `classifier call ${fmt(parts.classifier)}; agent calls: system prompts ${fmt(parts.system)}, tool definitions ${fmt(parts.toolDefinitions)}, tool results ${fmt(parts.toolResults)}`,
    ],
    [
      "shared prefix of two questions' agent system prompts (forgiveness, 300 words / the Spanish one, 200 words)",
      `**${fmt(pairShared)}** of ${fmt(agentSystemTokens[0]!)} / ${fmt(agentSystemTokens[spanish]!)} tokens; least shared by any two questions: ${fmt(minShared)}`,
    ],
  ];
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
  console.log("\n| question | classifier call | calls | first word p50 (service / direct) | prompt tokens |\n|---|---|---|---|---|");
  for (const [i, q] of QUESTIONS.entries()) {
    const ss = serviceSamples[i]!;
    const extra = q.extra ? ` (${Object.entries(q.extra).map(([k, v]) => `${k} ${v}`).join(", ")})` : "";
    console.log(
      `| ${q.text}${extra} | ${ss.some((s) => s.calls.some((c) => isClassifier(c.body))) ? "yes" : "no (rules)"} | ${distinct(ss.map((s) => s.calls.length))} | ` +
        `${fmt(pct(ss.map((s) => s.firstWord), 50))} / ${fmt(pct(directSamples[i]!, 50))} ms | ${fmt(perQuestionTokens[i]!)} |`,
    );
  }
}

await main();
