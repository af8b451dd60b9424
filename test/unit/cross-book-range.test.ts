import { describe, expect, it } from "vitest";
import { lookupPassage } from "../../graphs/chat/tools/lookup-passage.js";
import { ToolProblem } from "../../graphs/chat/tools/output.js";
import { AppError } from "../../src/errors.js";
import { parseSearchRequest } from "../../src/http/search/schema.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { convertLinks } from "../../src/scripture/links.js";
import { crossBookProblem, findReferences, formatReference, parsePassageQuery } from "../../src/scripture/references.js";

const RANGES = ["John 3:16-Romans 3:23", "Genesis 1:1-Revelation 22:21", "Gen 1-Exod 2", "Juan 3:16-Romanos 3:23"];

describe("a range across books is refused, never cut to a passage of its first book", () => {
  it.each(RANGES)("when the query is %j, then it is no passage and the refusal names both books", (query) => {
    expect(parsePassageQuery(query)).toBeNull();
    expect(crossBookProblem(query)).toMatch(/runs from \S+ into \S+; a passage stays within one book/);
  });

  it("when a range stays in one book, then it is no cross-book problem and still reads", () => {
    expect(crossBookProblem("John 3:16-4:2")).toBeUndefined();
    expect(parsePassageQuery("John 3:16-4:2")).toEqual({ book: "JHN", chapter: 3, verseStart: 16, chapterEnd: 4, verseEnd: 2 });
  });

  it("when an answer names a range across books, then no link points at a cut passage", () => {
    expect(findReferences("Read John 3:16-Romans 3:23 today.").map((f) => f.ref)).not.toContainEqual({ book: "JHN", chapter: 3, verseStart: 16, verseEnd: 23 });
    expect(convertLinks("Read John 3:16-Romans 3:23 today.")).not.toContain("verse=16-23");
  });

  it("when lookup_passage (the agent's and MCP's tool) is asked for Genesis 1:1-Revelation 22:21, then it answers a problem, not Genesis 1-22", async () => {
    const bibles = loadBibleLibrary({ ids: ["eng-web"] });
    const out = await lookupPassage({ bibles, references: { parsePassageQuery, formatReference } }, { reference: "Genesis 1:1-Revelation 22:21" }, { bibleId: "eng-web" });
    expect(out).toBeInstanceOf(ToolProblem);
    expect((out as ToolProblem).text).toContain("from Genesis into Revelation");
  });

  it("when the search endpoint gets John 3:16-Romans 3:23, then it answers 400 with param query", () => {
    let err: unknown;
    try {
      parseSearchRequest({ query: "John 3:16-Romans 3:23" }, "query", ["eng-web"]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, type: "invalid_request_error", param: "query" });
    expect((err as AppError).message).toContain("from John into Romans");
  });
});
