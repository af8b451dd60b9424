import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { limitWords } from "../../graphs/chat/answer/word-limit.js";
import { match, reply, type ChatRequest } from "../fakes/index.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.provider.reset());

const LONG =
  "Grace is the free favour of God toward people who have not earned it. Paul writes about it often in his letters. " +
  "In Romans 3:24 he says we are justified freely by grace. In Ephesians 2:8 he says it is by grace that we are saved through faith. " +
  "This grace is not a reward for good works but a gift that makes good works possible. It changes how believers live each day. " +
  "It also shapes how they treat one another in the church and in the world around them.";

describe("the answer turn", () => {
  it.each([
    ["Let me look that up for you. One moment."],
    ["I'll read the whole psalm first."],
    ["Déjame buscar el salmo completo."],
  ])("when the model talks before calling a tool (%s), then that text never reaches the caller", async (chatter) => {
    // The first call already carries the prefetched turn; the model asks for more anyway, talking first.
    const answered = (r: ChatRequest) => r.body.messages.some((m) => m.role === "tool" && m.tool_call_id === "call_chatter");
    h.provider.on(match.all(match.agent(), answered), reply.text("Psalm 23 begins with the Lord as shepherd."));
    h.provider.on(match.agent(), reply.toolCalls([{ name: "lookup_passage", args: { reference: "Psalm 23" }, id: "call_chatter" }], { text: chatter }));
    const out = await h.run("What is Psalm 23 about?", { skipPreflight: true });
    expect(h.agentCalls()).toHaveLength(2);
    expect(out).toMatchObject({ kind: "answer", content: "Psalm 23 begins with the Lord as shepherd." });
    expect(out.deltas.join("")).toBe("Psalm 23 begins with the Lord as shepherd.");
  });

  it("when a turn has streamed a long answer before a tool call, then the answer stands and the call is dropped", async () => {
    h.provider.on(match.agent(), reply.toolCall("lookup_passage", { reference: "Romans 3:24" }, { text: LONG }));
    const out = await h.run("What is grace?", { skipPreflight: true, maxWords: 500 });
    expect(out).toMatchObject({ kind: "answer", content: LONG, finishReason: "stop" });
    expect(out.deltas.join("")).toBe(LONG);
    expect(h.agentCalls()).toHaveLength(1);
  });

  it("when the answer turn follows a tool round, then its text streams as it comes, from the first word", async () => {
    h.provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(LONG, { chunkDelayMs: 2 }));
    h.provider.on(match.agent(), reply.toolCall("lookup_passage", { reference: "Romans 3:24" }));
    const out = await h.run("What is grace?", { skipPreflight: true, maxWords: 500 });
    expect(out.content).toBe(LONG);
    // The old gate held up to 200 characters of a turn; now the first word goes out on its own.
    expect(out.deltas[0]).toBe("Grace ");
    expect(out.deltas.length).toBeGreaterThan(50);
  });

  it("when the agent needs two tool rounds, then the second round runs and its answer streams", async () => {
    h.provider.enqueue(
      reply.toolCall("lookup_passage", { reference: "Romans 3:24" }),
      reply.toolCall("lookup_passage", { reference: "Ephesians 2:8" }),
      reply.text("Grace is a gift, as Romans 3:24 and Ephesians 2:8 say."),
    );
    const out = await h.run("What is grace?", { skipPreflight: true });
    expect(out.content).toBe("Grace is a gift, as Romans 3:24 and Ephesians 2:8 say.");
    expect(h.agentCalls()).toHaveLength(3);
    expect(JSON.stringify(h.agentCalls()[2]!.body.messages)).toMatch(/by grace you have been saved/i);
  });

  it("when the provider streams two sentences and then stalls, then the caller gets them before the timeout", async () => {
    const stalling = await startHarness({ providerTimeoutMs: 600 });
    try {
      const text = "Grace is the free favour of God. Paul writes about it often. ";
      stalling.provider.on(match.agent(), reply.stall(12, { text: `${text}In Romans 3:24 he says we are justified freely by grace.` }));
      const deltas: string[] = [];
      const err = await stalling.run("What is grace?", { skipPreflight: true }, { deltas }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ status: 504, code: "upstream_timeout" });
      expect(deltas.join("")).toBe(text);
    } finally {
      await stalling.close();
    }
  });

  it("when the answer is longer than max_words, then it is cut at a sentence end, finish_reason is length and upstream is aborted", async () => {
    h.provider.on(match.agent(), reply.text(LONG, { chunkDelayMs: 3 }));
    const out = await h.run("What is grace?", { skipPreflight: true, maxWords: 30 });
    const expected = limitWords(LONG, 30).text;
    expect(expected.endsWith(".")).toBe(true);
    expect(out).toMatchObject({ kind: "answer", content: expected, finishReason: "length" });
    expect(out.content.split(/\s+/).length).toBeLessThanOrEqual(30);
    expect(out.deltas.join("")).toBe(expected);
    await h.provider.waitFor((p) => p.stats.abortedRequests === 1, 2_000);
    expect(h.agentCalls()[0]!.aborted).toBe(true);
    // The provider never reported usage for the aborted call; it is estimated, not dropped.
    expect(out.usage.completion_tokens).toBeGreaterThanOrEqual(Math.ceil(expected.length / 4));
    expect(out.usage.prompt_tokens).toBeGreaterThan(1_000);
  });

  it("when the provider stops at its token limit, then finish_reason is length", async () => {
    h.provider.on(match.agent(), reply.text("Grace is", { finishReason: "length" }));
    const out = await h.run("What is grace?", { skipPreflight: true });
    expect(out).toMatchObject({ content: "Grace is", finishReason: "length" });
  });

  it("when the provider's content filter stops the answer, then finish_reason is content_filter, not stop", async () => {
    h.provider.on(match.agent(), reply.text("Grace is", { finishReason: "content_filter" }));
    const out = await h.run("What is grace?", { skipPreflight: true });
    expect(out).toMatchObject({ content: "Grace is", finishReason: "content_filter" });
  });

  it("when the request runs without a delta listener, then the content is identical to the streamed one", async () => {
    for (const maxWords of [12, 45, 300]) {
      h.provider.on(match.agent(), reply.text(LONG), { times: 2 });
      const streamed = await h.run("What is grace?", { skipPreflight: true, maxWords, convertLinks: true });
      const plain = await h.run("What is grace?", { skipPreflight: true, maxWords, convertLinks: true }, { stream: false });
      expect(plain.content).toBe(streamed.content);
      expect(streamed.deltas.join("")).toBe(streamed.content);
      expect(plain.deltas).toEqual([]);
    }
  });

  it("when links are on, then references become reader links, also split across chunks", async () => {
    const chunks = ["Read John 3", ":16 and Roma", "ns 8:28-30, then Psalm", " 23."];
    h.provider.on(match.agent(), reply.text("", { chunks }));
    const out = await h.run("Where do I start?", { skipPreflight: true, convertLinks: true });
    expect(out.content).toBe(
      "Read [John 3:16](/read/JHN/3?verse=16) and [Romans 8:28-30](/read/ROM/8?verse=28-30), then [Psalm 23](/read/PSA/23).",
    );
    expect(out.deltas.join("")).toBe(out.content);
  });

  it("when links are off, then references stay plain", async () => {
    h.provider.on(match.agent(), reply.text("Read John 3:16."));
    const out = await h.run("Where do I start?", { skipPreflight: true, convertLinks: false });
    expect(out.content).toBe("Read John 3:16.");
  });

  it("when link conversion throws, then the plain answer goes out and the fault is logged", async () => {
    const broken = await startHarness({
      links: {
        convertLinks: () => {
          throw new Error("links broke");
        },
        createLinkStream: () => ({
          push: () => {
            throw new Error("links broke");
          },
          flush: () => "",
        }),
      },
    });
    try {
      broken.provider.on(match.agent(), reply.text("Read John 3:16 today."));
      const out = await broken.run("Where do I start?", { skipPreflight: true, convertLinks: true });
      expect(out.content).toBe("Read John 3:16 today.");
      expect(out.deltas.join("")).toBe("Read John 3:16 today.");
      expect(broken.logs.filter((l) => l.level === "error").length).toBeGreaterThan(0);
    } finally {
      await broken.close();
    }
  });
});

describe("usage and steps", () => {
  it("when the run makes several provider calls, then usage is their sum", async () => {
    const question = "How should I read the parables of Jesus?";
    // The classifier's usage alone: sequentially, an intercepted question makes no other call.
    const sequential = await startHarness({ preflightMode: "sequential" });
    const preflight = await (async () => {
      try {
        sequential.provider.on(match.structured(), reply.json({ category: "support_question" }));
        return (await sequential.run(question)).usage;
      } finally {
        await sequential.close();
      }
    })();
    expect(preflight.total_tokens).toBeGreaterThan(0);

    h.provider.on(match.structured(), reply.json({ category: "biblical_question" }));
    // One agent call: the prefetched tool turn is already in it.
    h.provider.on(match.agent(), reply.text("Read them slowly.", { usage: { prompt_tokens: 300, completion_tokens: 11 } }));
    const out = await h.run(question);
    expect(h.agentCalls()).toHaveLength(1);
    expect(out.usage).toEqual({
      prompt_tokens: preflight.prompt_tokens + 300,
      completion_tokens: preflight.completion_tokens + 11,
      total_tokens: preflight.total_tokens + 311,
    });
  });

  it("when the agent keeps calling tools, then its last allowed step is asked to answer without tools", async () => {
    const capped = await startHarness({ maxSteps: 2 });
    try {
      // The default script calls a tool once per user turn; this one calls lookup_passage every turn it may.
      capped.provider.on(match.all(match.agent(), (r) => r.body.tool_choice !== "none"), reply.toolCall("lookup_passage", { reference: "John 1:1" }));
      capped.provider.on(match.agent(), reply.text("In the beginning was the Word."));
      const out = await capped.run("Who is the Word?", { skipPreflight: true });
      expect(out).toMatchObject({ kind: "answer", content: "In the beginning was the Word." });
      const calls = capped.provider.chatRequests;
      expect(calls).toHaveLength(2);
      expect(calls[1]!.body.tool_choice).toBe("none");
    } finally {
      await capped.close();
    }
  });

  it("when the last step may not call tools, then its text is the answer even if the provider adds a call", async () => {
    const capped = await startHarness({ maxSteps: 1 });
    try {
      capped.provider.on(match.agent(), reply.toolCall("lookup_passage", { reference: "John 1:1" }, { text: "The Word is Christ." }));
      const out = await capped.run("Who is the Word?", { skipPreflight: true });
      expect(out).toMatchObject({ kind: "answer", content: "The Word is Christ." });
      expect(out.deltas.join("")).toBe("The Word is Christ.");
      expect(capped.provider.chatRequests[0]!.body.tool_choice).toBe("none");
    } finally {
      await capped.close();
    }
  });

  it("when the provider ignores tool_choice none on the last step, then the run fails with agent_step_limit", async () => {
    const capped = await startHarness({ maxSteps: 2 });
    try {
      capped.provider.on(match.agent(), reply.toolCall("lookup_passage", { reference: "John 1:1" }));
      await expect(capped.run("Who is the Word?", { skipPreflight: true })).rejects.toMatchObject({
        status: 500,
        type: "server_error",
        code: "agent_step_limit",
      });
    } finally {
      await capped.close();
    }
  });
});
