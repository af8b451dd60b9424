import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { match, messageText, reply } from "../fakes/index.js";
import { KEY, lastToolCalls, startHarness, toolResults, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.provider.reset());


describe("agent tools", () => {
  it("when the agent looks up a passage, then the provider receives the real verse text with its reference", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "John 3:16" });
    const out = await h.run("What does John 3:16 say?", { skipPreflight: true });
    expect(out).toMatchObject({ kind: "answer", content: "Done." });
    const second = h.agentCalls()[1]!;
    expect(lastToolCalls(second)[0]?.function.name).toBe("lookup_passage");
    const [result] = toolResults(second);
    expect(result).toContain("John 3:16 (World English Bible, eng-web)");
    expect(result).toContain("16 For God so loved the world, that he gave his only born Son");
  });

  it("when the agent asks for another translation, then the passage comes from that translation", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "Juan 3:16", translation: "spa-rv1909" });
    await h.run("¿Qué dice Juan 3:16?", { skipPreflight: true });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toContain("Juan 3:16 (Reina-Valera 1909, spa-rv1909)");
    expect(result).toContain("Porque de tal manera amó Dios al mundo");
  });

  it("when the request names a translation, then lookups default to it", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "John 3:16-17" });
    await h.run("Read John 3:16-17 to me", { skipPreflight: true, bibleId: "eng-kjv" });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toContain("whosoever believeth in him");
    expect(result).toContain("17 For God sent not his Son");
  });

  it("when the reference does not exist, then the model is told so and the run still answers", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "John 22:5" });
    const out = await h.run("What does John 22:5 say?", { skipPreflight: true });
    expect(out.kind).toBe("answer");
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/John 22:5.*(not a Bible reference|does not exist)/);
  });

  it("when a whole long chapter is asked for, then the result is bounded", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "Psalm 119" });
    await h.run("Read Psalm 119", { skipPreflight: true });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result!.length).toBeLessThanOrEqual(6_100);
    expect(result).toMatch(/more (verses|results) left out/);
  });

  it("when search is down, then the model is told the tool failed and the run still answers", async () => {
    h.scriptToolTurn("search_scripture", { query: "forgiveness" });
    const out = await h.run("What does the Bible say about forgiveness?", { skipPreflight: true });
    expect(out).toMatchObject({ kind: "answer", content: "Done." });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/search_scripture is unavailable/);
  });

  it("when the tool arguments are not JSON, then the model gets a tool error it can read", async () => {
    h.scriptToolTurn("lookup_passage", '{"reference": John 3:16}');
    const out = await h.run("What does John 3:16 say?", { skipPreflight: true });
    expect(out.kind).toBe("answer");
    const second = h.agentCalls()[1]!;
    const call = lastToolCalls(second)[0];
    const tool = second.body.messages.findLast((m) => m.role === "tool");
    expect(tool?.tool_call_id).toBe(call?.id);
    expect(messageText(tool)).toMatch(/not valid JSON/);
  });

  it("when the arguments do not fit the schema, then the model gets a tool error naming the tool", async () => {
    h.scriptToolTurn("lookup_passage", { reference: 42 });
    await h.run("What does John 3:16 say?", { skipPreflight: true });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/^Error: lookup_passage could not run/);
  });

  it("when the model calls a tool that does not exist, then it is told which tools exist", async () => {
    h.scriptToolTurn("delete_everything", {});
    await h.run("What does John 3:16 say?", { skipPreflight: true });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/no tool named "delete_everything".*lookup_passage/);
  });

  it("when several provider calls are made, then every one carries the caller's key", async () => {
    h.provider.on(match.structured(), reply.json({ category: "biblical_question" }));
    h.scriptToolTurn("lookup_passage", { reference: "Romans 8:28" });
    await h.run("How does Romans 8:28 comfort people?");
    expect(h.provider.chatRequests).toHaveLength(3);
    for (const r of h.provider.chatRequests) expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("when the agent offers tools, then the provider sees every tool with described arguments", async () => {
    h.provider.on(match.agent(), reply.text("Hi."));
    await h.run("Tell me about grace in Ephesians", { skipPreflight: true });
    const tools = h.agentCalls()[0]!.body.tools!;
    expect(tools.map((t) => t.function.name).sort()).toEqual(["commentary", "keyword_search", "lookup_passage", "search_scripture", "topics", "word_study"]);
    for (const t of tools) {
      const props = (t.function.parameters as { properties: Record<string, { description?: string }> }).properties;
      for (const [name, p] of Object.entries(props)) expect(p.description, `${t.function.name}.${name}`).toBeTruthy();
    }
  });
});
