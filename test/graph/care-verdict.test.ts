import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isDistress, needsCare } from "../../graphs/chat/preflight-rules.js";
import { match, messageText, reply, type ChatRequest } from "../fakes/index.js";
import { startHarness, type Harness } from "./harness.js";

/**
 * Issue 28: the classifier model judges care too. A message no rule reads as distress, which the fake
 * classifier gives a care verdict: the answer comes from a request with the care note, in both preflight
 * modes, streamed and not; in parallel mode the speculative call made without the note is closed at the
 * verdict and its cost counted.
 */
let parallel: Harness;
let sequential: Harness;
beforeAll(async () => {
  [parallel, sequential] = await Promise.all([startHarness(), startHarness({ preflightMode: "sequential" })]);
});
afterAll(() => Promise.all([parallel.close(), sequential.close()]));
beforeEach(() => {
  parallel.provider.reset();
  sequential.provider.reset();
});

/** Written so that no rule reads it (checked below): only a model reading meaning finds the person in it. */
const UNREAD = "The quiet in this flat is so loud lately, and I keep standing at the top of the stairwell for a long time.";
const CARE_NOTE = "This message needs care first";
const CARED = "I'm really glad you wrote. Please call 988 now, or your local emergency number. Psalm 34:18 says the Lord is close to the broken-hearted.";
const UNCARED = "Stairwells in the Bible: Jacob saw a ladder reaching to heaven in Genesis 28:12.";
const SLOW = 300;

const hasCareNote = (r: ChatRequest) => messageText(r.body.messages[0]!).includes(CARE_NOTE);
const classifierCall = (h: Harness) => h.provider.chatRequests.find((r) => r.body.response_format !== undefined)!;

/** The classifier (slow) says biblical_question with `care`; the agent streams slowly, and answers by whether its prompt carries the care note. */
function script(h: Harness, verdict: Record<string, unknown>) {
  h.provider.on(match.structured(), reply.json(verdict, { delayMs: SLOW }));
  h.provider.on(match.all(match.agent(), match.system(CARE_NOTE)), reply.text(CARED, { chunkDelayMs: 20 }));
  h.provider.on(match.agent(), reply.text(UNCARED, { chunkDelayMs: 60 }));
}

describe("the classifier's care verdict", () => {
  it("the message under test is one no rule reads", () => {
    expect(isDistress(UNREAD)).toBe(false);
    expect(needsCare([UNREAD])).toBe(false);
  });

  describe.each([
    ["parallel", () => parallel],
    ["sequential", () => sequential],
  ] as const)("%s preflight", (mode, get) => {
    it.each([true, false])("when the classifier says danger for a message no rule reads (stream=%s), then the answer comes from a request with the care note", async (stream) => {
      const h = get();
      script(h, { category: "biblical_question", care: "danger" });
      const deltas: string[] = [];
      const out = await h.run(UNREAD, {}, { stream, deltas });
      expect(out).toMatchObject({ kind: "answer", content: CARED });
      if (stream) expect(deltas.join("")).toBe(CARED);
      else expect(deltas).toEqual([]);
      const calls = h.agentCalls();
      // The request whose answer the caller got carried the care note.
      expect(hasCareNote(calls.at(-1)!)).toBe(true);
      if (mode === "parallel") {
        // The speculative call, made before the verdict with the rules' decision (no care), was closed by it.
        expect(calls).toHaveLength(2);
        expect(hasCareNote(calls[0]!)).toBe(false);
        expect(calls[0]!.receivedAt).toBeLessThan(classifierCall(h).finishedAt!);
        await h.provider.waitFor((p) => p.stats.abortedRequests === 1);
        expect(calls[0]!.aborted).toBe(true);
        expect(calls[1]!.receivedAt).toBeGreaterThanOrEqual(classifierCall(h).finishedAt!);
      } else {
        expect(calls).toHaveLength(1);
      }
    });

    it("when the classifier says none, then the answer has no care note", async () => {
      const h = get();
      script(h, { category: "biblical_question", care: "none" });
      const out = await h.run(UNREAD);
      expect(out).toMatchObject({ kind: "answer", content: UNCARED });
      expect(h.agentCalls().map(hasCareNote)).toEqual([false]);
    });
  });

  it("when the closed speculative call is counted, then the run's usage is more than the sequential run's by its estimate", async () => {
    script(parallel, { category: "biblical_question", care: "distress" });
    script(sequential, { category: "biblical_question", care: "distress" });
    const out = await parallel.run(UNREAD);
    const before = await sequential.run(UNREAD);
    expect(out.content).toBe(before.content);
    // The closed call sent the whole system prompt (thousands of characters, four to a token).
    expect(out.usage.prompt_tokens).toBeGreaterThan(before.usage.prompt_tokens + 500);
  });

  it.each(["hacker_activity", "inappropriate", "invalid", "greeting", "incomplete_input", "support_question"])(
    "when the classifier gives %s with a care verdict, then the person is answered with care, never refused nor given a canned reply",
    async (category) => {
      for (const h of [parallel, sequential]) {
        script(h, { category, care: "distress" });
        const out = await h.run(UNREAD);
        expect(out).toMatchObject({ kind: "answer", content: CARED });
      }
    },
  );

  it("when the care comes from the classifier alone, then the word limiter still keeps the help line in the first two sentences", async () => {
    const LONG =
      "I am so sorry you are carrying this tonight, and I am really glad you wrote to me about it. " +
      "Please call or text 988 right now, or your local emergency number, so that someone can be with you. " +
      "Psalm 34:18 says the Lord is close to the broken-hearted and saves those who are crushed in spirit.";
    for (const [care, kept] of [["distress", true], ["none", false]] as const) {
      sequential.provider.reset();
      sequential.provider.on(match.structured(), reply.json({ category: "biblical_question", care }));
      sequential.provider.on(match.agent(), reply.text(LONG));
      const out = await sequential.run(UNREAD, { maxWords: 12 });
      expect(out.content.includes("988"), out.content).toBe(kept);
    }
  });

  it("when an older classifier answers only a category, then it is read with no care verdict from the model", async () => {
    script(sequential, { category: "biblical_question" });
    const out = await sequential.run(UNREAD);
    expect(out).toMatchObject({ kind: "answer", content: UNCARED });
  });
});
