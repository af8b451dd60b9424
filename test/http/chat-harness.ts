import { Writable } from "node:stream";
import OpenAI from "openai";
import type { ChatOutcome, ChatRequestContext, ChatTurn, FinishReason, RunChatOptions } from "../../graphs/chat/contract.js";
import { createApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { requestCatalog } from "../../graphs/chat/contract.js";
import { chatRouter, type RunChat } from "../../src/http/chat/route.js";
import { responsesRouter } from "../../src/http/responses/route.js";
import { createLogger } from "../../src/logger.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { listen, type Listening } from "../helpers/listen.js";

export interface RunCall {
  turns: ChatTurn[];
  ctx: ChatRequestContext;
  opts: RunChatOptions;
}

export const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/** A runner that streams `parts` through onDelta and answers with their concatenation. */
export function answering(parts: string[], finishReason: FinishReason = "stop"): RunChat {
  return async (_t, ctx, opts) => {
    for (const p of parts) opts.onDelta?.(p);
    return { kind: "answer", content: parts.join(""), finishReason, usage: USAGE, promptVersions: `theology:${ctx.theology}@x` };
  };
}

export interface ChatHarness {
  url: string;
  calls: RunCall[];
  logs: string[];
  /** The runner for the next requests (until changed). */
  runner: RunChat;
  client(apiKey?: string): OpenAI;
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

export const KEY = "sk-test-adapter-0123456789";

/** createApp with the chat router over the real prompt registry and book table, on port 0. */
export async function startChatHarness(): Promise<ChatHarness> {
  const logs: string[] = [];
  const sink = new Writable({ write: (c, _e, cb) => (logs.push(String(c)), cb()) });
  const config = loadConfig({});
  const prompts = loadPrompts();
  const h: Partial<ChatHarness> & { calls: RunCall[]; logs: string[]; runner: RunChat } = {
    calls: [],
    logs,
    runner: answering(["In the beginning ", "was the Word."]),
  };
  const run: RunChat = (turns, ctx, opts): Promise<ChatOutcome> => {
    h.calls.push({ turns, ctx, opts });
    return h.runner(turns, ctx, opts);
  };
  const app = createApp({
    config,
    logger: createLogger("debug", sink),
    readiness: { ready: () => true, detail: () => ({}) },
    listings: { models: config.models, modelsCreated: 0, translations: () => [], theologies: () => [], profiles: () => [] },
    routers: [chatRouter({ run, catalog: requestCatalog(prompts), config }), responsesRouter({ run, catalog: requestCatalog(prompts), config })],
  });
  const srv: Listening = await listen(app);
  h.url = srv.url;
  h.client = (apiKey = KEY) => new OpenAI({ baseURL: `${srv.url}/v1`, apiKey, maxRetries: 0 });
  h.post = (body, headers = {}) =>
    fetch(`${srv.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${KEY}`, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  h.close = () => srv.close();
  return h as ChatHarness;
}

export const ask = (text = "What does John 3:16 mean?") => [{ role: "user" as const, content: text }];
