import { APIConnectionError, APIConnectionTimeoutError } from "openai";
import { describe, expect, it } from "vitest";
import { toProviderError } from "../../graphs/chat/provider-errors.js";

const call = { provider: "api.example.org", model: "gpt-4o-mini", timeoutMs: 500 };

describe("provider errors from the openai SDK", () => {
  it("when the SDK's own timer ends the call (its error is named plain 'Error'), then it is a timeout, not a broken provider", () => {
    const err = new APIConnectionTimeoutError();
    expect(err.name).toBe("Error");
    expect(toProviderError(err, call).code).toBe("upstream_timeout");
  });

  it("when the connection fails otherwise, then it is an upstream error", () => {
    expect(toProviderError(new APIConnectionError({ message: "socket hang up" }), call).code).toBe("upstream_error");
  });
});
