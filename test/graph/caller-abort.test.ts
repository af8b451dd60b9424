import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import { startHarness, type Harness } from "./harness.js";

// The service reads the run's own iterator (runtime.ts), without graph.stream's wrapper, which raced
// every step against the caller's signal: a caller's abort must still end the run at once, not when
// the provider gives up.
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ providerTimeoutMs: 20_000 });
});
afterAll(() => h.close());

const QUESTION = "What does the Bible teach about patience?";

describe("a caller who leaves", () => {
  for (const [where, matcher] of [
    ["the classifier", match.preflight()],
    ["the agent", match.agent()],
  ] as const) {
    it(`when the caller aborts while ${where} hangs, then the run fails at once and the provider call is aborted`, async () => {
      h.provider.reset();
      h.provider.on(matcher, reply.hang());
      const ctl = new AbortController();
      const reason = new Error("the caller left");
      const run = h.run(QUESTION, {}, { signal: ctl.signal });
      await h.provider.waitFor((p) => p.chatRequests.some((r) => matcher(r)), 5_000);
      const aborted = Date.now();
      ctl.abort(reason);
      // (The harness maps what the run throws as the HTTP edge does; the run throws the signal's reason.)
      await expect(run).rejects.toThrow();
      expect(Date.now() - aborted).toBeLessThan(2_000);
      await h.provider.waitFor((p) => p.stats.abortedRequests >= 1, 5_000);
    });
  }
});
