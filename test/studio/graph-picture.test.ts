import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { graph } from "../../graphs/chat/studio.js";
import { PICTURE_END, PICTURE_START, pictureBlock, withPicture } from "../../graphs/chat/picture.js";

const GRAPH_DOC = new URL("../../docs/graph.md", import.meta.url);
const README = new URL("../../README.md", import.meta.url);

describe("the graph picture in docs/graph.md (and the README while it shows one)", () => {
  it("when the compiled graph is drawn, then docs/graph.md holds exactly that drawing (else run npm run graph)", () => {
    const doc = readFileSync(GRAPH_DOC, "utf8");
    const mermaid = graph.getGraph().drawMermaid();
    expect(doc, "docs/graph.md graph picture is stale: run `npm run graph`").toContain(pictureBlock(mermaid));
    const readme = readFileSync(README, "utf8");
    if (readme.includes(PICTURE_START)) expect(readme, "README.md graph picture is stale: run `npm run graph`").toContain(pictureBlock(mermaid));
  });

  it("when the drawing is built, then every node and conditional branch of the graph is in it", () => {
    const mermaid = graph.getGraph().drawMermaid();
    for (const node of ["validateInput", "classifyPreflight", "respondCanned", "answerHousekeeping", "rejectInput", "callAgent", "callTools", "convertLinks"]) {
      expect(mermaid).toContain(`\t${node}(${node}`);
    }
    expect(mermaid).toContain("classifyPreflight -.-> rejectInput;");
    expect(mermaid).toContain("classifyPreflight -.-> answerHousekeeping;");
    expect(mermaid).toContain("classifyPreflight -.-> callAgent;");
    // The prefetched retrieval is callAgent's first step (prefetch.ts), written on the node.
    expect(mermaid).toMatch(/callAgent\(callAgent<hr\/>.*completed tool turn/);
    // What the preflight starts beside the classifier is written on it (node metadata, as Studio shows it).
    expect(mermaid).toMatch(/classifyPreflight\(classifyPreflight<hr\/>.*PREFLIGHT_MODE=parallel/);
    expect(mermaid).toContain("callAgent -.-> callTools;");
  });

  it("when a picture is replaced, then only the text between the markers changes and missing markers throw", () => {
    const doc = `intro\n${PICTURE_START}\nold\n${PICTURE_END}\noutro\n`;
    expect(withPicture(doc, "graph TD;\n")).toBe(`intro\n${pictureBlock("graph TD;")}\noutro\n`);
    expect(withPicture(withPicture(doc, "a"), "a")).toBe(withPicture(doc, "a"));
    expect(() => withPicture("no markers", "a")).toThrow(/markers/);
  });
});
