/** lookup_passage and the answer's links know the deuterocanon, through the graph with the fake provider. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import { startHarness, toolResults, type Harness } from "./harness.js";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => h.provider.reset());


describe("the deuterocanon in the agent", () => {
  it("when the agent looks up Sirach 2:1, then it gets the WEB's verse and the answer links it", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "Sirach 2:1" }, "Sirach 2:1 warns of testing; see also Wisdom 7:26.");
    const out = await h.run("What does Sirach 2:1 say?", { skipPreflight: true, convertLinks: true });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toContain("Sirach 2:1 (World English Bible, eng-web)");
    expect(result).toContain("1 My son, if you come to serve the Lord, prepare your soul for temptation.");
    expect(out).toMatchObject({ kind: "answer" });
    expect(out.kind === "answer" ? out.content : "").toContain(
      "[Sirach 2:1](/read/SIR/2?verse=1) warns of testing; see also [Wisdom 7:26](/read/WIS/7?verse=26).",
    );
  });

  it("when the user reads the KJV, then 2 Maccabees 12:45 is read from eng-web and the model is told so", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "2 Maccabees 12:45" });
    await h.run("What does 2 Maccabees 12:45 say?", { skipPreflight: true, bibleId: "eng-kjv" });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toMatch(/^\[2 Maccabees is not in the King James Version \(eng-kjv\).*read from the World English Bible \(eng-web\)/);
    expect(result).toContain("2 Maccabees 12:45 (World English Bible, eng-web):");
    expect(result).toContain("45 But if he was looking forward to an honorable memorial");
  });

  it("when the user reads the RV1909, then 1 Macabeos 2:1 comes from eng-web under its Spanish name", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "1 Macabeos 2:1" });
    await h.run("¿Qué dice 1 Macabeos 2:1?", { skipPreflight: true, bibleId: "spa-rv1909" });
    const [result] = toolResults(h.agentCalls()[1]!);
    expect(result).toContain("1 Maccabees is not in the Reina-Valera 1909 (spa-rv1909)");
    expect(result).toContain("1 Macabeos 2:1 (World English Bible, eng-web):");
    expect(result).toContain("1 In those days Mattathias");
  });

  it("when a book the module lacks is asked for, then the model is told it is not shipped", async () => {
    h.scriptToolTurn("lookup_passage", { reference: "Susanna 1:42" });
    await h.run("What does Susanna 1:42 say?", { skipPreflight: true });
    expect(toolResults(h.agentCalls()[1]!)[0]).toMatch(/Susanna.*not in any translation shipped here/);
  });

  it("when an answer uses Wisdom and Judith as words, then they stay plain text", async () => {
    h.provider.on(match.agent(), reply.text("Wisdom 3 times over beats folly, and Judith 8 is a name here; Tobit 4:15 is a verse."));
    const out = await h.run("Tell me about wisdom.", { skipPreflight: true, convertLinks: true });
    expect(out.kind === "answer" ? out.content : "").toContain(
      "Wisdom 3 times over beats folly, and Judith 8 is a name here; [Tobit 4:15](/read/TOB/4?verse=15) is a verse.",
    );
  });
});
