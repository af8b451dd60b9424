import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GroundedText, groundingOptions, groundText, type GroundingOptions } from "../../graphs/chat/answer/grounding.js";
import { chatDeps } from "../../graphs/chat/runtime.js";
import { loadConfig } from "../../src/config.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { createLinkStream } from "../../src/scripture/links.js";
import { ScriptureSearch } from "../../src/scripture/search/search.js";
import { context } from "./harness.js";

const bibles = loadBibleLibrary();
const ANSWER =
  'God\'s love is shown in John 3:16: "For God so loved the world, that he gave his one and only Son." ' +
  "See also Romans 8:28 and Psalm 23.";

const options = (over: Partial<GroundingOptions> = {}): GroundingOptions => ({
  bible: bibles.get("eng-web"),
  bibleId: "eng-web",
  lang: "en",
  verifyQuotes: true,
  convertLinks: true,
  createLinkStream,
  ...over,
});

describe("groundText: quotation check, then links", () => {
  it("when PUBLIC_BASE_URL and a translation are set, then links and citation URLs are absolute and keep the translation", () => {
    const out = groundText(ANSWER, options({ bible: bibles.get("eng-kjv"), bibleId: "eng-kjv", baseUrl: "https://bible.example.org" }));
    expect(out.content).toBe(
      "God's love is shown in [John 3:16](https://bible.example.org/read/JHN/3?verse=16&bible_id=eng-kjv): " +
        '"For God so loved the world, that he gave his only begotten Son." See also ' +
        "[Romans 8:28](https://bible.example.org/read/ROM/8?verse=28&bible_id=eng-kjv) and " +
        "[Psalm 23](https://bible.example.org/read/PSA/23?bible_id=eng-kjv).",
    );
    expect(out.citations.map((c) => [c.url, c.status])).toEqual([
      ["https://bible.example.org/read/JHN/3?verse=16&bible_id=eng-kjv", "corrected"],
      ["https://bible.example.org/read/ROM/8?verse=28&bible_id=eng-kjv", "cited"],
      ["https://bible.example.org/read/PSA/23?bible_id=eng-kjv", "cited"],
    ]);
  });

  it("when a WEB answer quotes the KJV by name, then the request's grounding checks it against the KJV and the citation opens the KJV", () => {
    const deps = chatDeps(loadConfig({}), { prompts: undefined as never, bibles, search: undefined as never });
    const grounding = groundingOptions(context({ bibleId: "eng-web", convertLinks: true, verifyQuotes: true }), deps);
    const out = groundText('In 1 Corinthians 13:4 the KJV reads "Charity suffereth long, and is kind".', grounding);
    expect(out.content).toBe('In [1 Corinthians 13:4](/read/1CO/13?verse=4) the KJV reads "Charity suffereth long, and is kind".');
    expect(out.citations).toEqual([
      expect.objectContaining({ reference: "1 Corinthians 13:4", bible_id: "eng-kjv", url: "/read/1CO/13?verse=4&bible_id=eng-kjv", status: "verified", translation: "KJV" }),
    ]);
  });

  it("when links are off, then the text is checked but unlinked and the citations are still listed", () => {
    const out = groundText(ANSWER, options({ convertLinks: false }));
    expect(out.content).toBe(ANSWER.replace("one and only Son", "only born Son"));
    expect(out.citations.map((c) => c.reference)).toEqual(["John 3:16", "Romans 8:28", "Psalm 23"]);
  });

  it("when link conversion throws, then the rest goes out checked but plain and the fault is reported", () => {
    const errors: unknown[] = [];
    let calls = 0;
    const out = groundText(ANSWER, options({
      createLinkStream: () => ({ push: () => (++calls > 0 ? (() => { throw new Error("boom"); })() : ""), flush: () => "" }),
      onLinkError: (err) => errors.push(err),
    }));
    expect(out.content).toBe(ANSWER.replace("one and only Son", "only born Son"));
    expect(errors).toHaveLength(1);
    expect(out.citations.map((c) => [c.reference, c.status])).toEqual([["John 3:16", "corrected"]]);
  });

  it("when the answer is chunked anywhere, then the stream equals the whole text, citations included", () => {
    const whole = groundText(ANSWER, options());
    fc.assert(
      fc.property(fc.array(fc.nat(ANSWER.length), { maxLength: 20 }), (points) => {
        const cuts = [...new Set(points)].sort((a, b) => a - b);
        const grounded = new GroundedText(options());
        let out = "";
        let last = 0;
        for (const point of [...cuts, ANSWER.length]) {
          out += grounded.push(ANSWER.slice(last, point));
          last = point;
        }
        out += grounded.flush();
        expect(out).toBe(whole.content);
        expect(grounded.citations()).toEqual(whole.citations);
      }),
      { numRuns: 200 },
    );
  });
});

describe("PUBLIC_BASE_URL", () => {
  it("when it is set, then the chat runtime's dependencies carry it without a trailing slash; unset, they carry nothing", () => {
    const config = loadConfig({ PUBLIC_BASE_URL: "https://bible.example.org/" });
    expect(config.publicBaseUrl).toBe("https://bible.example.org");
    const parts = { prompts: undefined as never, bibles, search: undefined as never };
    expect(chatDeps(config, parts).publicBaseUrl).toBe("https://bible.example.org");
    expect(chatDeps(loadConfig({}), parts).publicBaseUrl).toBeUndefined();
    expect(() => loadConfig({ PUBLIC_BASE_URL: "bible.example.org" })).toThrow(/PUBLIC_BASE_URL/);
  });

  it("when it is set, then a search result's reader url is absolute too (the same builder)", async () => {
    const search = new ScriptureSearch(bibles, undefined, "https://bible.example.org");
    const { results, type } = await search.search({ query: "John 3", bibleId: "eng-kjv", limit: 1 });
    expect(type).toBe("direct_passage");
    expect(results[0]?.url).toBe("https://bible.example.org/read/JHN/3?bible_id=eng-kjv");
  });
});
