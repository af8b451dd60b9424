import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { RunnableLambda } from "@langchain/core/runnables";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { Annotation, END, getConfig, START, StateGraph } from "@langchain/langgraph";
import { RunTree } from "langsmith";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { installLeanRunContext } from "../../graphs/chat/run-context.js";

/**
 * installLeanRunContext (graphs/chat/run-context.ts): while nothing traces, a runnable's config rides
 * on a plain object instead of a LangSmith RunTree; everything that reads the config from there still
 * finds it, and as soon as a callback handler or tracing is on, LangChain's own RunTree comes back.
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

  it("when installed twice, then it wraps LangChain's method once", () => {
    const before = AsyncLocalStorageProviderSingleton.runWithConfig;
    installLeanRunContext();
    expect(AsyncLocalStorageProviderSingleton.runWithConfig).toBe(before);
  });
});
