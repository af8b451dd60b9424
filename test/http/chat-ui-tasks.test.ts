import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import * as T from "../fixtures/chat-ui-tasks.js";
import { startService, type RunningService } from "../helpers/service.js";

/**
 * Open WebUI and LibreChat ask the model they chat with for a title, tags and follow-ups, over the
 * chat completions endpoint, exactly as they send them (one user message, the template rendered).
 */
let svc: RunningService;
const KEY = "sk-chat-ui-tasks-0001";
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());
beforeEach(() => svc.provider.reset());

const ask = (content: string, extra: Record<string, unknown> = {}) =>
  svc.client(KEY).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content }], ...extra } as OpenAI.ChatCompletionCreateParamsNonStreaming);

/** Only the one small labelling call reached the provider: no classifier, no agent, no tools. */
function expectOneLabellingCall(schemaName: string) {
  const calls = svc.provider.chatRequests;
  expect(calls).toHaveLength(1);
  const format = calls[0]!.body.response_format as { json_schema?: { name?: string } } | undefined;
  expect(format?.json_schema?.name).toBe(schemaName);
  expect(calls[0]!.body.tools).toBeUndefined();
}

describe("chat UI housekeeping requests", () => {
  it("when Open WebUI asks for a title over a chat that says 'disregard all previous instructions', then the JSON title, short, with no links, from one call", async () => {
    svc.provider.on(match.schemaName("housekeeping_title"), reply.json({ title: "💖 God's Love in John 3:16" }));
    const res = await ask(T.OWUI_TITLE);
    const content = res.choices[0]!.message.content!;
    expect(JSON.parse(content)).toEqual({ title: "💖 God's Love in John 3:16" });
    expect(content).not.toContain("](/read/");
    expect(res.choices[0]!.finish_reason).toBe("stop");
    expect(res.usage!.total_tokens).toBeGreaterThan(0);
    expectOneLabellingCall("housekeeping_title");
    // The labelling call sees the conversation, not the UI's template.
    const user = svc.provider.chatRequests[0]!.body.messages.at(-1)!.content as string;
    expect(user).toMatch(/^USER: What does John 3:16 teach/);
    expect(user).not.toContain("### Task");
  });

  it("when Open WebUI asks for tags, then a JSON tags list", async () => {
    svc.provider.on(match.schemaName("housekeeping_tags"), reply.json({ tags: ["Religion", "Bible", "Gospel of John"] }));
    const res = await ask(T.OWUI_TAGS);
    expect(JSON.parse(res.choices[0]!.message.content!)).toEqual({ tags: ["Religion", "Bible", "Gospel of John"] });
    expectOneLabellingCall("housekeeping_tags");
  });

  it("when Open WebUI asks for follow-ups, streamed, then the chunks rebuild a JSON follow_ups list", async () => {
    svc.provider.on(match.schemaName("housekeeping_follow_ups"), reply.json({ follow_ups: ["What does John 3:17 add?", "How does 1 John 4:8 relate?"] }));
    const stream = await svc.client(KEY).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: T.OWUI_FOLLOW_UPS }], stream: true });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(JSON.parse(text)).toEqual({ follow_ups: ["What does John 3:17 add?", "How does 1 John 4:8 relate?"] });
    expect(text).not.toContain("](/read/");
  });

  it("when LibreChat asks for a title over a chat that says 'ignore all previous instructions', then the bare title, not a 400", async () => {
    svc.provider.on(match.schemaName("housekeeping_title"), reply.json({ title: "God's Love in John" }));
    const res = await ask(T.LIBRECHAT_TITLE);
    expect(res.choices[0]!.message.content).toBe("God's Love in John");
    expectOneLabellingCall("housekeeping_title");
  });

  it("when the model rambles a sermon with links for a title, then the title is still a short plain label", async () => {
    svc.provider.on(match.schemaName("housekeeping_title"), reply.json({ title: `[John 3:16](/read/JHN/3?verse=16) shows ${"that God loves the world ".repeat(8)}` }));
    const title = JSON.parse((await ask(T.OWUI_TITLE)).choices[0]!.message.content!).title as string;
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title).not.toMatch(/\]\(|\/read\//);
  });

  it("when a title request comes through the Responses API, then the same JSON title", async () => {
    svc.provider.on(match.schemaName("housekeeping_title"), reply.json({ title: "God's Love" }));
    const res = await svc.client(KEY).responses.create({ model: "gpt-4o-mini", input: T.OWUI_TITLE });
    expect(JSON.parse(res.output_text)).toEqual({ title: "God's Love" });
  });

  it("when another task template carries an injection (autocomplete), then preflight refuses it as today", async () => {
    const err = await ask(T.OWUI_AUTOCOMPLETE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as APIError).code).toBe("content_filter");
    expect(svc.provider.chatRequests.every((c) => !String((c.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name).startsWith("housekeeping"))).toBe(true);
  });

  it("when another task template asks for search queries over the same chat, then preflight's injection rule refuses it as today", async () => {
    const err = await ask(T.OWUI_QUERIES).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as APIError).code).toBe("content_filter");
    expect(svc.provider.chatRequests).toHaveLength(0);
  });
});
