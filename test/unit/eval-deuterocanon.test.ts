/** The answer eval counts a deuterocanonical reference as real (issue 14), and still catches invented ones. */
import { describe, expect, it } from "vitest";
import { badLinks, inventedReferences } from "../../evals/answers/checks.js";
import { convertLinks } from "../../src/scripture/links.js";
import { findReferences } from "../../src/scripture/references.js";

describe("the answer eval and the deuterocanon", () => {
  it("when an answer cites the deuterocanon, then nothing is reported as invented", () => {
    const text = "Prayer for the dead rests on 2 Maccabees 12:45; see also Sirach 2:1, Tobit 4:15, Wisdom 7:26, 4 Maccabees 1:1 and 1 Macabeos 2:1.";
    expect(inventedReferences(text, findReferences(text))).toEqual([]);
  });

  it("when a deuterocanonical chapter or verse does not exist, then it is still invented", () => {
    const text = "See 2 Maccabees 12:46, Sirach 52:1 and Susanna 1:70.";
    expect(inventedReferences(text, findReferences(text))).toEqual(["2 Maccabees 12:46", "Sirach 52:1", "Susanna 1:70"]);
  });

  it("when the service links a deuterocanonical reference, then the link is good", () => {
    const answer = convertLinks("Read 2 Maccabees 12:45, 4 Maccabees 18:24 and Psalm 151:1.");
    const links = [...answer.matchAll(/\[([^\]]+)\]\((\/read\/[^)]+)\)/g)].map((m) => ({ label: m[1] ?? "", target: m[2] ?? "" }));
    expect(links.map((link) => link.target)).toEqual(["/read/2MA/12?verse=45", "/read/4MA/18?verse=24", "/read/PS2/1?verse=1"]);
    expect(badLinks(links, findReferences)).toEqual([]);
    expect(badLinks([{ label: "Sirach 2:1", target: "/read/TOB/2?verse=1" }], findReferences)).toHaveLength(1);
  });
});
