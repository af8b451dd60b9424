import { describe, expect, it } from "vitest";
import { AnswerStream } from "../../graphs/chat/answer/answer-stream.js";
import type { GroundingOptions } from "../../graphs/chat/answer/grounding.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { createLinkStream } from "../../src/scripture/links.js";

const bibles = loadBibleLibrary();

// A quotation misquoted across pieces (the check corrects it), then references split across pieces.
const PIECES = ['John 3:16 says: "For God so lo', "ved the world, that he gave his only Son.", '" Read John 3', ":16 and Roma", "ns 8:28-30. ", "Then read Psalm", " 23 slowly, ", "and pray it. ", "Grace is God's gift, ", "not our wage. ", "Rest in it today."];

/** Grounding with the quotation check and links on, counting what the link converter is handed. */
function grounding(pushes: string[]): GroundingOptions {
  return {
    bible: bibles.get("eng-web"),
    bibleId: "eng-web",
    lang: "en",
    verifyQuotes: true,
    convertLinks: true,
    createLinkStream: (options) => {
      const inner = createLinkStream(options);
      return {
        push: (chunk: string) => {
          pushes.push(chunk);
          return inner.push(chunk);
        },
        flush: () => inner.flush(),
        get linked() {
          return inner.linked;
        },
      };
    },
  };
}

function run(maxWords: number, listen: boolean) {
  const pushes: string[] = [];
  const emitted: string[] = [];
  const answer = new AnswerStream(maxWords, grounding(pushes), listen ? (text) => emitted.push(text) : null);
  let cutAt = -1;
  for (const [i, piece] of PIECES.entries()) {
    if (answer.push(piece)) {
      cutAt = i;
      break;
    }
  }
  answer.finish();
  const { content, citations, quotes } = answer.grounding;
  return { content, citations, quotes, text: answer.text, cut: answer.cut, cutAt, pushes, emitted };
}

describe("the answer stream without a listener", () => {
  it("when nothing reads the pieces, then the content, quotation outcomes, citations and cut equal the streamed run's", () => {
    for (const maxWords of [6, 12, 20, 300]) {
      const streamed = run(maxWords, true);
      const whole = run(maxWords, false);
      expect(whole.content).toBe(streamed.content);
      expect(whole.citations).toEqual(streamed.citations);
      expect(whole.quotes).toEqual(streamed.quotes);
      expect(whole.text).toBe(streamed.text);
      expect([whole.cut, whole.cutAt]).toEqual([streamed.cut, streamed.cutAt]);
      expect(streamed.emitted.join("")).toBe(streamed.content);
      expect(whole.emitted).toEqual([]);
    }
    expect(run(6, false).cut).toBe(true);
    const full = run(300, false);
    expect(full.quotes.map((q) => q.status)).toEqual(["corrected"]);
    expect(full.content).toContain("[Psalm 23](/read/PSA/23");
  });

  it("when nothing reads the pieces, then the limited text is grounded once, whole, at the end", () => {
    const streamed = run(300, true);
    const whole = run(300, false);
    expect(streamed.pushes.length).toBeGreaterThan(1);
    expect(whole.pushes).toHaveLength(1);
    expect(whole.pushes[0]).toContain("Rest in it today.");
  });
});
