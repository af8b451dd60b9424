import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, inject } from "vitest";
import { loadPrompts } from "../../src/prompts/loader.js";
import { match, messageText, reply, startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { startDevServer, type DevServer } from "./dev-server.js";

const KEY = "sk-studio-run-9c2b";
const QUESTION = "What does John 3:16 teach about God's love?";

let provider: FakeProvider;
let studio: DevServer;
let ownDir: string | undefined;

beforeAll(async () => {
  provider = await startFakeProvider({ delayMs: 0 });
  // The run's shared Chroma index when the globalSetup made one; else the graph's own deps ingest into a temp dir.
  const get = inject as unknown as (key: string) => string | undefined;
  const dataDir = get("indexDataDir");
  const chromaUrl = get("indexChromaUrl");
  if (!dataDir || !chromaUrl) ownDir = mkdtempSync(join(tmpdir(), "bc-studio-"));
  studio = await startDevServer({
    OPENAI_BASE_URL: provider.baseURL,
    DATA_DIR: dataDir ?? ownDir!,
    ...(chromaUrl ? { CHROMA_URL: chromaUrl } : {}),
    LOG_LEVEL: "warn",
    // Not the built-in default, so that the context schema's default model shows it comes from here.
    DEFAULT_MODEL: "gpt-4.1-mini",
    // On a LangGraph server the key comes from the server's environment, never from a run's context.
    STUDIO_API_KEY: KEY,
  });
}, 120_000);
afterAll(async () => {
  await studio?.stop();
  await provider?.close();
  if (ownDir) rmSync(ownDir, { recursive: true, force: true });
});
beforeEach(() => provider.reset());

const api = async (path: string, body?: unknown, beforeRetry = () => provider.reset()) => {
  const res = await studio.call(path, body, beforeRetry);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe("LangGraph Studio's local API (langgraphjs dev) serving the chat graph offline", () => {
  it("when the dev server is up, then /ok answers and the chat graph is registered as an assistant", async () => {
    expect(await api("/ok")).toEqual({ status: 200, body: { ok: true } });
    const { status, body } = await api("/assistants/search", { graph_id: "chat", limit: 10 });
    expect(status).toBe(200);
    const list = body as unknown as { assistant_id: string; graph_id: string }[];
    expect(list.map((a) => a.graph_id)).toContain("chat");
  });

  it("when a run carries options in its context and the key is in the server's environment, then the graph searches, answers with links and the key reaches the provider", async () => {
    const { body } = await api("/runs/wait", {
      assistant_id: "chat",
      input: { messages: [{ role: "user", content: QUESTION }] },
      context: { model: "gpt-4o-mini", theology: "reformed", profile: "mature_believer", maxWords: 120 },
    });
    const state = body as { content?: string; finishReason?: string; category?: string; messages?: unknown[] };
    expect(state.category).toBe("biblical_question");
    expect(state.finishReason).toBe("stop");
    expect(state.content).toContain("[John 3:16](/read/JHN/3?verse=16)");
    // The classifier and the agent's call (the prefetched tool turn already in it).
    expect(provider.chatRequests.length).toBeGreaterThanOrEqual(2);
    for (const call of provider.chatRequests) expect(call.headers.authorization).toBe(`Bearer ${KEY}`);
    const agent = provider.chatRequests.find((c) => c.body.tools)!;
    const system = agent.body.messages.filter((m) => m.role === "system").map(messageText).join("\n");
    const reformed = loadPrompts().theology("reformed")!.body.split("\n").find((l) => l.trim() && !l.includes("{{"))!.trim();
    expect(system).toContain(reformed);
    // The prefetched turn's first call is a semantic search of the question: its result came from the real index.
    const tool = provider.chatRequests.at(-1)!.body.messages.find((m) => m.role === "tool")!;
    expect(messageText(tool)).toMatch(/John 3/);
    // The key lives in the server's environment, never in the state Studio shows and checkpoints.
    expect(JSON.stringify(body)).not.toContain(KEY);
  }, 180_000);

  it("when a run's context carries a key, then the run is refused saying the key goes in the server's environment, nothing is sent upstream, and the server's stored runs hold no key", async () => {
    const contextKey = "sk-studio-context-4e1f0a";
    const thread = (await api("/threads", {})).body as { thread_id: string };
    const { body } = (await api(`/threads/${thread.thread_id}/runs/wait`, {
      assistant_id: "chat",
      input: { messages: [{ role: "user", content: QUESTION }] },
      context: { apiKey: contextKey, model: "gpt-4o-mini" },
    })) as { body: { __error__?: { message?: string } } };
    expect(body.__error__?.message).toContain("On a LangGraph server the provider key does not go in a run's context");
    expect(body.__error__?.message).toContain("STUDIO_API_KEY");
    expect(provider.chatRequests).toHaveLength(0);
    const runs = await studio.call(`/threads/${thread.thread_id}/runs`);
    expect(runs.status).toBe(200);
    const stored = await runs.text();
    expect(stored).toContain(thread.thread_id);
    expect(stored).not.toContain(contextKey);
  });

  it("when Studio asks for the chat assistant's schemas, then its input form is the messages alone and its context form offers the request's options with their choices and defaults", async () => {
    const { body } = await api("/assistants/search", { graph_id: "chat", limit: 1 });
    const [assistant] = body as unknown as { assistant_id: string }[];
    // A plain GET: the helper's JSON content type on a bodiless GET reads as a malformed body to this route.
    // From Studio's origin, as the hosted page asks: the answer must still carry the server's CORS headers.
    const res = await fetch(`${studio.url}/assistants/${assistant!.assistant_id}/schemas`, { headers: { origin: "https://smith.langchain.com" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeTruthy();
    const text = await res.text();
    const schemas = JSON.parse(text) as Record<string, unknown>;
    type Field = { type?: string; enum?: string[]; default?: unknown; description?: string };
    const props = (s: unknown) => (s as { properties?: Record<string, Field> } | undefined)?.properties ?? {};
    expect(Object.keys(props(schemas.input_schema))).toEqual(["messages"]);
    // The server (langgraph-api) answers no context schema for a StateSchema graph; studio-http.ts adds the graph's.
    const context = props(schemas.context_schema);
    expect(Object.keys(context).sort()).toEqual(["bibleId", "convertLinks", "maxWords", "model", "profile", "skipPreflight", "theology", "verifyQuotes"]);
    expect(schemas.config_schema).toEqual(schemas.context_schema);
    // Each default is the one a run that leaves the option out gets (the server's environment, the prompts, the contract).
    expect(context.model).toMatchObject({ type: "string", default: "gpt-4.1-mini" });
    expect(context.theology?.enum).toEqual(expect.arrayContaining(["default", "reformed", "catholic"]));
    expect(context.theology?.default).toBe(loadPrompts().defaultTheology.slug);
    expect(context.profile?.enum).toEqual(expect.arrayContaining(["universal_explorer", "new_believer", "scholar"]));
    expect(context.profile?.default).toBe(loadPrompts().defaultProfile.slug);
    expect(context.bibleId).toMatchObject({ default: "eng-web", enum: expect.arrayContaining(["eng-web", "eng-kjv"]) });
    expect(context.maxWords).toMatchObject({ type: "integer", default: 300 });
    expect(context).toMatchObject({ convertLinks: { default: true }, verifyQuotes: { default: true }, skipPreflight: { default: false } });
    expect(context.theology?.description).toMatch(/theology slug/);
    // No key field, and the server's key is nowhere in what the page receives.
    expect(Object.keys(context).map((k) => k.toLowerCase())).not.toContain("apikey");
    expect(text).not.toContain(KEY);
  });

  it("when the dev server has started, then it warned of no LangGraph.js dependency out of date", () => {
    // LOG_LEVEL=warn above (the server's level too) leaves its info lines out but keeps its warnings.
    expect(studio.output()).toContain("Studio UI:");
    expect(studio.output()).not.toMatch(/not up to date|langgraph-checkpoint/);
  });

  it("when the provider refuses the key, then the run reports the mapped error rather than an answer", async () => {
    const refuse = () => provider.on(match.any(), reply.error(401, { error: { message: "bad key", type: "invalid_request_error", code: "invalid_api_key" } }));
    refuse();
    const { body } = (await api("/runs/wait", {
      assistant_id: "chat",
      input: { messages: [{ role: "user", content: QUESTION }] },
      context: {},
    }, () => (provider.reset(), refuse()))) as { body: { __error__?: { message?: string } } };
    expect(body.__error__?.message).toMatch(/The default model provider rejected the API key \(HTTP 401\)/);
    expect(body.__error__?.message).not.toContain("127.0.0.1");
    expect(JSON.stringify(body)).not.toContain("[John 3:16]");
    expect(JSON.stringify(body)).not.toContain(KEY);
  });
});
