import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { checkQuotes } from "../../src/scripture/quotes/index.js";

const library = loadBibleLibrary();
const check = (text: string, bibleId = "eng-web") => checkQuotes(text, { bible: library.get(bibleId)!, bibles: library });

interface Row {
  /** How models get it wrong (or right). */
  kind: string;
  bible?: string;
  text: string;
  out: string;
  /** [status, reference as written] per quotation. */
  quotes: [string, string][];
}

// Misquotations the way models make them, and faithful quotations that must stand.
const TABLE: Row[] = [
  {
    kind: "faithful, reference before",
    text: 'As Romans 8:28 says, "all things work together for good for those who love God."',
    out: 'As Romans 8:28 says, "all things work together for good for those who love God."',
    quotes: [["verified", "Romans 8:28"]],
  },
  {
    kind: "faithful, parenthesis after, different case and punctuation",
    text: '"for god so loved the world that he gave his only born son" (John 3:16).',
    out: '"for god so loved the world that he gave his only born son" (John 3:16).',
    quotes: [["verified", "John 3:16"]],
  },
  {
    kind: "faithful with an ellipsis",
    text: '"For God so loved the world ... that whoever believes in him should not perish" (John 3:16).',
    out: '"For God so loved the world ... that whoever believes in him should not perish" (John 3:16).',
    quotes: [["verified", "John 3:16"]],
  },
  {
    kind: "another translation's wording (NIV for the WEB)",
    text: 'God\'s love is shown in John 3:16: "For God so loved the world, that he gave his one and only Son." Amen.',
    out: 'God\'s love is shown in John 3:16: "For God so loved the world, that he gave his only born Son." Amen.',
    quotes: [["corrected", "John 3:16"]],
  },
  {
    kind: "another translation's wording (KJV for the WEB)",
    text: 'Psalm 23:1 reads, "The LORD is my shepherd; I shall not want."',
    out: 'Psalm 23:1 reads, "Yahweh is my shepherd; I shall lack nothing."',
    quotes: [["corrected", "Psalm 23:1"]],
  },
  {
    kind: "merged verses under one reference",
    text: '"For God so loved the world, that he gave his only born Son. For God didn\'t send his Son into the world to judge the world" (John 3:16).',
    out: '"For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life" (John 3:16).',
    quotes: [["corrected", "John 3:16"]],
  },
  {
    kind: "paraphrase in quotation marks",
    text: 'Jesus said, "I am the way and the truth and the life; no one comes to the Father except through me" (John 14:6).',
    out: 'Jesus said, "I am the way, the truth, and the life. No one comes to the Father, except through me" (John 14:6).',
    quotes: [["corrected", "John 14:6"]],
  },
  {
    kind: "wrong reference for a right quotation: the reference is fixed, the words kept",
    text: '"I can do all things through Christ who strengthens me" (Philippians 4:12).',
    out: '"I can do all things through Christ who strengthens me" (Philippians 4:13).',
    quotes: [["corrected", "Philippians 4:13"]],
  },
  {
    kind: "John 3:16's words cited as John 3:17, the reference after them",
    text: '"For God so loved the world, that he gave his only born Son," says Jn 3:17.',
    out: '"For God so loved the world, that he gave his only born Son," says Jn 3:16.',
    quotes: [["corrected", "Jn 3:16"]],
  },
  {
    kind: "John 3:16's words cited as John 3:17, the reference already sent before them: the source follows",
    text: 'John 3:17 says: "For God so loved the world, that he gave his only born Son." Amen.',
    out: 'John 3:17 says: "For God so loved the world, that he gave his only born Son." (John 3:16) Amen.',
    quotes: [["corrected", "John 3:16"]],
  },
  {
    kind: "two verses' words under the first: the range",
    text: '"Jesus wept. The Jews therefore said, See how much affection he had for him!" (John 11:35).',
    out: '"Jesus wept. The Jews therefore said, See how much affection he had for him!" (John 11:35-36).',
    quotes: [["corrected", "John 11:35-36"]],
  },
  {
    kind: "the KJV named in a WEB answer: checked against the KJV",
    text: 'In 1 Corinthians 13:4 the KJV reads "Charity suffereth long, and is kind".',
    out: 'In 1 Corinthians 13:4 the KJV reads "Charity suffereth long, and is kind".',
    quotes: [["verified", "1 Corinthians 13:4"]],
  },
  {
    kind: "the KJV named, misquoted: corrected to the KJV's words",
    text: 'John 3:16 in the King James Version: "For God so loved the world, that he gave his one and only Son."',
    out: 'John 3:16 in the King James Version: "For God so loved the world, that he gave his only begotten Son."',
    quotes: [["corrected", "John 3:16"]],
  },
  {
    kind: "the RV1909 named in an English answer",
    text: 'Juan 3:16 en la RV1909 dice: «Porque de tal manera amó Dios al mundo».',
    out: 'Juan 3:16 en la RV1909 dice: «Porque de tal manera amó Dios al mundo».',
    quotes: [["verified", "Juan 3:16"]],
  },
  {
    kind: "the NIV named: a translation we do not ship, left as written and unverified",
    text: 'In John 3:16 the NIV has "his one and only Son, that whoever believes in him", the WEB "his only born Son".',
    out: 'In John 3:16 the NIV has "his one and only Son, that whoever believes in him", the WEB "his only born Son".',
    quotes: [["unverified", "John 3:16"], ["verified", "John 3:16"]],
  },
  {
    kind: "the ESV named in the parenthesis",
    text: '"For God so loved the world, that he gave his only Son" (John 3:16, ESV).',
    out: '"For God so loved the world, that he gave his only Son" (John 3:16, ESV).',
    quotes: [["unverified", "John 3:16"]],
  },
  {
    kind: "a Spanish quotation of an English verse",
    text: '«Porque de tal manera amó Dios al mundo» (Juan 3:16).',
    out: '«For God so loved the world, that he gave his only born Son, that whoever believes in him should not perish, but have eternal life» (Juan 3:16).',
    quotes: [["corrected", "Juan 3:16"]],
  },
  {
    kind: "a reference that does not exist",
    text: 'The saying "God helps those who help themselves" (Hezekiah 3:16) is not scripture, nor is "Blessed are the cheerful" (Matthew 5:49).',
    out: 'The saying God helps those who help themselves (Hezekiah 3:16) is not scripture, nor is Blessed are the cheerful (Matthew 5:49).',
    quotes: [["unquoted", "Hezekiah 3:16"], ["unquoted", "Matthew 5:49"]],
  },
  {
    kind: "KJV archaic forms modernised",
    bible: "eng-kjv",
    text: 'John 3:16 says, "For God so loved the world, that he gave his only begotten Son, that whosoever believes in him should not perish."',
    out: 'John 3:16 says, "For God so loved the world, that he gave his only begotten Son, that whosoever believes in him should not perish."',
    quotes: [["verified", "John 3:16"]],
  },
  {
    kind: "WEB wording for the KJV",
    bible: "eng-kjv",
    text: 'John 3:16 says, "For God so loved the world, that he gave his only born Son."',
    out: 'John 3:16 says, "For God so loved the world, that he gave his only begotten Son."',
    quotes: [["corrected", "John 3:16"]],
  },
  {
    kind: "Spanish, accents and the old á",
    bible: "spa-rv1909",
    text: 'Juan 3:16 dice: «Porque de tal manera amo Dios al mundo, que ha dado a su Hijo unigenito».',
    out: 'Juan 3:16 dice: «Porque de tal manera amo Dios al mundo, que ha dado a su Hijo unigenito».',
    quotes: [["verified", "Juan 3:16"]],
  },
  {
    kind: "Spanish paraphrase (modern wording for the RV1909)",
    bible: "spa-rv1909",
    text: 'Juan 3:16 dice: «Porque Dios amó tanto al mundo que dio a su Hijo único».',
    out: 'Juan 3:16 dice: «Porque de tal manera amó Dios al mundo, que ha dado á su Hijo unigénito».',
    quotes: [["corrected", "Juan 3:16"]],
  },
  {
    kind: "a chapter reference: the verse aimed at",
    text: 'Psalm 23 opens with "The LORD is my shepherd, I shall not want."',
    out: 'Psalm 23 opens with "Yahweh is my shepherd; I shall lack nothing."',
    quotes: [["corrected", "Psalm 23"]],
  },
  {
    kind: "a block quote attributed on its last line",
    text: "> For God so loved the world that he gave his one and only Son\n> — John 3:16\n\nMore.",
    out: "> For God so loved the world, that he gave his only born Son\n> — John 3:16\n\nMore.",
    quotes: [["corrected", "John 3:16"]],
  },
  {
    kind: "a block quote attributed by the line before",
    text: "Jesus says in John 14:6:\n\n> I am the way, the truth, and the life.\n\nAmen.",
    out: "Jesus says in John 14:6:\n\n> I am the way, the truth, and the life.\n\nAmen.",
    quotes: [["verified", "John 14:6"]],
  },
  {
    kind: "the translation's own quotation marks, unbalanced in the span, dropped",
    text: 'Jesus said to Nicodemus, "Don\'t marvel that I said to you, You must be born again" (John 3:7).',
    out: 'Jesus said to Nicodemus, "Don’t marvel that I said to you, You must be born anew" (John 3:7).',
    quotes: [["corrected", "John 3:7"]],
  },
];

describe("checkQuotes: the misquotation table", () => {
  it.each(TABLE.map((row) => [row.kind, row] as const))("when the quotation is %s, then the outcome is as listed", (_, row) => {
    const result = check(row.text, row.bible);
    expect(result.text).toBe(row.out);
    expect(result.quotes.map((q) => [q.status, q.reference])).toEqual(row.quotes);
  });
});

describe("checkQuotes: what is not a quotation of scripture", () => {
  const untouched = [
    'John 3:16 is often called "the gospel in a nutshell."',
    'Jesus told Nicodemus he must be "born again" (John 3:3).',
    'The word "agape" appears in John 3:16.',
    'He said "hello" to me.',
    'A 12" ruler and John 3:16.',
    'Type `"For God so loved" (John 3:16)` in the box.',
    '```\n"For God so loved the world and all" (John 3:16)\n```',
    '"Unclosed quotation with John 3:16 in it',
    "> Grace is not a doctrine but a life.\n> — Augustine\n",
    'Jesus taught the "Sermon on the Mount" (Matthew 5-7).',
    'Read the "Parable of the Good Samaritan" (Luke 10:25-37) again.',
    'John 3:16 is "the heart of the gospel."',
    'Many call it "The Love Chapter" (1 Corinthians 13).',
    'Under "Immortality" you will find 2Th 2:16.',
    'Under "Immortality" you will find Hezekiah 3:16.',
    'Nave\'s "Sermon on the Mount" entry lists Matthew 5:49.',
    'The word "agape" (Luke 17:36) is love.',
    'John 22:5 is often called "the gospel in a nutshell."',
    'Romans 8:28 does not say "all things are good"; it says they work together for good.',
    '"All things are good" is not what Romans 8:28 says.',
    'Romanos 8:28 no dice «todo es bueno para todos».',
  ];
  it.each(untouched)("when the answer is %j, then nothing changes", (text) => {
    const result = check(text);
    expect(result.text).toBe(text);
    expect(result.quotes.filter((q) => q.status !== "verified")).toEqual([]);
  });
});

describe("checkQuotes: outcomes", () => {
  it("when the words belong to another verse, then the outcome names their source and the reference the answer gave", () => {
    const [outcome] = check('"For God so loved the world, that he gave his only born Son" (John 3:17).').quotes;
    expect(outcome).toMatchObject({
      ref: { book: "JHN", chapter: 3, verseStart: 16 }, reference: "John 3:16", citedAs: "John 3:17", status: "corrected",
      quoted: "For God so loved the world, that he gave his only born Son",
    });
  });

  it("when no shipped translations are given, then a quotation in a named other one is left as written, unverified", () => {
    const result = checkQuotes('John 3:16 in the KJV: "For God so loved the world, that he gave his one and only Son."', { bible: library.get("eng-web")! });
    expect(result.text).toBe('John 3:16 in the KJV: "For God so loved the world, that he gave his one and only Son."');
    expect(result.quotes.map((q) => [q.status, q.translation])).toEqual([["unverified", { name: "KJV", id: "eng-kjv" }]]);
  });

  it("when a quotation is corrected, then the outcome keeps both the model's words and the exact text", () => {
    const [outcome] = check('John 3:16 says "For God so loved the world, that he gave his one and only Son".').quotes;
    expect(outcome).toMatchObject({
      ref: { book: "JHN", chapter: 3, verseStart: 16 },
      status: "corrected",
      original: "For God so loved the world, that he gave his one and only Son",
      quoted: "For God so loved the world, that he gave his only born Son",
    });
  });

  it("when checking twice, then the second pass changes nothing and verifies every quotation", () => {
    for (const row of TABLE) {
      const once = check(row.text, row.bible).text;
      const twice = check(once, row.bible);
      expect(twice.text).toBe(once);
      expect(twice.quotes.every((q) => q.status !== "corrected")).toBe(true);
    }
  });
});

describe("buildCitations", () => {
  it("when an answer quotes, misquotes and cites, then each passage appears once, in order, with its status", async () => {
    const { buildCitations } = await import("../../src/scripture/quotes/index.js");
    const { createLinkStream } = await import("../../src/scripture/links.js");
    const text =
      'John 3:16 says: "For God so loved the world, that he gave his one and only Son." See also Romans 8:28, 31 and ' +
      'Psalm 23, where "Yahweh is my shepherd" (Psalm 23:1). Again John 3:16.';
    const checked = check(text, "eng-kjv");
    const links = createLinkStream({ bibleId: "eng-kjv" });
    links.push(checked.text);
    links.flush();
    const citations = buildCitations(links.linked, checked.quotes, { bibleId: "eng-kjv", lang: "en", baseUrl: "https://bible.example.org" });
    expect(citations).toEqual([
      {
        reference: "John 3:16", book_id: "JHN", chapter: 3, verses: [16], bible_id: "eng-kjv",
        url: "https://bible.example.org/read/JHN/3?verse=16&bible_id=eng-kjv",
        quoted: "For God so loved the world, that he gave his only begotten Son.", status: "corrected",
      },
      { reference: "Romans 8:28", book_id: "ROM", chapter: 8, verses: [28], bible_id: "eng-kjv", url: "https://bible.example.org/read/ROM/8?verse=28&bible_id=eng-kjv", quoted: null, status: "cited" },
      { reference: "Romans 8:31", book_id: "ROM", chapter: 8, verses: [31], bible_id: "eng-kjv", url: "https://bible.example.org/read/ROM/8?verse=31&bible_id=eng-kjv", quoted: null, status: "cited" },
      { reference: "Psalm 23", book_id: "PSA", chapter: 23, verses: null, bible_id: "eng-kjv", url: "https://bible.example.org/read/PSA/23?bible_id=eng-kjv", quoted: null, status: "cited" },
      {
        reference: "Psalm 23:1", book_id: "PSA", chapter: 23, verses: [1], bible_id: "eng-kjv",
        url: "https://bible.example.org/read/PSA/23?verse=1&bible_id=eng-kjv", quoted: "The LORD is my shepherd", status: "corrected",
      },
    ]);
  });

  it("when a reference was fixed or a translation named, then the citation says so", async () => {
    const { buildCitations } = await import("../../src/scripture/quotes/index.js");
    const checked = check(
      '"I can do all things through Christ who strengthens me" (Philippians 4:12). The KJV of John 3:16 reads "For God so loved the world". ' +
        'Romans 8:28 in the NIV: "in all things God works for the good of those who love him".',
    );
    expect(buildCitations([], checked.quotes, { bibleId: "eng-web", lang: "en" })).toEqual([
      {
        reference: "Philippians 4:13", book_id: "PHP", chapter: 4, verses: [13], bible_id: "eng-web", url: "/read/PHP/4?verse=13",
        quoted: "I can do all things through Christ who strengthens me", status: "corrected", cited_as: "Philippians 4:12",
      },
      {
        reference: "John 3:16", book_id: "JHN", chapter: 3, verses: [16], bible_id: "eng-kjv", url: "/read/JHN/3?verse=16&bible_id=eng-kjv",
        quoted: "For God so loved the world", status: "verified", translation: "KJV",
      },
      {
        reference: "Romans 8:28", book_id: "ROM", chapter: 8, verses: [28], bible_id: "eng-web", url: "/read/ROM/8?verse=28",
        quoted: "in all things God works for the good of those who love him", status: "unverified", translation: "NIV",
      },
    ]);
  });

  it("when links are off, then quoted passages still appear, named in the translation's language", async () => {
    const { buildCitations } = await import("../../src/scripture/quotes/index.js");
    const checked = check("Juan 3:16 dice: «Porque de tal manera amó Dios al mundo».", "spa-rv1909");
    expect(buildCitations([], checked.quotes, { bibleId: "spa-rv1909", lang: "es" })).toEqual([
      { reference: "Juan 3:16", book_id: "JHN", chapter: 3, verses: [16], bible_id: "spa-rv1909", url: "/read/JHN/3?verse=16&bible_id=spa-rv1909", quoted: "Porque de tal manera amó Dios al mundo", status: "verified" },
    ]);
  });
});
