import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { RunnableLambda } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { Annotation, END, getConfig, START, StateGraph } from "@langchain/langgraph";
import { RunTree } from "langsmith";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { installLeanRunContext, NO_AMBIENT_CONFIG } from "../../graphs/chat/run-context.js";
import { startHarness, toolResults, type Harness } from "./harness.js";

/**
 * installLeanRunContext (graphs/chat/run-context.ts): while nothing traces, a runnable's config rides
 * on a plain object instead of a LangSmith RunTree; everything that reads the config from there still
 * finds it, and as soon as a callback handler or tracing is on, LangChain's own RunTree comes back.
 * A run that says its code reads its config only from its arguments (the chat runtime's) stores it
 * nowhere, so Node's AsyncLocalStorage, and the async hooks it switches on, are never entered.
 */

const State = Annotation.Root({ seen: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }) });

/** A graph whose node reads its config the ways LangGraph nodes and nested runnables do, and what carries it. */
function probeGraph() {
  const nested = RunnableLambda.from(async () => String((getConfig().configurable as { probe?: unknown } | undefined)?.probe));
  return new StateGraph(State)
    .addNode("probe", async () => {
      const store = AsyncLocalStorageProviderSingleton.getInstance().getStore() as unknown;
      const fromGetConfig = String((getConfig().configurable as { probe?: unknown } | undefined)?.probe);
      // A runnable called without a config inherits the node's from the store.
      const fromNested = await nested.invoke(undefined);
      return { seen: [store instanceof RunTree ? "RunTree" : "plain", fromGetConfig, fromNested] };
    })
    .addEdge(START, "probe")
    .addEdge("probe", END)
    .compile();
}

/** A graph whose node reads its config from its argument and hands it to a nested runnable, as the chat graph's nodes do. */
function argumentGraph() {
  const nested = RunnableLambda.from(async (_: unknown, config) => String((config?.configurable as { probe?: unknown } | undefined)?.probe));
  return new StateGraph(State)
    .addNode("probe", async (_state, config) => {
      const store = AsyncLocalStorageProviderSingleton.getInstance().getStore() as unknown;
      const fromArgument = String((config.configurable as { probe?: unknown } | undefined)?.probe);
      const fromNested = await nested.invoke(undefined, { configurable: config.configurable });
      return { seen: [store === undefined ? "nothing stored" : "stored", fromArgument, fromNested] };
    })
    .addEdge(START, "probe")
    .addEdge("probe", END)
    .compile();
}

/** Counts the times LangChain's AsyncLocalStorage is entered (run or enterWith) while `fn` runs. */
async function entriesDuring(fn: () => Promise<void>): Promise<number> {
  const storage = AsyncLocalStorageProviderSingleton.getInstance() as unknown as { run: () => unknown; enterWith: () => unknown };
  const run = vi.spyOn(storage, "run");
  const enterWith = vi.spyOn(storage, "enterWith");
  try {
    await fn();
    return run.mock.calls.length + enterWith.mock.calls.length;
  } finally {
    run.mockRestore();
    enterWith.mockRestore();
  }
}

class Recorder extends BaseCallbackHandler {
  name = "recorder";
  chains = 0;
  override handleChainStart() {
    this.chains++;
  }
}

const saved = process.env.LANGSMITH_TRACING;
beforeAll(() => installLeanRunContext());
afterEach(() => {
  if (saved === undefined) delete process.env.LANGSMITH_TRACING;
  else process.env.LANGSMITH_TRACING = saved;
});

describe("the lean run context", () => {
  it("when nothing traces, then the config rides on a plain object and getConfig and nested runnables still read it", async () => {
    delete process.env.LANGSMITH_TRACING;
    const out = await probeGraph().invoke({ seen: [] }, { configurable: { probe: "p-1" } });
    expect(out.seen).toEqual(["plain", "p-1", "p-1"]);
  });

  it("when a callback handler is given, then LangChain's RunTree carries the config and the handler sees the runs", async () => {
    delete process.env.LANGSMITH_TRACING;
    const recorder = new Recorder();
    const out = await probeGraph().invoke({ seen: [] }, { configurable: { probe: "p-2" }, callbacks: [recorder] });
    expect(out.seen).toEqual(["RunTree", "p-2", "p-2"]);
    expect(recorder.chains).toBeGreaterThan(0);
  });

  it("when a run says its code reads its config from its arguments, then the config is stored nowhere and the store is never entered", async () => {
    delete process.env.LANGSMITH_TRACING;
    let out: { seen: string[] } | undefined;
    const entries = await entriesDuring(async () => {
      out = await argumentGraph().invoke({ seen: [] }, { configurable: { probe: "p-3", [NO_AMBIENT_CONFIG]: true } });
    });
    expect(out?.seen).toEqual(["nothing stored", "p-3", "p-3"]);
    expect(entries).toBe(0);
  });

  it("when the same run is not marked, then its config is stored as before", async () => {
    delete process.env.LANGSMITH_TRACING;
    let out: { seen: string[] } | undefined;
    const entries = await entriesDuring(async () => {
      out = await argumentGraph().invoke({ seen: [] }, { configurable: { probe: "p-4" } });
    });
    expect(out?.seen).toEqual(["stored", "p-4", "p-4"]);
    expect(entries).toBeGreaterThan(0);
  });

  it("when a marked run has a callback handler, then LangChain's RunTree carries its config and the handler sees the runs", async () => {
    delete process.env.LANGSMITH_TRACING;
    const recorder = new Recorder();
    const out = await probeGraph().invoke({ seen: [] }, { configurable: { probe: "p-5", [NO_AMBIENT_CONFIG]: true }, callbacks: [recorder] });
    expect(out.seen).toEqual(["RunTree", "p-5", "p-5"]);
    expect(recorder.chains).toBeGreaterThan(0);
  });

  it("when installed twice, then it wraps LangChain's method once", () => {
    const before = AsyncLocalStorageProviderSingleton.runWithConfig;
    installLeanRunContext();
    expect(AsyncLocalStorageProviderSingleton.runWithConfig).toBe(before);
  });
});

describe("the chat runtime's runs", () => {
  let h: Harness;
  beforeAll(async () => {
    delete process.env.LANGSMITH_TRACING;
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("when a chat runs the preflight, a tool turn and the answer, streamed or not, then LangChain's store is never entered and the answer holds the tool's result", async () => {
    for (const stream of [true, false]) {
      h.provider.reset();
      h.scriptToolTurn("lookup_passage", { reference: "John 3:16" }, "John 3:16 shows the gift.");
      let out: Awaited<ReturnType<Harness["run"]>> | undefined;
      const entries = await entriesDuring(async () => {
        out = await h.run("What does John 3:16 teach about God's love?", {}, { stream });
      });
      expect(entries).toBe(0);
      expect(out).toMatchObject({ kind: "answer" });
      expect(out?.content).toContain("John 3:16");
      expect(toolResults(h.agentCalls().at(-1)!).join("\n")).toContain("For God so loved the world");
    }
  });
});
