import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOLD_CHARS, readOpening, TurnGate } from "../../graphs/chat/answer/turn-gate.js";
import { CARE_EXTRA_WORDS, limitWords, SENTENCE_WINDOW, WordLimiter } from "../../graphs/chat/answer/word-limit.js";

const wordArb = fc.constantFrom("grace", "God", "love.", "John", "3:16", "faith!", "hope?", "(see", "it).", "“Amen.”", "peace,", "a", "Dios.", "¿qué?");
const spaceArb = fc.constantFrom(" ", "  ", "\n", "\n\n", " \t");
const textArb = fc
  .array(fc.tuple(wordArb, spaceArb), { maxLength: 120 })
  .chain((parts) => fc.tuple(fc.constantFrom("", " ", "\n"), fc.constant(parts.map(([w, s]) => w + s).join("")), fc.constantFrom("", "tail", "end.")))
  .map(([lead, body, tail]) => lead + body + tail);

/** Random cut points turn one text into the chunks a provider might send. */
function chunked(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

function streamed(chunks: string[], maxWords: number, care = false) {
  const limiter = new WordLimiter(maxWords, { care });
  let out = "";
  let cut = false;
  for (const chunk of chunks) {
    const r = limiter.push(chunk);
    out += r.text;
    if (r.cut) {
      cut = true;
      break;
    }
  }
  if (!cut) out += limiter.end();
  return { out, cut, limiter };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

describe("max_words limit", () => {
  it("when the text fits, then it is returned unchanged", () => {
    expect(limitWords("In the beginning God created.", 5)).toEqual({ text: "In the beginning God created.", cut: false });
  });

  it("when the text is too long, then it is cut at the last sentence end that fits", () => {
    const r = limitWords("Grace is a gift. Faith receives it. Love follows from it always.", 8);
    expect(r).toEqual({ text: "Grace is a gift. Faith receives it.", cut: true });
  });

  it("when no sentence ends in the last stretch, then it is cut at exactly max_words words", () => {
    const long = Array.from({ length: SENTENCE_WINDOW + 20 }, (_, i) => `w${i}`).join(" ");
    const r = limitWords(`Short start. ${long}`, SENTENCE_WINDOW + 5);
    expect(words(r.text)).toBe(SENTENCE_WINDOW + 5);
    expect(r.cut).toBe(true);
  });

  it("when streamed in any chunking, then the output equals the whole-text cut", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 90 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (text, max, cuts) => {
        const expected = limitWords(text, max);
        const got = streamed(chunked(text, cuts), max);
        expect(got.out).toBe(expected.text);
        expect(got.cut).toBe(expected.cut);
        expect(got.limiter.text).toBe(expected.text);
        expect(words(got.out)).toBeLessThanOrEqual(max);
      }),
      { numRuns: 3000 },
    );
  });

  it("when far from the limit, then words stream out before any sentence ends", () => {
    const limiter = new WordLimiter(300);
    expect(limiter.push("In the beginning ").text).toBe("In the beginning ");
    expect(limiter.push("God crea").text).toBe("God ");
  });

  it("when the cut is known, then push reports it as soon as the next word begins", () => {
    const limiter = new WordLimiter(3);
    expect(limiter.push("One two three").cut).toBe(false);
    const r = limiter.push(" four");
    expect(r.cut).toBe(true);
    expect(limiter.text).toBe("One two three");
  });
});

describe("max_words on an answer that needs care: the help line in the first two sentences is never cut", () => {
  const HELP =
    "I'm so sorry you are carrying this, and I'm glad you told me; you matter, and you do not have to face this night alone. " +
    "If you might act on these thoughts, please call or text 988 (the Suicide & Crisis Lifeline) now, or 911 if you are in danger. " +
    "Psalm 34:18 says the Lord is close to the broken-hearted. Would you tell me a little more about what happened today?";

  it("when max_words is 40 and the help line is in the second sentence, then both sentences survive and the rest is cut", () => {
    expect(words(HELP.split(". ")[0]!)).toBeLessThan(40);
    const plain = limitWords(HELP, 40);
    expect(plain.text).not.toContain("988");
    const care = limitWords(HELP, 40, { care: true });
    expect(care.cut).toBe(true);
    expect(care.text).toContain("call or text 988");
    expect(care.text.endsWith("if you are in danger.")).toBe(true);
    expect(care.text).not.toContain("Psalm 34:18");
  });

  it("when the first two sentences fit in max_words, then the care answer is cut exactly as any other", () => {
    expect(limitWords(HELP, 60, { care: true })).toEqual(limitWords(HELP, 60));
  });

  it("when a care answer has no sentence end, then it is bounded at max_words plus the care allowance", () => {
    const long = Array.from({ length: 300 }, (_, i) => `w${i}`).join(" ");
    const r = limitWords(long, 40, { care: true });
    expect(words(r.text)).toBe(40 + CARE_EXTRA_WORDS);
  });

  it("when a care answer is streamed in any chunking, then the output equals the whole-text cut", () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 90 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 30 }), (text, max, cuts) => {
        const expected = limitWords(text, max, { care: true });
        const got = streamed(chunked(text, cuts), max, true);
        expect(got.out).toBe(expected.text);
        expect(got.cut).toBe(expected.cut);
        expect(got.limiter.text).toBe(expected.text);
        expect(words(got.out)).toBeLessThanOrEqual(max + CARE_EXTRA_WORDS);
      }),
      { numRuns: 3000 },
    );
  });

  it("when the help line streams in pieces with max_words 40, then it goes out whole", () => {
    const pieces = HELP.match(/.{1,7}/gs)!;
    expect(streamed(pieces, 40, true).out).toBe(limitWords(HELP, 40, { care: true }).text);
  });
});

describe("turn gate", () => {
  it("when a turn may call tools, then short text is held until the turn ends", () => {
    const gate = new TurnGate();
    expect(gate.text("Let me check. ")).toBe("");
    expect(gate.end()).toBe("Let me check. ");
  });

  it("when a tool call follows held text, then the text is dropped", () => {
    const gate = new TurnGate();
    expect(gate.text("Let me look that up.")).toBe("");
    gate.toolCallSeen();
    expect(gate.end()).toBe("");
    expect(gate.isToolTurn).toBe(true);
  });

  it("when held text passes the threshold with a sentence end, then it streams and a later tool call is ignored", () => {
    const gate = new TurnGate();
    const long = `${"Grace is a gift. ".repeat(Math.ceil(HOLD_CHARS / 17))}`;
    expect(gate.text(long)).toBe(long);
    expect(gate.text("More.")).toBe("More.");
    gate.toolCallSeen();
    expect(gate.isToolTurn).toBe(false);
    expect(gate.isAnswerTurn).toBe(true);
  });

  it("when the turn cannot call tools, then text streams at once", () => {
    const gate = new TurnGate(false);
    expect(gate.text("In the")).toBe("In the");
  });

  it("when a turn after a tool round opens like an answer, then it streams from its first word; when it opens like chatter, then it is held", () => {
    const answer = new TurnGate("stream");
    expect(answer.text("Grace")).toBe("");
    expect(answer.text(" is")).toBe("Grace is");
    expect(answer.text(" free.")).toBe(" free.");
    const unsure = new TurnGate("stream");
    expect(unsure.text("I understand how")).toBe("");
    expect(unsure.text(" hard this is.")).toBe("I understand how hard this is.");
    for (const chatter of ["Let me look that up.", "I'll search for it. ", "One moment please", "Déjame buscar eso."]) {
      const gate = new TurnGate("stream");
      expect(gate.text(chatter), chatter).toBe("");
      gate.toolCallSeen();
      expect(gate.isToolTurn, chatter).toBe(true);
      expect(gate.end(), chatter).toBe("");
    }
    expect(readOpening("Let me explain. ")).toBe("chatter");
    expect(readOpening("Jesus said")).toBe("answer");
    expect(readOpening("I")).toBe("undecided");
  });

  it("when the turn follows a tool round, then text streams at once and a later tool call is ignored", () => {
    const gate = new TurnGate("stream");
    expect(gate.text("In the")).toBe("In the");
    gate.toolCallSeen();
    expect(gate.isToolTurn).toBe(false);
    expect(gate.calledTools).toBe(true);
  });

  it("when the turn after a tool round calls a tool before any text, then it is a tool turn", () => {
    const gate = new TurnGate("stream");
    expect(gate.text("")).toBe("");
    gate.toolCallSeen();
    expect(gate.isToolTurn).toBe(true);
    expect(gate.text("ignored")).toBe("");
  });

  it("when a held turn fails, then release() gives the text held so far, once; a tool turn gives none", () => {
    const gate = new TurnGate();
    expect(gate.text("Grace is a gift. It is free.")).toBe("");
    expect(gate.release()).toBe("Grace is a gift. It is free.");
    expect(gate.release()).toBe("");
    const tools = new TurnGate();
    tools.text("Let me look.");
    tools.toolCallSeen();
    expect(tools.release()).toBe("");
  });
});
