import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.js";
import { parseSearchRequest } from "../../src/http/search/schema.js";

const ids = ["eng-web", "eng-kjv", "spa-rv1909"];
const parse = (raw: Record<string, unknown>, param: "q" | "query" = "q") => parseSearchRequest(raw, param, ids);
const fail = (raw: Record<string, unknown>, param: "q" | "query" = "q") => {
  try {
    parse(raw, param);
  } catch (err) {
    return err as AppError;
  }
  throw new Error("expected a validation error");
};

describe("search request validation", () => {
  it("when only the query is given, then defaults apply and the query is trimmed", () => {
    expect(parse({ q: "  love  " })).toEqual({ rawQuery: "  love  ", query: "love", bibleId: "eng-web", limit: 5 });
  });

  it.each([
    ["Old Testament", "OT"],
    ["new testament", "NT"],
    ["NEW  TESTAMENT", "NT"],
    ["ot", "OT"],
    ["New", "NT"],
  ])("when testament is %j, then %s", (testament, expected) => {
    expect(parse({ q: "x", testament }).testament).toBe(expected);
  });

  it.each([
    ["John", "JHN"],
    ["JHN", "JHN"],
    ["1 Corinthians", "1CO"],
    ["Salmos", "PSA"],
  ])("when book is %j, then %s", (book, expected) => {
    expect(parse({ q: "x", book }).book).toBe(expected);
  });

  it.each([
    [{ limit: "1" }, 1],
    [{ limit: 20 }, 20],
    [{ limit: " 7 " }, 7],
    [{ limit: "" }, 5],
  ])("when limit is %j, then %i", (extra, expected) => {
    expect(parse({ q: "x", ...extra }).limit).toBe(expected);
  });

  it.each([
    [{}, "invalid_request", "q"],
    [{ q: "" }, "invalid_request", "q"],
    [{ q: ["a", "b"] }, "invalid_parameter", "q"],
    [{ q: 3 }, "invalid_request", "q"],
    [{ q: "é".repeat(1001) }, "invalid_parameter", "q"],
    [{ q: "x", limit: 0 }, "invalid_parameter", "limit"],
    [{ q: "x", limit: 21 }, "invalid_parameter", "limit"],
    [{ q: "x", limit: 1.5 }, "invalid_parameter", "limit"],
    [{ q: "x", limit: "-1" }, "invalid_parameter", "limit"],
    [{ q: "x", limit: true }, "invalid_parameter", "limit"],
    [{ q: "x", testament: "Apocrypha" }, "invalid_parameter", "testament"],
    [{ q: "x", testament: 1 }, "invalid_parameter", "testament"],
    [{ q: "x", book: "Maccabees" }, "invalid_parameter", "book"],
    [{ q: "x", bible_id: "spa-niv-2022" }, "invalid_parameter", "bible_id"],
  ])("when %j, then 400 %s on %s", (raw, code, param) => {
    const err = fail(raw);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, type: "invalid_request_error", code, param });
  });

  it("when POST names its query 'query', then 'q' is accepted as the same parameter, and GET the reverse", () => {
    expect(parse({ q: "x" }, "query").query).toBe("x");
    expect(parse({ query: "x" }, "query").query).toBe("x");
    expect(parse({ query: "x" }).query).toBe("x");
    expect(fail({ q: "x", query: "y" }, "query")).toMatchObject({ code: "invalid_parameter", param: "q" });
    expect(fail({}, "query")).toMatchObject({ code: "invalid_request", param: "query" });
  });

  it("when the query is exactly 1000 characters, then it is accepted", () => {
    expect(parse({ q: "a".repeat(1000) }).query).toHaveLength(1000);
  });
});
