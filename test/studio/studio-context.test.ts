import { afterEach, describe, expect, it } from "vitest";
import { refuseContextKey, resolveContext } from "../../graphs/chat/configuration.js";
import { studioRuntime } from "../../graphs/chat/studio.js";
import { loadConfig } from "../../src/config.js";

const saved = process.env.STUDIO_API_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.STUDIO_API_KEY;
  else process.env.STUDIO_API_KEY = saved;
});

describe("Studio run context", () => {
  it("when STUDIO_API_KEY is set (e.g. from .env) and the run's context has no key, then the Studio deps supply it", () => {
    process.env.STUDIO_API_KEY = "sk-from-dotenv-1";
    const deps = studioRuntime().deps;
    expect(resolveContext({ context: { model: "gpt-4o" } }, deps)).toMatchObject({ apiKey: "sk-from-dotenv-1", model: "gpt-4o" });
  });

  it("when a LangGraph server's run carries a key in its context, then it is refused with where the key goes, and removed from the context", () => {
    process.env.STUDIO_API_KEY = "sk-from-dotenv-2";
    const context: Record<string, unknown> = { apiKey: "sk-from-context", model: "gpt-4o" };
    expect(() => refuseContextKey({ context }, studioRuntime().deps)).toThrow(/does not go in a run's context.*STUDIO_API_KEY in the server's environment/);
    expect(context).toEqual({ model: "gpt-4o" });
  });

  it("when the HTTP service (not a LangGraph server) runs the graph, then the key travels in the context as before", () => {
    const context = { apiKey: "sk-from-caller" };
    expect(() => refuseContextKey({ context }, { keyFromEnvironment: undefined })).not.toThrow();
    expect(context.apiKey).toBe("sk-from-caller");
  });

  it("when neither is set, then the key is empty and options take the service defaults", () => {
    delete process.env.STUDIO_API_KEY;
    const ctx = resolveContext({}, studioRuntime().deps);
    expect(ctx).toMatchObject({ apiKey: "", theology: "default", profile: "universal_explorer", bibleId: "eng-web", maxWords: 300, convertLinks: true });
  });

  it("when Studio sends slugs in another case, then every node reads the canonical slugs", () => {
    const ctx = resolveContext({ context: { theology: "Reformed", profile: "Deep_Study" } }, studioRuntime().deps);
    expect(ctx).toMatchObject({ theology: "reformed", profile: "deep_study" });
    expect(resolveContext({ context: { theology: "Gnostic" } }, studioRuntime().deps).theology).toBe("Gnostic");
  });

  it("when the configuration is loaded, then STUDIO_API_KEY becomes studioApiKey and is absent by default", () => {
    expect(loadConfig({ STUDIO_API_KEY: "sk-x" }).studioApiKey).toBe("sk-x");
    expect(loadConfig({}).studioApiKey).toBeUndefined();
  });
});
