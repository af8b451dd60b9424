import { describe, expect, it } from "vitest";
import { AnswerStream } from "../../graphs/chat/answer/answer-stream.js";
import type { GroundingOptions } from "../../graphs/chat/answer/grounding.js";
import { createLinkStream } from "../../src/scripture/links.js";

const PIECES = ["Read John 3", ":16 and Roma", "ns 8:28-30. ", "Then read Psalm", " 23 slowly, ", "and pray it. ", "Grace is God's gift, ", "not our wage. ", "Rest in it today."];

/** Grounding with links on and no quotation check, counting what the link converter is handed. */
function grounding(pushes: string[]): GroundingOptions {
  return {
    bible: undefined,
    bibleId: "WEB",
    lang: "en",
    verifyQuotes: false,
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
  return { content: answer.grounding.content, citations: answer.grounding.citations, text: answer.text, cut: answer.cut, cutAt, pushes, emitted };
}

describe("the answer stream without a listener", () => {
  it("when nothing reads the pieces, then the content, citations and cut equal the streamed run's", () => {
    for (const maxWords of [6, 12, 300]) {
      const streamed = run(maxWords, true);
      const whole = run(maxWords, false);
      expect(whole.content).toBe(streamed.content);
      expect(whole.citations).toEqual(streamed.citations);
      expect(whole.text).toBe(streamed.text);
      expect([whole.cut, whole.cutAt]).toEqual([streamed.cut, streamed.cutAt]);
      expect(streamed.emitted.join("")).toBe(streamed.content);
      expect(whole.emitted).toEqual([]);
    }
    expect(run(6, false).cut).toBe(true);
    expect(run(300, false).content).toContain("[Psalm 23](/read/PSA/23?bible_id=WEB)");
  });

  it("when nothing reads the pieces, then the limited text is grounded once, whole, at the end", () => {
    const streamed = run(300, true);
    const whole = run(300, false);
    expect(streamed.pushes.length).toBeGreaterThan(1);
    expect(whole.pushes).toEqual([PIECES.join("")]);
  });
});
