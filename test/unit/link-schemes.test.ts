import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertLinks, createLinkStream } from "../../src/scripture/links.js";

/** Whether markdown text holds a link or image whose destination is not the reader or http(s). */
const UNSAFE_LINK = /(?<!\\)\[[^\]\n]*\]\(\s*<?(?=[A-Za-z][A-Za-z0-9+.-]*:)(?!https?:)[^)\s]|(?<!\\)\[[^\]\n]*\]:\s*<?(?=[A-Za-z][A-Za-z0-9+.-]*:)(?!https?:)\S|(?<!\\)<(?!https?:)[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>/i;

const UNSAFE = [
  "[click](javascript:alert(1))",
  "![x](data:text/html;base64,PHNjcmlwdD4=)",
  "[a]( JavaScript:alert(1))",
  "[a](<javascript:alert(1)>)",
  "[John 3:16](javascript:alert(1))",
  "[x]: javascript:alert(1)\n\nSee [x].",
  "<javascript:alert(1)>",
  "[a](vbscript:x)",
  "[a](file:///etc/passwd)",
  // No link ("<...>" holds no "<"), so the autolink inside it is what a renderer reads.
  "[](<<javascript:alert(1)>",
  "[a](<x<javascript:alert(1)>",
];
const SAFE = ["![p](/img/a.png)", "[rel](notes.html#x)", "[ok](https://example.org/a)", "[r](/read/JHN/3?verse=16)", "[h](http://x.org)", "<https://x.org>", "[x]: https://a.b\n"];

function streamed(text: string, cuts: number[]): string {
  const stream = createLinkStream();
  let out = "";
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out += stream.push(text.slice(at, cut));
    at = cut;
  }
  return out + stream.push(text.slice(at)) + stream.flush();
}

describe("links in an answer point only at the reader or at http(s) addresses", () => {
  it.each(UNSAFE)("when the model writes %j, then it stays text and no renderer reads a link", (text) => {
    const out = convertLinks(`Before ${text} after.`);
    expect(out).not.toMatch(UNSAFE_LINK);
    // The text stays, destination included: only the markup that would make a link is escaped.
    const destination = /(?:\]\(\s*<?|\]:\s*|<)([a-z]+:[^)>\s]*)/i.exec(text)![1]!;
    expect(out).toContain(destination);
  });

  it.each(SAFE)("when the model writes %j, then it is kept as written", (text) => {
    expect(convertLinks(text)).toBe(text);
  });

  it("when an unsafe link is streamed in any chunks, then the stream equals the whole-text conversion", () => {
    const text = fc.constantFrom(...UNSAFE, ...SAFE, " John 3:16 ", "\n", " [", "](", "<", ">");
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }).map((parts) => parts.join("")), fc.array(fc.nat(), { maxLength: 6 }), (answer, raw) => {
        const cuts = raw.map((n) => n % (answer.length + 1));
        expect(streamed(answer, cuts)).toBe(convertLinks(answer));
        expect(convertLinks(answer)).not.toMatch(UNSAFE_LINK);
      }),
      { numRuns: 500 },
    );
  });
});
