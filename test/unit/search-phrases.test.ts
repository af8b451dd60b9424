import { beforeAll, describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { BUILD_CHECK_VERSES, BUILD_STEP_MS, PhraseIndex, phraseWords } from "../../src/scripture/search/phrases.js";
import { phraseTranslations } from "../../src/scripture/search/search.js";

/** The phrase index over the real KJV, WEB and RV1909, as the service builds it. */
let index: PhraseIndex;
beforeAll(() => {
  const library = loadBibleLibrary();
  index = new PhraseIndex(library.ids().map((id) => library.get(id)!));
});

const where = (h: { book: string; chapter: number; verse: number }) => `${h.book} ${h.chapter}:${h.verse}`;

describe("the phrase index (words people remember)", () => {
  it("when a line is typed in the KJV's words, then its verse comes first and the KJV is the translation that holds it", () => {
    const hits = index.match("the battle is the LORD's");
    expect(where(hits[0]!)).toBe("1SA 17:47");
    expect(hits[0]!.bibleIds).toEqual(["eng-kjv"]);
    expect(hits[0]!.coverage).toBe(1);
    const lamp = index.match("thy word is a lamp unto my feet");
    expect(where(lamp[0]!)).toBe("PSA 119:105");
    expect(lamp[0]!.bibleIds).toContain("eng-kjv");
  });

  it("when the same line is typed in the WEB's words, then the WEB holds it", () => {
    const hits = index.match("the battle is Yahweh's");
    expect(where(hits[0]!)).toBe("1SA 17:47");
    expect(hits[0]!.bibleIds).toEqual(["eng-web"]);
    // "for the battle is not yours, but God's" holds part of the line: listed after the whole one.
    expect(hits.map(where)).toContain("2CH 20:15");
  });

  it("when the query is only common words, then the verse that words them is still found", () => {
    const hits = index.match("i can do all things");
    expect(where(hits[0]!)).toBe("PHP 4:13");
    expect(hits[0]!.bibleIds).toEqual(expect.arrayContaining(["eng-kjv", "eng-web"]));
  });

  it("when a two-word phrase is typed, then every verse holding it is a hit and the rest are not", () => {
    const hits = index.match("be still");
    expect(hits.map(where)).toContain("PSA 46:10");
    for (const h of hits) expect(h.run).toBe(2);
    expect(index.match("still be").map(where)).not.toContain("PSA 46:10");
  });

  it("when a Spanish line of the RV1909 is typed, then its verse is found", () => {
    expect(where(index.match("todo lo puedo en cristo que me fortalece")[0]!)).toBe("PHP 4:13");
  });

  it("when only part of a line matches, then the hit says how much, and a minimum coverage leaves it out", () => {
    const part = index.match("the battle is the LORD's").find((h) => where(h) === "2CH 20:15")!;
    expect(part.run).toBe(3);
    expect(part.coverage).toBeCloseTo(0.6);
    expect(part.words).toEqual(["the", "battle", "is"]);
    expect(index.match("the battle is the LORD's", 20, 1).map(where)).not.toContain("2CH 20:15");
  });

  it("when a query is one word, or only pairs as common as 'of the', then nothing is recalled", () => {
    expect(index.match("still")).toEqual([]);
    expect(index.match("of the")).toEqual([]);
  });

  it("folds case, accents, apostrophes and a final plural or possessive s alike on both sides", () => {
    expect(phraseWords("The LORD's lords, Moisés; Jesus’ less")).toEqual(["the", "lord", "lord", "moise", "jesus", "less"]);
  });
});

describe("the phrase index built in steps (as the service builds it, between requests)", () => {
  const library = loadBibleLibrary();
  const bibles = [library.get("eng-kjv")!, library.get("eng-web")!];
  const books = new Set(["1SA", "2CH", "PSA", "PHP"]);
  const queries = ["the battle is the LORD's", "the battle is Yahweh's", "be still", "i can do all things", "thy word is a lamp unto my feet"];

  it("when every step runs out of time, then the build yields in each of its three passes over the verses and builds the same index", async () => {
    const whole = new PhraseIndex(bibles, books);
    // A clock that is past the step's budget whenever it is read.
    let now = 0;
    let yields = 0;
    const stepped = await PhraseIndex.buildYielding(bibles, books, {
      clock: () => (now += BUILD_STEP_MS),
      yielded: async () => void yields++,
    });
    expect(stepped.verses).toBe(whole.verses);
    expect(stepped.verses).toBeGreaterThan(3000);
    // Scanning, counting and filing the pairs each yield every BUILD_CHECK_VERSES verses; the last
    // pass also converts the words, so nothing after it runs as one long piece.
    expect(yields).toBeGreaterThanOrEqual(3 * Math.floor(whole.verses / BUILD_CHECK_VERSES) - 3);
    for (const q of queries) expect(stepped.match(q)).toEqual(whole.match(q));
  });

  it("when no step runs out of time, then it does not yield at all and builds the same index", async () => {
    let yields = 0;
    const stepped = await PhraseIndex.buildYielding(bibles, books, { clock: () => 0, yielded: async () => void yields++ });
    expect(yields).toBe(0);
    const whole = new PhraseIndex(bibles, books);
    for (const q of queries) expect(stepped.match(q)).toEqual(whole.match(q));
  });
});

describe("the translations the phrase index reads", () => {
  it("reads the English ones only, so building the services reads them before the server listens and never the Spanish text", () => {
    const real = loadBibleLibrary();
    const read: string[] = [];
    const library = { ids: () => real.ids(), get: (id: string) => (read.push(id), real.get(id)) };
    const bibles = phraseTranslations(library);
    expect(bibles.map((b) => b.id).sort()).toEqual(["eng-kjv", "eng-web"]);
    expect(read.sort()).toEqual(["eng-kjv", "eng-web"]);
  });
});
