import OpenAI from "openai";
import { evaluateAnswer, type AnswerReport, type FindReferences } from "./checks.js";
import type { Scenario } from "./scenario.js";

export interface RunOptions {
  baseURL: string;
  apiKey: string;
  /** Omitted: the service's default model. */
  model?: string | undefined;
  scenarios: Scenario[];
  findReferences: FindReferences;
  /** Parallel requests; the author's provider quota is the limit, so the default is gentle. */
  concurrency?: number;
  onResult?: (result: ScenarioResult) => void;
}

export interface ScenarioResult {
  scenario: Scenario;
  report?: AnswerReport;
  /** A request that failed (HTTP error, network) has no report. */
  error?: string;
  answer?: string;
  promptVersions?: string;
  /** The model that answered, as the response names it. */
  model?: string;
  /** Quotations in the answer by status, from the response's `citations` (docs/grounding.md). */
  quotes?: { verified: number; corrected: number };
  ms: number;
}

interface CitationLike {
  status?: unknown;
}

function quoteCounts(citations: unknown): { verified: number; corrected: number } {
  const counts = { verified: 0, corrected: 0 };
  if (!Array.isArray(citations)) return counts;
  for (const citation of citations as CitationLike[]) {
    if (citation?.status === "verified") counts.verified++;
    else if (citation?.status === "corrected") counts.corrected++;
  }
  return counts;
}

/** Sends each scenario through the service's chat completions endpoint and checks the answers. */
export async function runScenarios(opts: RunOptions): Promise<ScenarioResult[]> {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 1 });
  const results: ScenarioResult[] = new Array(opts.scenarios.length);
  let next = 0;
  const worker = async () => {
    while (next < opts.scenarios.length) {
      const index = next++;
      const result = await runOne(client, opts, opts.scenarios[index]!);
      results[index] = result;
      opts.onResult?.(result);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 2) }, worker));
  return results;
}

async function runOne(client: OpenAI, opts: RunOptions, scenario: Scenario): Promise<ScenarioResult> {
  const started = Date.now();
  // The service's own parameters travel as ordinary body fields, the way the spec asks.
  const body = {
    ...(opts.model ? { model: opts.model } : {}),
    messages: [...(scenario.history ?? []), { role: "user" as const, content: scenario.question }],
    theology: scenario.theology,
    profile: scenario.profile,
    max_words: scenario.max_words,
    ...(scenario.bible_id ? { bible_id: scenario.bible_id } : {}),
    ...(scenario.system_instructions ? { system_instructions: scenario.system_instructions } : {}),
  } as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
  try {
    const { data, response } = await client.chat.completions.create(body).withResponse();
    const answer = data.choices[0]?.message.content ?? "";
    const versions = response.headers.get("x-prompt-versions");
    return {
      scenario,
      answer,
      model: data.model,
      quotes: quoteCounts((data as unknown as { citations?: unknown }).citations),
      report: evaluateAnswer(scenario, answer, opts.findReferences),
      ...(versions ? { promptVersions: versions } : {}),
      ms: Date.now() - started,
    };
  } catch (err) {
    // The SDK already starts an API error's message with its status.
    const message = (err as Error).message;
    return { scenario, error: message, ms: Date.now() - started };
  }
}

function pad(text: string, width: number): string {
  return text.length >= width ? text.slice(0, width) : text + " ".repeat(width - text.length);
}

/** A plain-text table, one row per scenario, then every failure reason, then a count line. */
export function formatTable(results: ScenarioResult[]): string {
  const header = ["scenario", "theology", "profile", "words", "cites", "lang", "result"];
  const rows = results.map((r) => {
    const s = r.scenario;
    const rep = r.report;
    return [
      s.id,
      s.theology,
      s.profile,
      rep ? `${rep.words}/${s.max_words}` : "-",
      rep ? String(rep.citations) : "-",
      rep ? rep.language : "-",
      r.error ? "ERROR" : rep?.pass ? "pass" : "FAIL",
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join("  ").trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
  const failed = results.filter((r) => r.error || !r.report?.pass);
  if (failed.length > 0) out.push("");
  for (const r of failed) {
    const reasons = r.error ? [r.error] : (r.report?.failures ?? []);
    out.push(`${r.scenario.id}: ${reasons.join("; ")}`);
  }
  out.push("", `${results.length - failed.length} passed, ${failed.length} failed`);
  return out.join("\n");
}

/**
 * The share of quoted passages the service had to correct, per theology and model: how often the
 * model misquotes scripture in the translation asked for (a passage counts once per answer).
 */
export function formatGrounding(results: ScenarioResult[]): string {
  const groups = new Map<string, { theology: string; model: string; answers: number; quoted: number; corrected: number }>();
  for (const r of results) {
    if (r.quotes === undefined) continue;
    const model = r.model ?? "?";
    const id = `${r.scenario.theology}\u0000${model}`;
    const group = groups.get(id) ?? { theology: r.scenario.theology, model, answers: 0, quoted: 0, corrected: 0 };
    group.answers++;
    group.quoted += r.quotes.verified + r.quotes.corrected;
    group.corrected += r.quotes.corrected;
    groups.set(id, group);
  }
  const rows = [...groups.values()].sort((a, b) => a.theology.localeCompare(b.theology) || a.model.localeCompare(b.model));
  const total = rows.reduce((sum, g) => ({ quoted: sum.quoted + g.quoted, corrected: sum.corrected + g.corrected }), { quoted: 0, corrected: 0 });
  const share = (c: number, q: number) => (q === 0 ? "-" : `${((100 * c) / q).toFixed(0)}%`);
  const header = ["theology", "model", "answers", "quoted", "corrected", "share"];
  const body = rows.map((g) => [g.theology, g.model, String(g.answers), String(g.quoted), String(g.corrected), share(g.corrected, g.quoted)]);
  body.push(["all", "", String(rows.reduce((n, g) => n + g.answers, 0)), String(total.quoted), String(total.corrected), share(total.corrected, total.quoted)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!)).join("  ").trimEnd();
  return ["Quotations corrected by the service (passages quoted per answer):", line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)].join("\n");
}
