import { CallbackManager } from "@langchain/core/callbacks/manager";
import type { RunnableConfig } from "@langchain/core/runnables";
import { _CONTEXT_VARIABLES_KEY, AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

/**
 * LangChain runs every runnable (each graph node, its channel write, each edge's router) inside
 * `AsyncLocalStorageProviderSingleton.runWithConfig`, which stores the runnable's config where nested
 * code finds it (LangGraph's getConfig, the writer, interrupts). With no tracer, the store is a fresh
 * LangSmith `RunTree` (tracing disabled) built only to carry that config: a uuid7 from the crypto
 * source, a timestamp string, some thirty properties and environment reads, at every runnable call,
 * about twenty times a chat request (7 % of the service's CPU in session 7's profile,
 * docs/performance.md).
 *
 * installLeanRunContext keeps LangChain's method and changes one thing: when nothing would trace (no
 * callback handler at all, and no LangSmith tracing variable set), the config rides on a plain object
 * shaped like that RunTree's carrying fields (`extra` holding the config, `tracingEnabled: false`, the
 * context variables). Whenever a callback manager exists (a tracer, Studio's handlers, verbose mode) or
 * tracing is switched on, LangChain's own method runs unchanged: LangChain's `_configureSync`, asked at
 * every call, builds a manager whenever a tracing variable is set (it reads them itself, so a second
 * reading here only cost four `process.env` lookups a call, 0.5 % of the main thread under load:
 * docs/performance.md, session 23). Installed once per process; a process may switch tracing on and off
 * (the tracing tests do).
 *
 * A run may go further and say its code reads its config only from its arguments
 * (`NO_AMBIENT_CONFIG: true` in its `configurable`, as runChat's runs do): then, while nothing traces
 * and no store is current, the config is stored nowhere and the callback simply runs. Node's
 * AsyncLocalStorage is then never entered, so Node never switches on the async hooks it needs, which
 * otherwise run at every promise the process makes, a chat's and everything beside it: 7-16 % of the
 * service's CPU a chat, measured in place (docs/performance.md, session 20). In such a run LangGraph's
 * `getConfig()`, `getWriter()` and `interrupt()` find nothing, and a runnable called without a config
 * does not inherit the node's: the chat graph's nodes take their config as their second argument and
 * pass it on (test/graph/run-context.test.ts holds them to that).
 */

/** In a run's `configurable`: its code reads its config only from its arguments (above). */
export const NO_AMBIENT_CONFIG = Symbol.for("biblical-chat:no-ambient-config");

/** The key LangChain stores a runnable's config under in the run tree's `extra` (@langchain/core singletons). */
const LC_CHILD_KEY = Symbol.for("lc:child_config");

type RunWithConfig = (config: RunnableConfig | undefined, callback: () => unknown, avoidCreatingRootRunTree?: boolean) => unknown;

const INSTALLED = Symbol.for("biblical-chat:lean-run-context");

export function installLeanRunContext(): void {
  const provider = AsyncLocalStorageProviderSingleton as unknown as { runWithConfig: RunWithConfig; [INSTALLED]?: true };
  if (provider[INSTALLED]) return;
  const original: RunWithConfig = provider.runWithConfig.bind(provider);
  provider.runWithConfig = function runWithConfig(config, callback, avoidCreatingRootRunTree) {
    const manager = CallbackManager._configureSync(config?.callbacks, undefined, config?.tags, undefined, config?.metadata);
    if (manager !== undefined) return original(config, callback, avoidCreatingRootRunTree);
    const storage = AsyncLocalStorageProviderSingleton.getInstance();
    const previous = storage.getStore() as Record<symbol, unknown> | undefined;
    if (previous === undefined && (config?.configurable as Record<symbol, unknown> | undefined)?.[NO_AMBIENT_CONFIG] === true) return callback();
    // LangChain's stream wrapper asks for no run tree: its own method then stores what the caller had.
    if (avoidCreatingRootRunTree) return original(config, callback, avoidCreatingRootRunTree);
    const carrier: Record<string | symbol, unknown> = { name: "<runnable_lambda>", tracingEnabled: false, extra: { [LC_CHILD_KEY]: config } };
    if (previous?.[_CONTEXT_VARIABLES_KEY] !== undefined) carrier[_CONTEXT_VARIABLES_KEY] = previous[_CONTEXT_VARIABLES_KEY];
    return storage.run(carrier, callback);
  };
  provider[INSTALLED] = true;
}
