import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_PROMPTS_DIR, loadPrompts } from "../../src/prompts/loader.js";
import { match, reply } from "../fakes/index.js";
import { answers, startHarness, toolResults, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.provider.reset());


/**
 * The agent calls `name` first; once it has the result it answers with the result's line that
 * `pick` chooses, so the answer carries what the tool returned (as a model would quote it).
 */
let quoted = 0;
function scriptToolThenQuote(target: Harness, name: string, args: unknown, pick: RegExp) {
  const id = `call_quote${++quoted}`;
  target.provider.on(match.all(match.agent(), answers(id)), (req) => {
    const result = toolResults(req).join("\n");
    const line = result.split("\n").find((l) => pick.test(l)) ?? "(nothing matched)";
    return reply.text(`From the tool: ${line.trim()}`);
  });
  target.provider.on(match.agent(), reply.toolCalls([{ name, args, id }]));
}

describe("word_study", () => {
  it("when the agent asks about 'love' in John 21:15, then agape and phileo come from the lexicon and reach the answer", async () => {
    scriptToolThenQuote(h, "word_study", { reference: "John 21:15", word: "love" }, /^G5368 /);
    const out = await h.run("What is the difference between agape and phileo in John 21?", { skipPreflight: true });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toMatch(/"love" in John 21:15 translates:/);
    expect(result).toMatch(/^G25 ἀγαπάω \(Greek; agapáō/m);
    expect(result).toMatch(/^G5368 φιλέω \(Greek; philéō/m);
    expect(result).toMatch(/have affection for/);
    expect(result).toMatch(/Used in \d+ verses of the KJV \(\d+ times\), \d+ of them in John, e\.g\. .*John 21:1[5-7]/);
    expect(out.kind).toBe("answer");
    expect(out.content).toMatch(/^From the tool: G5368 φιλέω \(Greek; philéō, pronounced fil-eh'-o\)/);
    expect(out.deltas.join("")).toBe(out.content);
  });

  it("when the agent gives a Strong's number, then its entry comes; a bad number or reference is a plain miss", async () => {
    scriptToolThenQuote(h, "word_study", { strong: "h07965" }, /^H7965 /);
    const out = await h.run("What does shalom mean?", { skipPreflight: true });
    expect(out.content).toMatch(/From the tool: H7965 .*shâlôm/);
    h.provider.reset();
    scriptToolThenQuote(h, "word_study", { strong: "Q12" }, /Strong/);
    expect((await h.run("Q12?", { skipPreflight: true })).content).toMatch(/is not a Strong's number/);
    h.provider.reset();
    scriptToolThenQuote(h, "word_study", { reference: "John 21:15", word: "zebra" }, /./);
    await h.run("zebra?", { skipPreflight: true });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/No tagged word "zebra" in John 21:15\. The KJV's tagged words there[\s\S]*love=G5368/);
  });
});

describe("commentary", () => {
  it("when the agent asks about John 3:16, then Matthew Henry's comment reaches the answer, named with its tradition", async () => {
    scriptToolThenQuote(h, "commentary", { reference: "John 3:16" }, /on John 3:16:$/);
    const out = await h.run("What does Matthew Henry say on John 3:16?", { skipPreflight: true });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toMatch(/^Matthew Henry's Concise Commentary on the Whole Bible by Matthew Henry \(.*Reformed\/Puritan\) on John 3:16:/);
    expect(result).toMatch(/\[John 3:1-21\]\nNicodemus/);
    expect(result).toMatch(/name the commentary/);
    expect(out.content).toMatch(/^From the tool: Matthew Henry's Concise Commentary/);
  });

  it("when a psalm is asked, then Spurgeon comes first; Scofield when named, with its dispensationalist label", async () => {
    scriptToolThenQuote(h, "commentary", { reference: "Psalm 23:1" }, /Treasury/);
    await h.run("Psalm 23:1?", { skipPreflight: true });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/^The Treasury of David by Charles H\. Spurgeon[\s\S]*The Lord is my shepherd/);
    h.provider.reset();
    scriptToolThenQuote(h, "commentary", { reference: "John 3:16", commentary: "scofield" }, /Scofield/);
    const out = await h.run("Scofield on John 3:16?", { skipPreflight: true });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/^Scofield Reference Notes \(1917 edition\) by C\. I\. Scofield \(1917; Dispensationalist[\s\S]*perish/);
    expect(out.content).toMatch(/Dispensationalist/);
  });

  describe("when the theology's front matter prefers Scofield and avoids Matthew Henry", () => {
    let dir: string;
    let custom: Harness;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "study-prompts-"));
      cpSync(DEFAULT_PROMPTS_DIR, dir, { recursive: true });
      const file = join(dir, "theologies", "default.md");
      writeFileSync(file, readFileSync(file, "utf8").replace("is_default: true\n", "is_default: true\ncommentaries:\n  prefer: [scofield]\n  avoid: [mhcc]\n"));
      custom = await startHarness({ prompts: loadPrompts(dir) });
    });
    afterAll(async () => {
      await custom?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("then the commentary tool reaches for Scofield first", async () => {
      scriptToolThenQuote(custom, "commentary", { reference: "John 3:16" }, /on John 3:16:$/);
      const out = await custom.run("What do commentaries say on John 3:16?", { skipPreflight: true });
      expect(out.content).toMatch(/^From the tool: Scofield Reference Notes/);
      const calls = custom.provider.chatRequests.filter((r) => (r.body.tools?.length ?? 0) > 0);
      expect(toolResults(calls[1]!)[0]).not.toMatch(/Also available here: .*mhcc/);
    });
  });
});

describe("topics", () => {
  it("when the agent asks for the topic anger, then Nave's references reach the answer", async () => {
    scriptToolThenQuote(h, "topics", { topic: "anger" }, /^- General/);
    const out = await h.run("Where does the Bible talk about anger?", { skipPreflight: true });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toMatch(/^Nave's Topical Bible/);
    expect(result).toMatch(/^Anger \(\d+ references, first 25\):$/m);
    expect(out.content).toMatch(/^From the tool: - General scriptures concerning: Genesis 4:6; Genesis 49:7; 2 Chronicles 28:9/);
  });

  it("when the agent gives a verse, then the topics that cite it come", async () => {
    scriptToolThenQuote(h, "topics", { reference: "Proverbs 15:1" }, /^Anger/);
    const out = await h.run("What topics is Proverbs 15:1 about?", { skipPreflight: true });
    expect(out.content).toMatch(/^From the tool: Anger \(/);
  });
});
