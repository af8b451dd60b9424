import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MetricsRecorder } from "../../src/metrics.js";
import { match, reply } from "../fakes/index.js";
import { startHarness, type Harness } from "./harness.js";

const seen: string[] = [];
const tokens: { prompt_tokens?: number; completion_tokens?: number }[] = [];
const recorder: MetricsRecorder = {
  providerCall: (purpose, outcome, seconds) => {
    expect(seconds).toBeGreaterThanOrEqual(0);
    seen.push(`call:${purpose}:${outcome}`);
  },
  preflight: (category) => seen.push(`preflight:${category}`),
  tokens: (usage) => tokens.push(usage),
  search: () => {},
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ metrics: recorder, providerTimeoutMs: 1_500 });
});
afterAll(() => h.close());
beforeEach(() => {
  h.provider.reset();
  seen.length = 0;
  tokens.length = 0;
});

describe("metrics the graph records", () => {
  it("when rules settle preflight, then the category is counted and no provider call", async () => {
    await h.run("Hello!");
    expect(seen).toEqual(["preflight:greeting"]);
  });

  it("when the classifier and the agent answer, then both calls and their tokens are recorded", async () => {
    h.provider.on(match.structured(), reply.json({ category: "biblical_question" }));
    h.provider.on(match.agent(), reply.text("Yes.", { usage: { prompt_tokens: 40, completion_tokens: 2 } }));
    const out = await h.run("Is prayer talked about in the Psalms?");
    expect(seen).toEqual(["call:preflight:ok", "preflight:biblical_question", "call:agent:ok"]);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toEqual({ prompt_tokens: 40, completion_tokens: 2 });
    expect(out.usage.prompt_tokens).toBe((tokens[0]!.prompt_tokens ?? 0) + 40);
  });

  it("when preflight is skipped, then it is counted as skipped", async () => {
    h.provider.on(match.agent(), reply.text("Yes."));
    await h.run("Is prayer talked about in the Psalms?", { skipPreflight: true });
    expect(seen).toEqual(["preflight:skipped", "call:agent:ok"]);
  });

  it.each([
    [401, "auth_error"],
    [429, "rate_limited"],
    [500, "error"],
  ] as const)("when the provider answers %i, then the call outcome is %s", async (status, outcome) => {
    h.provider.on(match.structured(), reply.error(status));
    await expect(h.run("Is prayer talked about in the Psalms?")).rejects.toBeTruthy();
    // The agent's first call, started beside the classifier (PREFLIGHT_MODE=parallel), is closed unused.
    expect(seen).toEqual([`call:preflight:${outcome}`, "call:agent:aborted"]);
  });

  it("when the provider times out, then the outcome is timeout", async () => {
    h.provider.on(match.agent(), reply.hang());
    await expect(h.run("Is prayer talked about in the Psalms?", { skipPreflight: true })).rejects.toMatchObject({ code: "upstream_timeout" });
    expect(seen).toEqual(["preflight:skipped", "call:agent:timeout"]);
  });
});
