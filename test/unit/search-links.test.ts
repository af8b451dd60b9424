import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { readerUrl } from "../../src/scripture/links.js";
import { ScriptureSearch } from "../../src/scripture/search/search.js";

const bibles = loadBibleLibrary();

describe("search result links (issue 22): each highlight opens its verse, built like the result's url", () => {
  it("when PUBLIC_BASE_URL and a non-default bible_id are set, then every highlight's url is its verse's absolute reader url with bible_id", async () => {
    const search = new ScriptureSearch(bibles, undefined, "https://bible.example.org");
    const { results, lowConfidence } = await search.search({ query: "John 3:16-17", bibleId: "eng-kjv", limit: 1 });
    expect(lowConfidence).toBe(false);
    expect(results[0]!.url).toBe("https://bible.example.org/read/JHN/3?bible_id=eng-kjv");
    expect(results[0]!.highlights.map((h) => h.url)).toEqual([
      "https://bible.example.org/read/JHN/3?verse=16&bible_id=eng-kjv",
      "https://bible.example.org/read/JHN/3?verse=17&bible_id=eng-kjv",
    ]);
    // The one builder (links owns it): the same reference and options give the same url.
    expect(results[0]!.highlights[0]!.url).toBe(readerUrl({ book: "JHN", chapter: 3, verseStart: 16 }, { bibleId: "eng-kjv", baseUrl: "https://bible.example.org" }));
  });

  it("when the translation is the default and no base url is set, then highlight urls are root-relative without bible_id", async () => {
    const { results } = await new ScriptureSearch(bibles).search({ query: "Romans 8:28", bibleId: "eng-web", limit: 1 });
    expect(results[0]!.highlights).toEqual([{ verse: 28, text: expect.stringContaining("all things work together"), url: "/read/ROM/8?verse=28" }]);
  });

  it("when a deuterocanonical chapter is read from eng-web for the KJV, then its highlights' urls open eng-web, as the result's url does", async () => {
    const { results } = await new ScriptureSearch(bibles).search({ query: "Tobit 4:15", bibleId: "eng-kjv", limit: 1 });
    expect(results[0]!.url).toBe("/read/TOB/4");
    expect(results[0]!.highlights[0]!.url).toBe("/read/TOB/4?verse=15");
  });
});
