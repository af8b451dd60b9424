import { afterEach, describe, expect, it } from "vitest";
import { resolveContext } from "../../graphs/chat/configuration.js";
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

  it("when the run's context carries a key, then it wins over STUDIO_API_KEY", () => {
    process.env.STUDIO_API_KEY = "sk-from-dotenv-2";
    expect(resolveContext({ context: { apiKey: "sk-from-context" } }, studioRuntime().deps).apiKey).toBe("sk-from-context");
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
