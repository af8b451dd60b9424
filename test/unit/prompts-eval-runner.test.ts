import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatGrounding, runScenarios, type ScenarioResult } from "../../evals/answers/runner.js";
import type { Scenario } from "../../evals/answers/scenario.js";
import { findReferences } from "../../src/scripture/references.js";
import { match, reply, startFakeProvider, type FakeProvider } from "../fakes/index.js";

const scenario = (id: string, question: string, extra: Partial<Scenario> = {}): Scenario => ({
  id,
  file: "test",
  question,
  theology: "reformed",
  profile: "scholar",
  max_words: 50,
  language: "en",
  min_citations: 1,
  must_include: [],
  must_not_include: [],
  ...extra,
});

// The runner only speaks the chat-completions wire format, so the fake provider can stand where the service would.
describe("eval runner plumbing", () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await startFakeProvider();
  });
  afterAll(async () => {
    await provider.close();
  });

  it("when scenarios run, then each request carries the key and the service's extra fields, and answers are judged", async () => {
    provider.on(match.lastUser("grace"), reply.text("Grace is God's gift, as Ephesians 2:8 says."));
    provider.on(match.lastUser("broken"), reply.error(502, { error: { message: "upstream down", type: "server_error", code: "upstream_error" }, headers: { "retry-after-ms": "1" } }));
    provider.on(match.lastUser("invented"), reply.text("Read John 22:5 for this."));
    provider.on(match.lastUser("goodbye"), reply.text("Before you go: you matter, and 988 is there tonight (Psalm 34:18)."));
    const seen: string[] = [];
    const results = await runScenarios({
      baseURL: provider.baseURL,
      apiKey: "sk-eval-test",
      model: "gpt-4o-mini",
      scenarios: [
        scenario("ok", "What is grace?", { bible_id: "eng-kjv" }),
        scenario("down", "broken question"),
        scenario("made-up", "invented citation please"),
        scenario("farewell", "thanks, goodbye", { history: [{ role: "user", content: "I don't want to live anymore" }, { role: "assistant", content: "I'm so sorry. Please call 988." }] }),
      ],
      findReferences,
      concurrency: 2,
      onResult: (r) => seen.push(r.scenario.id),
    });

    expect(results.map((r) => r.scenario.id)).toEqual(["ok", "down", "made-up", "farewell"]);
    expect(seen.sort()).toEqual(["down", "farewell", "made-up", "ok"]);
    expect(results[0]?.report).toMatchObject({ pass: true, citations: 1, words: 8 });
    expect(results[1]?.error).toMatch(/^502 /);
    expect(results[2]?.report?.failures).toContain("unresolvable reference(s): John 22:5");

    const sent = provider.chatRequests.find((r) => r.body.messages.some((m) => m.content === "What is grace?"));
    expect(sent?.headers.authorization).toBe("Bearer sk-eval-test");
    expect(sent?.body).toMatchObject({ model: "gpt-4o-mini", theology: "reformed", profile: "scholar", max_words: 50, bible_id: "eng-kjv" });

    // A scenario's history goes first, oldest first, and the question is the last user message.
    const farewell = provider.chatRequests.find((r) => r.body.messages.at(-1)?.content === "thanks, goodbye");
    expect(farewell?.body.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "I don't want to live anymore"],
      ["assistant", "I'm so sorry. Please call 988."],
      ["user", "thanks, goodbye"],
    ]);
    expect(results[3]?.report?.pass).toBe(true);
  });
});

describe("eval grounding summary", () => {
  it("when answers carry citations, then the corrected share is reported per theology and model", () => {
    const result = (theology: string, model: string, verified: number, corrected: number): ScenarioResult => ({
      scenario: scenario(`${theology}-${model}`, "q", { theology }),
      model,
      quotes: { verified, corrected },
      ms: 1,
    });
    const table = formatGrounding([
      result("reformed", "gpt-4o-mini", 1, 1),
      result("reformed", "gpt-4o-mini", 2, 0),
      result("catholic", "gpt-4o", 0, 1),
      { scenario: scenario("down", "q"), error: "502", ms: 1 },
    ]);
    const rows = table.split("\n").map((line) => line.split(/\s+/));
    expect(rows).toContainEqual(["reformed", "gpt-4o-mini", "2", "4", "1", "25%"]);
    expect(rows).toContainEqual(["catholic", "gpt-4o", "1", "1", "1", "100%"]);
    expect(rows).toContainEqual(["all", "3", "5", "2", "40%"]);
  });
});
