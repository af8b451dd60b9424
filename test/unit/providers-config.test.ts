import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { modelFields } from "../../graphs/chat/contract.js";
import { providersFrom } from "../../graphs/chat/runtime.js";

const env = (extra: Record<string, string>) => ({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1", ...extra });

describe("named providers from configuration", () => {
  it("when PROVIDER_<NAME>_* are set, then each becomes a provider named in lower case with its models, classifier model and key shapes", () => {
    const config = loadConfig(
      env({
        PROVIDER_GROQ_BASE_URL: "https://api.groq.com/openai/v1/",
        PROVIDER_GROQ_MODELS: "llama-3.3-70b-versatile, llama-3.1-8b-instant",
        PROVIDER_GROQ_PREFLIGHT_MODEL: "llama-3.1-8b-instant",
        PROVIDER_GROQ_KEY_PREFIXES: "gsk_",
        PROVIDER_OLLAMA_BASE_URL: "http://localhost:11434/v1",
        PROVIDER_OLLAMA_KEY_PREFIXES: "*",
        PROVIDER_TIMEOUT_MS: "5000",
      }),
    );
    expect(config.provider.timeoutMs).toBe(5000);
    expect(config.providers).toEqual([
      { name: "groq", baseURL: "https://api.groq.com/openai/v1", models: ["llama-3.3-70b-versatile", "llama-3.1-8b-instant"], preflightModel: "llama-3.1-8b-instant", keyPrefixes: ["gsk_"] },
      { name: "ollama", baseURL: "http://localhost:11434/v1", models: [], preflightModel: undefined, keyPrefixes: "any" },
    ]);
  });

  it.each([
    [{ PROVIDER_ALT_MODELS: "a" }, "PROVIDER_ALT_BASE_URL"],
    [{ PROVIDER_ALT_BASE_URL: "ftp://example.org/v1" }, "PROVIDER_ALT_BASE_URL"],
    [{ PROVIDER_ALT_BASE_URL: "https://example.org/v1", PROVIDER_ALT_KEY_PREFIXES: "sk-, ,x" }, "PROVIDER_ALT_KEY_PREFIXES"],
    [{ PROVIDER_DEFAULT_BASE_URL: "https://example.org/v1" }, "PROVIDER_DEFAULT_"],
  ])("when a provider is misconfigured (%j), then start-up fails naming the variable", (extra, variable) => {
    expect(() => loadConfig(env(extra))).toThrow(ConfigError);
    expect(() => loadConfig(env(extra))).toThrow(variable);
  });

  it("when a model name is routed, then only a configured prefix picks a named provider and the rest goes whole to the default", () => {
    const config = loadConfig(env({ PROVIDER_ALT_BASE_URL: "https://alt.example/v1", PROVIDER_ALT_PREFLIGHT_MODEL: "tiny" }));
    const catalog = { providers: providersFrom(config) };
    expect(modelFields("alt/big-model", "gpt-4o-mini", catalog)).toEqual({ model: "alt/big-model", preflightModel: "tiny", provider: { name: "alt", model: "big-model" } });
    expect(modelFields("alt/org/model", "gpt-4o-mini", catalog).provider).toEqual({ name: "alt", model: "org/model" });
    for (const whole of ["openai/gpt-4o", "gpt-4o", "alt/", "/alt", "ALT/x"]) {
      expect(modelFields(whole, "gpt-4o-mini", catalog)).toEqual({ model: whole, preflightModel: "gpt-4o-mini" });
    }
  });
});
