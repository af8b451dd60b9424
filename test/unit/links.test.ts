import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertLinks, createLinkStream, readerUrl } from "../../src/scripture/links.js";
import { ANSWERS, FRAGMENTS } from "../fixtures/references-answers.js";

function streamed(chunks: readonly string[]): { out: string; maxHeld: number } {
  const stream = createLinkStream();
  let out = "";
  let maxHeld = 0;
  for (const chunk of chunks) {
    out += stream.push(chunk);
    maxHeld = Math.max(maxHeld, stream.held);
  }
  return { out: out + stream.flush(), maxHeld };
}

function cut(text: string, points: readonly number[]): string[] {
  const cuts = [...new Set(points.map((point) => point % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let last = 0;
  for (const point of [...cuts, text.length]) {
    chunks.push(text.slice(last, point));
    last = point;
  }
  return chunks;
}

// Undo only the links the converter adds, to compare with the input.
const unlink = (text: string) => text.replace(/\[([^\]]*)\]\(\/read\/[^)]*\)/g, "$1");

describe("convertLinks: the contract's examples", () => {
  const cases: [string, string][] = [
    ["John 3:16", "[John 3:16](/read/JHN/3?verse=16)"],
    ["Romans 8:28-30", "[Romans 8:28-30](/read/ROM/8?verse=28-30)"],
    ["Psalm 23", "[Psalm 23](/read/PSA/23)"],
    ["Juan 3:16", "[Juan 3:16](/read/JHN/3?verse=16)"],
    ["John 22:5", "John 22:5"],
    ["Jude 2:1", "Jude 2:1"],
    ["Romans 8:28, 31", "[Romans 8:28](/read/ROM/8?verse=28), [31](/read/ROM/8?verse=31)"],
    ["Genesis 1:1-2:3", "[Genesis 1:1-2:3](/read/GEN/1?verse=1)"],
    ["John 3:16‑17", "[John 3:16‑17](/read/JHN/3?verse=16-17)"],
    ["God so loved (John 3:16).", "God so loved ([John 3:16](/read/JHN/3?verse=16))."],
    ["Dios es amor (1 Juan 4:8).", "Dios es amor ([1 Juan 4:8](/read/1JN/4?verse=8))."],
    ["I have 2 cats at 3:16 pm.", "I have 2 cats at 3:16 pm."],
  ];
  it.each(cases)("when the answer is %j, then it becomes %j", (input, output) => {
    expect(convertLinks(input)).toBe(output);
  });
});

describe("convertLinks: what is never linked again", () => {
  const untouched = [
    "Read [John 3:16](/read/JHN/3?verse=16) first.",
    "Read [the verse](https://example.com/John/3/16) first.",
    "![John 3:16](/img/john-3-16.png)",
    "Type `John 3:16` in the box.",
    "Type ``John `3:16` `` in the box.",
    "An unclosed `John 3:16 code span runs to the line end.",
    "```\nJohn 3:16\nRomans 8:28\n```",
    "~~~md\nPsalm 23\n~~~",
    "Visit https://example.com/John 3:16 for more.",
    "Visit <https://example.com/Romans/8> now.",
    "See [Rom 8:28][1].\n\n[1]: /read/ROM/8?verse=28",
  ];
  it.each(untouched)("when the answer is %j, then no new link appears", (input) => {
    expect(convertLinks(input)).toBe(input);
  });

  it("when code ends, then references after it are linked again", () => {
    expect(convertLinks("`code` John 3:16\n```\nPsalm 23\n```\nPsalm 23")).toBe(
      "`code` [John 3:16](/read/JHN/3?verse=16)\n```\nPsalm 23\n```\n[Psalm 23](/read/PSA/23)",
    );
  });

  it("when a bracket holds exactly one reference, then the brackets become the link", () => {
    expect(convertLinks("See [John 3:16].")).toBe("See [John 3:16](/read/JHN/3?verse=16).");
    expect(convertLinks("See [see John 3:16].")).toBe("See [see [John 3:16](/read/JHN/3?verse=16)].");
    expect(convertLinks("See [John 22:5].")).toBe("See [John 22:5].");
  });

  it("when the answer is converted twice, then the second pass changes nothing", () => {
    for (const answer of ANSWERS) expect(convertLinks(convertLinks(answer))).toBe(convertLinks(answer));
  });
});

describe("readerUrl and link options", () => {
  const john = { book: "JHN", chapter: 3, verseStart: 16 };
  const psalm = { book: "PSA", chapter: 23 };
  it.each([
    [john, {}, "/read/JHN/3?verse=16"],
    [john, { bibleId: "eng-web" }, "/read/JHN/3?verse=16"],
    [john, { bibleId: "eng-kjv" }, "/read/JHN/3?verse=16&bible_id=eng-kjv"],
    [psalm, { bibleId: "spa-rv1909" }, "/read/PSA/23?bible_id=spa-rv1909"],
    [john, { baseUrl: "https://bible.example.org" }, "https://bible.example.org/read/JHN/3?verse=16"],
    [psalm, { baseUrl: "https://example.org/bible/", bibleId: "eng-kjv" }, "https://example.org/bible/read/PSA/23?bible_id=eng-kjv"],
  ] as const)("when the passage is %j with options %j, then the URL is %s", (ref, options, url) => {
    expect(readerUrl(ref, options)).toBe(url);
  });

  it("when a translation and a base URL are given, then every link carries them, streamed or whole", () => {
    const options = { bibleId: "eng-kjv", baseUrl: "https://bible.example.org" };
    const text = "Read John 3:16 and [Psalm 23] today.";
    const expected =
      "Read [John 3:16](https://bible.example.org/read/JHN/3?verse=16&bible_id=eng-kjv) and " +
      "[Psalm 23](https://bible.example.org/read/PSA/23?bible_id=eng-kjv) today.";
    expect(convertLinks(text, options)).toBe(expected);
    const stream = createLinkStream(options);
    expect([...text].map((ch) => stream.push(ch)).join("") + stream.flush()).toBe(expected);
    expect(convertLinks(expected, options)).toBe(expected);
  });

  it("when references are linked, then the stream lists them in order", () => {
    const stream = createLinkStream();
    stream.push("See Romans 8:28, 31 and [John 3:16], not `Psalm 23`.");
    stream.flush();
    expect(stream.linked).toEqual([
      { book: "ROM", chapter: 8, verseStart: 28 },
      { book: "ROM", chapter: 8, verseStart: 31 },
      { book: "JHN", chapter: 3, verseStart: 16 },
    ]);
  });
});

describe("createLinkStream", () => {
  it("when prose holds no possible reference, then every chunk comes back at once", () => {
    const stream = createLinkStream();
    expect(stream.push("God so loved the world that he gave ")).toBe("God so loved the world that he gave ");
    expect(stream.push("his only Son, ")).toBe("his only Son, ");
    expect(stream.held).toBe(0);
  });

  it("when a reference arrives in pieces, then only its tail is held until it cannot grow", () => {
    const stream = createLinkStream();
    expect(stream.push("Read Jo")).toBe("Read ");
    expect(stream.held).toBe(2);
    expect(stream.push("hn 3:")).toBe("");
    expect(stream.push("16")).toBe("");
    expect(stream.push(" t")).toBe("");
    expect(stream.push("oday.")).toBe("[John 3:16](/read/JHN/3?verse=16) today.");
    expect(stream.flush()).toBe("");
  });

  it("when a bracket stays open for long, then it is prose and the text behind it flows", () => {
    const stream = createLinkStream();
    const long = `[${"and so on ".repeat(25)}`;
    expect(stream.push(long)).toBe(long);
    expect(stream.push("John 3:16 ]")).toBe("[John 3:16](/read/JHN/3?verse=16) ]");
  });

  it("when a compact abbreviation arrives split across chunks, then it is linked as when whole", () => {
    const text = "Under \"Immortality\": 2Th 2:16; David in 1Ch 22, from Ge 37 to Ge 50. Not 2Pe, not `1Co 12`.";
    const expected =
      "Under \"Immortality\": [2Th 2:16](/read/2TH/2?verse=16); David in [1Ch 22](/read/1CH/22), " +
      "from [Ge 37](/read/GEN/37) to [Ge 50](/read/GEN/50). Not 2Pe, not `1Co 12`.";
    expect(convertLinks(text)).toBe(expected);
    for (const size of [1, 2, 3, 5, 7]) {
      const chunks = text.match(new RegExp(`[^]{1,${size}}`, "g")) ?? [];
      expect(streamed(chunks).out, `chunks of ${size}`).toBe(expected);
    }
    expect(streamed(["David in 1", "Ch 2", "2, from G", "e 37 t", "o Ge 5", "0."]).out).toBe(
      "David in [1Ch 22](/read/1CH/22), from [Ge 37](/read/GEN/37) to [Ge 50](/read/GEN/50).",
    );
  });

  it("when the answer ends inside a reference, then flush links it", () => {
    const stream = createLinkStream();
    expect(stream.push("The end is Revelation 22:2")).toBe("The end is ");
    expect(stream.flush()).toBe("[Revelation 22:2](/read/REV/22?verse=2)");
  });

  it.each(ANSWERS.map((answer, index) => [index, answer] as const))(
    "when answer %i is streamed one character at a time, then the output equals convertLinks and little is held",
    (_, answer) => {
      const { out, maxHeld } = streamed([...answer]);
      expect(out).toBe(convertLinks(answer));
      expect(maxHeld).toBeLessThanOrEqual(40);
    },
  );
});

describe("properties", () => {
  const answerText = fc
    .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom("", " ", "\n", ", ", ". ", "\n\n")), { maxLength: 10 })
    .map((parts) => parts.map(([fragment, joiner]) => fragment + joiner).join(""));
  const cutPoints = fc.array(fc.nat(), { maxLength: 30 });

  it("when an answer is chunked anywhere, then the stream equals convertLinks", () => {
    fc.assert(
      fc.property(answerText, cutPoints, (text, points) => {
        expect(streamed(cut(text, points)).out).toBe(convertLinks(text));
      }),
      { numRuns: 3000 },
    );
  }, 600_000);

  it("when any string over reference characters is chunked anywhere, then the stream equals convertLinks", () => {
    const alphabet = fc.constantFrom(..."JohnRmasPlSgJuáIi123456789:.,;- ‑–[]()`\nhttps:/wy".split(""));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 60 }).map((chars) => chars.join("")), cutPoints, (text, points) => {
        expect(streamed(cut(text, points)).out).toBe(convertLinks(text));
      }),
      { numRuns: 2000 },
    );
  }, 600_000);

  it("when the text is any unicode string, then conversion neither throws nor changes the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), cutPoints, (text, points) => {
        const whole = convertLinks(text);
        expect(streamed(cut(text, points)).out).toBe(whole);
        if (!text.includes("[")) expect(unlink(whole)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  }, 600_000);

  it("when links are added, then the text outside them is unchanged", () => {
    const plain = answerText.filter((text) => !/[[\]`]|https?:|www\./.test(text));
    fc.assert(
      fc.property(plain, (text) => {
        expect(unlink(convertLinks(text))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  }, 600_000);
});

// Outputs of main c373562 before segmentEnd decided stop characters, lowercase first letters and numbered-list
// numbers by character code: the same text whole and split at every point.
describe("convertLinks: segment ends decided by character code", () => {
  const cases: readonly (readonly [string, string])[] = [
  ["1. John 3:16 is good\n12. Romans 8:28 too","1. [John 3:16](/read/JHN/3?verse=16) is good\n12. [Romans 8:28](/read/ROM/8?verse=28) too"],
  ["Gen 12. Ex 3 and 1 Cor 13","[Gen 12](/read/GEN/12). [Ex 3](/read/EXO/3) and [1 Cor 13](/read/1CO/13)"],
  ["x|Gen 1:1 (Ps 23) [Ro 12] <b>Jn 3:16</b> `Ps 1` a\r\nRo 8","x|[Gen 1:1](/read/GEN/1?verse=1) ([Ps 23](/read/PSA/23)) [Ro 12](/read/ROM/12) <b>[Jn 3:16](/read/JHN/3?verse=16)</b> `Ps 1` a\r\n[Ro 8](/read/ROM/8)"],
  ["Éxodo 20 y ángel Éxodo 3, éxodo 4","[Éxodo 20](/read/EXO/20) y ángel [Éxodo 3](/read/EXO/3), éxodo 4"],
  ["Juan 3:16 y 17; capítulo 3 de Juan","[Juan 3:16](/read/JHN/3?verse=16) y [17](/read/JHN/3?verse=17); capítulo 3 de Juan"],
  ["Genesisgenesisgenesisgenesisgenesis1 John 3:16","Genesisgenesisgenesisgenesisgenesis1 [John 3:16](/read/JHN/3?verse=16)"],
  ["see www.bible.com/John3 and https://x.org/Ro_8 then John 3:16","see www.bible.com/John3 and https://x.org/Ro_8 then [John 3:16](/read/JHN/3?verse=16)"],
  ["Song of Songs 2:1, through Psalm 23 to Ps 24 thru Ps 25","[Song of Songs 2:1](/read/SNG/2?verse=1), through [Psalm 23](/read/PSA/23) to [Ps 24](/read/PSA/24) thru [Ps 25](/read/PSA/25)"],
  ["Ñu 3 Ńahum 1 ßeta 2 Nahum 1","Ñu 3 Ńahum 1 ßeta 2 Nahum 1"],
  ];
  it.each(cases)("%j", (text, expected) => {
    expect(convertLinks(text)).toBe(expected);
    for (let at = 1; at < text.length; at++) expect(streamed([text.slice(0, at), text.slice(at)]).out).toBe(expected);
  });
});
