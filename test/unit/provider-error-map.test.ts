import { APIConnectionError, APIConnectionTimeoutError } from "openai";
import { describe, expect, it } from "vitest";
import { summary, toProviderError } from "../../graphs/chat/provider-errors.js";

const call = { provider: "openrouter", model: "gpt-4o-mini", timeoutMs: 500 };

describe("provider errors from the openai SDK", () => {
  it("when the SDK's own timer ends the call (its error is named plain 'Error'), then it is a timeout, not a broken provider", () => {
    const err = new APIConnectionTimeoutError();
    expect(err.name).toBe("Error");
    expect(toProviderError(err, call).code).toBe("upstream_timeout");
  });

  it("when any provider call fails, then the message names the provider as configured and the error carries that name", () => {
    const statuses = [401, 403, 404, 429, 400, 500, 503];
    for (const status of statuses) {
      const err = toProviderError(Object.assign(new Error("Incorrect API key provided: sk-abc at http://10.0.0.7:8443/v1"), { status }), call);
      expect(err.message).toMatch(/^The model provider "openrouter" /);
      expect(err.message).not.toMatch(/10\.0\.0\.7|8443|sk-abc/);
      expect(err.provider).toBe("openrouter");
    }
    expect(toProviderError(new APIConnectionTimeoutError(), { ...call, provider: "default" }).message).toBe("The default model provider did not respond within 500 ms.");
  });

  it("when the connection fails otherwise, then it is an upstream error", () => {
    expect(toProviderError(new APIConnectionError({ message: "socket hang up" }), call).code).toBe("upstream_error");
  });

  it("when the log summarises a failed connection, then it names the SDK's error class and the socket's code under it", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(summary(new APIConnectionError({ message: "Connection error.", cause: reset }))).toEqual({ name: "APIConnectionError", code: "ECONNRESET", causes: ["Error ECONNRESET"] });
    const keyInMessage = new Error("Incorrect API key provided: sk-abc123", { cause: new SyntaxError("sk-abc123 is not JSON") });
    expect(JSON.stringify(summary(new Error("wrapped sk-abc123", { cause: keyInMessage })))).not.toContain("sk-abc");
    expect(summary(new Error("wrapped", { cause: keyInMessage })).causes).toEqual(["Error", "SyntaxError"]);
    expect(summary(new APIConnectionTimeoutError())).toEqual({ name: "APIConnectionTimeoutError" });
    expect(summary(new Error("plain"))).toEqual({ name: "Error" });
    expect(summary(Object.assign(new TypeError("x"), { code: "bad code with spaces" }))).toEqual({ name: "TypeError" });
    expect(summary(undefined)).toEqual({ name: "Object" });
  });
});
