import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkApiKey, DEFAULT_API_KEY_PREFIXES, type ApiKeyRule } from "../../graphs/chat/contract.js";
import { ConfigError, loadConfig } from "../../src/config.js";
import { startService, type RunningService } from "../helpers/service.js";

describe("the API key rule (graphs/chat/contract.ts)", () => {
  it.each([
    [DEFAULT_API_KEY_PREFIXES, "sk-abc", "ok"],
    [DEFAULT_API_KEY_PREFIXES, "sk-", "invalid_api_key"],
    [DEFAULT_API_KEY_PREFIXES, "gsk_abc", "invalid_api_key"],
    [DEFAULT_API_KEY_PREFIXES, "", "missing_api_key"],
    [["sk-", "gsk_"], "gsk_abc", "ok"],
    [["sk-", "gsk_"], "sk-abc", "ok"],
    [["sk-", "gsk_"], "gsk_", "invalid_api_key"],
    [["sk-", "gsk_"], "xai-abc", "invalid_api_key"],
    ["any", "anything-at-all", "ok"],
    ["any", "x", "ok"],
    ["any", undefined, "missing_api_key"],
  ] as [ApiKeyRule, string | undefined, string][])("when the rule is %j and the key %j, then %s", (rule, key, outcome) => {
    if (outcome === "ok") expect(checkApiKey(key, rule)).toBe(key);
    else expect(() => checkApiKey(key, rule)).toThrow(expect.objectContaining({ code: outcome }));
  });

  it("when a key is refused under a list, then the message names the accepted prefixes and never the key", () => {
    expect(() => checkApiKey("xai-secret-77", ["sk-", "gsk_"])).toThrow("keys start with one of 'sk-', 'gsk_'");
    try {
      checkApiKey("xai-secret-77", ["sk-", "gsk_"]);
    } catch (e) {
      expect((e as Error).message).not.toContain("secret-77");
    }
  });
});

describe("API_KEY_PREFIXES (src/config.ts)", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["*", "any"],
    [" * ", "any"],
    ["sk-", ["sk-"]],
    ["sk-, gsk_ ,sk-or-", ["sk-", "gsk_", "sk-or-"]],
  ])("when it is %j, then the rule is %j", (value, expected) => {
    expect(loadConfig(value === undefined ? {} : { API_KEY_PREFIXES: value }).apiKeyPrefixes).toEqual(expected);
  });

  it.each(["sk-,,gsk_", "sk-,", "sk- gsk_"])("when it is %j, then start-up stops with a message naming the variable", (value) => {
    expect(() => loadConfig({ API_KEY_PREFIXES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ API_KEY_PREFIXES: value })).toThrow(/API_KEY_PREFIXES/);
  });
});

describe("when the service runs with API_KEY_PREFIXES", () => {
  const ask = (svc: RunningService, key: string) =>
    fetch(`${svc.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "Who was Ruth?" }] }),
    });

  let listed: RunningService;
  let any: RunningService;
  beforeAll(async () => {
    listed = await startService({ env: { API_KEY_PREFIXES: "gsk_,sk-or-" } });
    any = await startService({ env: { API_KEY_PREFIXES: "*" } });
  });
  afterAll(async () => {
    await listed?.close();
    await any?.close();
  });

  it("then a key with a listed prefix reaches the provider unchanged, and one outside the list (sk- included) is 401", async () => {
    const ok = await ask(listed, "gsk_test_prefix_1a2b");
    expect(ok.status).toBe(200);
    expect(listed.provider.chatRequests.at(-1)?.headers.authorization).toBe("Bearer gsk_test_prefix_1a2b");
    const before = listed.provider.chatRequests.length;
    for (const key of ["sk-test-not-listed-9f", "xai-test-3c"]) {
      const res = await ask(listed, key);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toMatchObject({ code: "invalid_api_key", message: expect.stringContaining("'gsk_', 'sk-or-'") });
    }
    expect(listed.provider.chatRequests.length).toBe(before); // refused before the provider is asked
  });

  it("then with * any non-empty key reaches the provider, and a missing key is still 401 missing_api_key", async () => {
    expect((await ask(any, "local-test-key")).status).toBe(200);
    expect(any.provider.chatRequests.at(-1)?.headers.authorization).toBe("Bearer local-test-key");
    const missing = await fetch(`${any.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(missing.status).toBe(401);
    expect((await missing.json()).error.code).toBe("missing_api_key");
  });
});
