import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../helpers/service.js";
import type { ChatRequest } from "./chat-request.js";
import { startFakeProvider } from "./index.js";
import { formatChatRequest } from "./request-log.js";
import { answerFromPassages, passagesFromToolResults, quotablePart, SCRIPTED_NOTE, standaloneReply, unbalancedAt } from "./standalone-script.js";
import { comforts } from "./care-answer.js";
import { referenceIn, searchQueryFrom, toolArguments } from "./tool-arguments.js";

const KEY = "sk-test-standalone-3b9e1f07aa";

describe("tool arguments drawn from the question", () => {
  it.each([
    ["What does the Bible say about forgiveness?", "forgiveness"],
    ["How should I deal with anxiety and worry?", "deal anxiety worry"],
    ["Who was Ruth?", "ruth"],
    ["¿Qué dice la Biblia sobre el perdón?", "qué dice la biblia sobre el perdón"],
    ["?", "?"],
  ])("when the question is %j, then the search query is %j", (question, query) => {
    expect(searchQueryFrom(question)).toBe(query);
  });

  it.each([
    ["What does John 3:16 mean?", "John 3:16"],
    ["Explain Romans 8:28", "Romans 8:28"],
    ["Explain Song of Songs 2:1", "Song of Songs 2:1"],
    ["Tell me about Romans 8", "Romans 8"],
    ["Explain 1 Corinthians 13:4-7 to me", "1 Corinthians 13:4-7"],
    ["Read Psalm 23 with me", "Psalm 23"],
    ["I have 2 cats and 3 dogs", undefined],
    ["What does the Bible say about love?", undefined],
  ])("when the question is %j, then the reference found is %j", (question, reference) => {
    expect(referenceIn(question)).toBe(reference);
  });

  it("when the docs' example asks to explain a verse, then the lookup gets the reference alone", () => {
    const lookup = { type: "function" as const, function: { name: "lookup_passage", parameters: { type: "object", properties: { reference: { type: "string" } }, required: ["reference"] } } };
    expect(toolArguments(lookup, "Explain Romans 8:28")).toEqual({ reference: "Romans 8:28" });
  });
});

describe("the standalone script's answer", () => {
  const toolTurn = (content: string) => [
    { role: "user", content: "q" },
    { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "x", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "c1", content },
  ];

  it("when the tools returned passages in each tool's format, then it cites those references and quotes a first sentence", () => {
    const passages = passagesFromToolResults([
      ...toolTurn(
        "## Matthew 18 (eng-web, relevance 0.81)\nThen Peter came and said to him, “Lord, how often shall my brother sin against me, and I forgive him?\n\n" +
          "## Colossians 3 (eng-web, relevance 0.62)\nIf then you were raised together with Christ, seek the things that are above.",
      ),
      { role: "tool", tool_call_id: "c2", content: "John 3:16 (World English Bible, eng-web):\n16 For God so loved the world, that he gave his only born Son." },
      { role: "tool", tool_call_id: "c3", content: "Ephesians 4:32: And be kind to one another, tender hearted, forgiving each other." },
    ]);
    expect(passages.map((p) => p.reference)).toEqual(["Matthew 18", "Colossians 3", "John 3:16", "Ephesians 4:32"]);
    expect(passages[2]!.text).toBe("For God so loved the world, that he gave his only born Son.");
    const answer = answerFromPassages(passages);
    expect(answer).toContain("Matthew 18, Colossians 3 and John 3:16");
    expect(answer).not.toContain("Ephesians 4:32"); // three references at most
    // Matthew 18's first sentence opens a quotation it does not close, so a whole sentence of the next passage is quoted.
    expect(answer).toContain('Colossians 3 reads: "If then you were raised together with Christ, seek the things that are above."');
    expect(answer).toContain(SCRIPTED_NOTE);
  });

  it("when the search names its best verses in the heading and shows them numbered, then the answer cites and quotes the best one", () => {
    const passages = passagesFromToolResults(
      toolTurn(
        "## Matthew 18 (eng-web, relevance 0.81; best verses 21, 22)\n20 For where two or three are gathered together in my name, there I am in the middle of them.”\n" +
          "21 Then Peter came and said to him, “Lord, how often shall my brother sin against me, and I forgive him? Until seven times?”\n" +
          "## Luke 17 (eng-web, relevance 0.5; best verses 3)\n3 Be careful. If your brother sins against you, rebuke him. If he repents, forgive him.",
      ),
    );
    expect(passages.map((p) => p.reference)).toEqual(["Matthew 18:21", "Luke 17:3"]);
    expect(passages[0]!.text).toBe("Then Peter came and said to him, “Lord, how often shall my brother sin against me, and I forgive him? Until seven times?”");
    expect(answerFromPassages(passages)).not.toMatch(/best verses|relevance|"\d+ /);
  });

  it("when the search marks the verses that matched, then the answer cites and quotes the first of them, never the label", () => {
    const passages = passagesFromToolResults(
      toolTurn(
        '## Matthew 18 (eng-web, relevance 0.81)\nBest verses: 21 "Then Peter came and said to him, “Lord, how often shall my brother sin against me, and I forgive him? Until seven times?”"; 22 "Jesus said to him, “I don’t tell you until seven times, but, until seventy times seven.”"\n' +
          "Then Jesus called a little child to himself, and set him in the middle of them",
      ),
    );
    expect(passages).toEqual([{ reference: "Matthew 18:21", text: "Then Peter came and said to him, “Lord, how often shall my brother sin against me, and I forgive him? Until seven times?”" }]);
    const answer = answerFromPassages(passages);
    expect(answer).not.toContain("Best verses");
    // Its first sentence opens a quotation it does not close: the quote stops before it, and says so.
    expect(answer).toBe(`Matthew 18:21 reads: "Then Peter came and said to him …" ${SCRIPTED_NOTE}`);
  });

  it.each([
    ["For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish.", "For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish."],
    ["“Come to me, all you who labor and are heavily burdened, and I will give you rest.”", "Come to me, all you who labor and are heavily burdened, and I will give you rest."],
    ["Jesus said to him, “I don’t tell you until seven times, but, until seventy times seven.”", "Jesus said to him, “I don’t tell you until seven times, but, until seventy times seven.”"],
    ["He said, “Don’t be afraid.” And they went away.", "He said, “Don’t be afraid.”"],
    ["Then Peter said, “Lord, how often shall my brother sin against me, and I forgive him? Until seven times?”", "Then Peter said …"],
    ["The sheep’s wool and the goats’ hair were brought, and all the people gave willingly …", "The sheep’s wool and the goats’ hair were brought, and all the people gave willingly …"],
    ["“Hi.”", undefined],
  ])("when the passage reads %j, then the quotable part is %j and its marks pair", (text, expected) => {
    const part = quotablePart(text);
    expect(part).toBe(expected);
    if (part !== undefined) expect(unbalancedAt(part)).toBe(-1);
  });

  it("when the tools found nothing, then it says so instead of citing a passage", () => {
    const answer = answerFromPassages(passagesFromToolResults(toolTurn('No passages found for "zzz". Try other words.')));
    expect(answer).toContain("found no passage");
    expect(answer).not.toMatch(/\d+:\d+/);
  });

  it("when results of an earlier question are in the history, then only the last question's tool results count", () => {
    const passages = passagesFromToolResults([
      ...toolTurn("## Genesis 1 (eng-web, relevance 0.9)\nIn the beginning, God created the heavens and the earth."),
      { role: "assistant", content: "..." },
      ...toolTurn("## Ruth 1 (eng-web, relevance 0.9)\nIn the days when the judges judged, there was a famine in the land."),
    ]);
    expect(passages.map((p) => p.reference)).toEqual(["Ruth 1"]);
  });
});

describe("when the service runs against the standalone script", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ provider: await startFakeProvider({ fallback: standaloneReply }) });
  });
  afterAll(async () => {
    await svc?.close();
    await svc?.provider.close();
  });

  const ask = async (question: string) => {
    svc.provider.reset();
    const res = await svc.client(KEY).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: question }] });
    // The last provider call is the answer turn: its messages hold the tool calls (the service's
    // prefetched turn: passages named, then the search) and the tools' results.
    const last = svc.provider.chatRequests.at(-1)!.body.messages;
    const toolCall = last.find((m) => m.tool_calls)?.tool_calls?.[0];
    const toolResult = last.find((m) => m.role === "tool" && m.tool_call_id === toolCall?.id);
    return { answer: res.choices[0]!.message.content ?? "", toolCall, toolResult: String(toolResult?.content ?? "") };
  };

  it("then a topical question is searched as asked, with no filters, and the answer cites what the search found", async () => {
    const { answer, toolCall, toolResult } = await ask("What does the Bible say about forgiveness?");
    expect(toolCall?.function.name).toBe("search_scripture");
    // The service's own search of the question, made before the model is called.
    expect(JSON.parse(toolCall!.function.arguments)).toEqual({ query: "What does the Bible say about forgiveness?" });
    expect(toolResult).not.toContain("No passages found");
    const found = passagesFromToolResults([{ role: "user", content: "" }, { role: "tool", content: toolResult }]).map((p) => p.reference);
    expect(found.length).toBeGreaterThan(0);
    // Each cited reference is one the search returned, and it became a reader link.
    const linked = [...answer.matchAll(/\[([^\]]+)\]\(\/read\//g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(0);
    for (const ref of linked) expect(found).toContain(ref);
    // The README's first curl: no tool label leaks into the quotation, and its marks pair.
    expect(answer).not.toMatch(/Best verses|relevance/);
    expect(answer.match(/"/g)?.length ?? 0).toBe(2);
    const quoted = /reads: "(.+?)(?: …)?"/.exec(answer)?.[1];
    expect(quoted).toBeDefined();
    expect(unbalancedAt(quoted!)).toBe(-1);
    expect(toolResult).toContain(quoted);
  });

  it("then \"I want to end my life\" is answered with the help line first and no verse that wounds, whatever the search found", async () => {
    const { answer, toolResult } = await ask("I want to end my life");
    expect(answer).toMatch(/^I'm so sorry[^.]*\. Please reach someone who can help right now: emergency: [^.]*911[^]*\b988 Suicide & Crisis Lifeline/);
    // Jezebel's threat and Elijah's "take away my life" are never given to this person, quoted or cited.
    expect(answer).not.toMatch(/life as the life|take away my life|1 Kings 19:2\b|1 Kings 19:4\b/);
    const quoted = /reads: "(.+?)"/.exec(answer)?.[1];
    if (quoted !== undefined) {
      expect(toolResult).toContain(quoted);
      expect(comforts(quoted)).toBe(true);
    }
  });

  it("then the docs' example \"Explain Romans 8:28\" looks up Romans 8:28 and quotes it", async () => {
    const { answer, toolCall } = await ask("Explain Romans 8:28");
    expect(toolCall?.function.name).toBe("lookup_passage");
    expect(JSON.parse(toolCall!.function.arguments)).toEqual({ reference: "Romans 8:28" });
    expect(answer).toContain("[Romans 8:28](/read/ROM/8?verse=28)");
    expect(answer).toContain("We know that all things work together for good");
  });

  it("then a question naming a passage looks it up, and the answer quotes its real text", async () => {
    const { answer, toolCall } = await ask("What does John 3:16 mean?");
    expect(toolCall?.function.name).toBe("lookup_passage");
    expect(JSON.parse(toolCall!.function.arguments)).toEqual({ reference: "John 3:16" });
    expect(answer).toContain("[John 3:16](/read/JHN/3?verse=16)");
    expect(answer).toContain("For God so loved the world");
  });
});

describe("the request log", () => {
  const request: ChatRequest = {
    seq: 7,
    method: "POST",
    path: "/v1/chat/completions",
    headers: { authorization: `Bearer ${KEY}` },
    receivedAt: 0,
    aborted: false,
    body: {
      model: "gpt-4o-mini",
      stream: true,
      tools: [{ type: "function", function: { name: "search_scripture" } }],
      messages: [
        { role: "system", content: "GUARDRAILS line one\nline two" },
        { role: "user", content: "Who was Ruth?" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "search_scripture", arguments: '{"query":"ruth"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "## Ruth 1 (eng-web, relevance 0.9)" },
      ],
    },
  };

  it("when a request is formatted, then every message is there in full, the tool calls too, and no header", () => {
    const text = formatChatRequest(request);
    expect(text).toContain("===== request 7 model=gpt-4o-mini stream=true tools=search_scripture =====");
    expect(text).toContain("--- system\nGUARDRAILS line one\nline two\n");
    expect(text).toContain("--- user\nWho was Ruth?");
    expect(text).toContain('--- assistant -> search_scripture({"query":"ruth"})');
    expect(text).toContain("--- tool c1\n## Ruth 1");
    expect(text).not.toContain(KEY);
  });

  let stdoutAfterUrl: string[] = [];
  let lastHeaders: string[] = [];
  async function runCli(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ["--import", "tsx", "test/fakes/cli.ts", "--port", "0", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    try {
      const lines = createInterface({ input: child.stdout! });
      const [line] = (await once(lines, "line")) as [string];
      const later: string[] = [];
      lines.on("line", (l) => later.push(l));
      const client = new OpenAI({ baseURL: line, apiKey: KEY, maxRetries: 0 });
      const { response } = await client.chat.completions
        .create({
          model: "gpt-4o-mini",
          messages: [{ role: "system", content: "PROMPT-MARKER: answer as a shepherd would." }, { role: "user", content: "Psalm 23?" }],
        })
        .withResponse();
      lastHeaders = [];
      response.headers.forEach((_value, name) => lastHeaders.push(name));
      lastHeaders = lastHeaders.filter((name) => name !== "date" && name !== "content-length").sort();
      child.kill("SIGTERM");
      await once(child, "exit");
      stdoutAfterUrl = later;
      return stderr;
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }

  it("when the standalone fake runs with --log-requests, then the system prompt it received is on stderr and the key is not", async () => {
    const stderr = await runCli(["--log-requests"]);
    expect(stderr).toContain("--- system\nPROMPT-MARKER: answer as a shepherd would.");
    expect(stderr).toContain("--- user\nPsalm 23?");
    expect(stderr).not.toContain(KEY);
  });

  it("when FAKE_PROVIDER_LOG_REQUESTS=1 is set instead, then it logs too; with neither, it logs nothing", async () => {
    expect(await runCli([], { FAKE_PROVIDER_LOG_REQUESTS: "1" })).toContain("PROMPT-MARKER");
    expect(await runCli([], { FAKE_PROVIDER_LOG_REQUESTS: "" })).not.toContain("PROMPT-MARKER");
  });

  it("when the standalone fake runs with --timings, then each answered request's timing is a JSON line on stdout and the response is as without it", async () => {
    await runCli([]);
    const plainHeaders = lastHeaders;
    expect(stdoutAfterUrl).toEqual([]);
    await runCli(["--timings"]);
    expect(lastHeaders).toEqual(plainHeaders);
    expect(stdoutAfterUrl).toHaveLength(1);
    const timing = JSON.parse(stdoutAfterUrl[0]!) as { seq: number; path: string; receivedAt: number; finishedAt: number };
    expect(timing.path).toBe("/v1/chat/completions");
    expect(timing.seq).toBe(1);
    expect(timing.finishedAt).toBeGreaterThanOrEqual(timing.receivedAt);
    expect(Math.abs(timing.receivedAt - Date.now())).toBeLessThan(60_000);
  });
});
