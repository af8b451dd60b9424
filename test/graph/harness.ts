import { loadPrompts, type PromptRegistry } from "../../src/prompts/loader.js";
import { loadBibleLibrary, type BibleLibrary } from "../../src/scripture/corpus.js";
import { convertLinks, createLinkStream } from "../../src/scripture/links.js";
import { formatReference, parsePassageQuery } from "../../src/scripture/references.js";
import { buildChatGraph, type ChatGraph } from "../../graphs/chat/graph.js";
import type { ChatDeps } from "../../graphs/chat/deps.js";
import { createModelFactory } from "../../graphs/chat/models.js";
import { runChat } from "../../graphs/chat/run.js";
import type { ChatOutcome, ChatRequestContext, ChatTurn } from "../../graphs/chat/types.js";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";

export const KEY = "sk-graph-test-0123456789abcdef";

let bibles: BibleLibrary | undefined;
let prompts: PromptRegistry | undefined;

export interface LogLine {
  level: "warn" | "error";
  obj: object;
  msg: string | undefined;
}

export interface Harness {
  provider: FakeProvider;
  deps: ChatDeps;
  graph: ChatGraph;
  logs: LogLine[];
  run(
    turns: ChatTurn[] | string,
    ctx?: Partial<ChatRequestContext>,
    opts?: { signal?: AbortSignal; stream?: boolean },
  ): Promise<ChatOutcome & { deltas: string[]; content: string }>;
  close(): Promise<void>;
}

export function context(overrides: Partial<ChatRequestContext> = {}): ChatRequestContext {
  return {
    apiKey: KEY,
    model: "gpt-4o-mini",
    preflightModel: "gpt-4.1-mini",
    theology: "default",
    profile: "universal_explorer",
    bibleId: "eng-web",
    maxWords: 300,
    convertLinks: false,
    skipPreflight: false,
    modelParams: {},
    ...overrides,
  };
}

/** The real graph with real prompts, corpus and references, against the fake provider over HTTP. */
export async function startHarness(overrides: Partial<ChatDeps> = {}): Promise<Harness> {
  const provider = await startFakeProvider();
  bibles ??= loadBibleLibrary();
  prompts ??= loadPrompts();
  const logs: LogLine[] = [];
  const timeoutMs = overrides.providerTimeoutMs ?? 5_000;
  const deps: ChatDeps = {
    models: createModelFactory({ baseURL: provider.baseURL, timeoutMs }),
    prompts,
    bibles,
    references: { parsePassageQuery, formatReference },
    links: { convertLinks, createLinkStream },
    search: {
      search: async () => {
        throw new Error("no search index in this test");
      },
      keyword: async () => {
        throw new Error("no search index in this test");
      },
    },
    maxSteps: 4,
    providerTimeoutMs: timeoutMs,
    providerName: `127.0.0.1:${provider.port}`,
    defaultModel: "gpt-4o-mini",
    preflightModel: "gpt-4.1-mini",
    logger: {
      warn: (obj, msg) => logs.push({ level: "warn", obj, msg }),
      error: (obj, msg) => logs.push({ level: "error", obj, msg }),
    },
    ...overrides,
  };
  const graph = buildChatGraph(deps);
  return {
    provider,
    deps,
    graph,
    logs,
    async run(turns, ctx = {}, opts = {}) {
      const list: ChatTurn[] = typeof turns === "string" ? [{ role: "user", content: turns }] : turns;
      const deltas: string[] = [];
      const outcome = await runChat(graph, list, context(ctx), {
        maxSteps: deps.maxSteps,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.stream === false ? {} : { onDelta: (t: string) => deltas.push(t) }),
      });
      // Every outcome has some text; tests read it as content whatever the kind.
      return { ...outcome, deltas, content: outcome.kind === "rejected" ? outcome.message : outcome.content };
    },
    close: () => provider.close(),
  };
}
