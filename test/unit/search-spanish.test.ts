import { describe, expect, it } from "vitest";
import { glossSpanish } from "../../src/scripture/search/spanish.js";
import { matchConcepts } from "../../src/scripture/search/concepts.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";

describe("Spanish questions glossed into English for ranking", () => {
  it.each([
    ["como puedo ser salvo", "how can be saved"],
    ["perdón", "forgiveness"],
    ["ansiedad", "anxiety"],
    ["¿Qué dice la Biblia sobre el divorcio?", "what says la bible about el divorce"],
    ["el amor de Dios", "el love de god"],
  ])("when the query is %j, then its English gloss is %j", (query, english) => {
    expect(glossSpanish(query)).toBe(english);
  });

  it.each(["the pastor said fear not", "solo faith", "dice and gambling", "the crucifixion of Jesus", "angel of the Lord", "how can I be saved"])(
    "when an English query holds a word also in the lexicon (%j), then it is left untouched",
    (query) => expect(glossSpanish(query)).toBe(query),
  );

  it("when a Spanish question is glossed, then it reaches the concept table and the English index terms", () => {
    expect(matchConcepts(glossSpanish("ansiedad")).map((m) => m.concept.id)).toContain("anxiety");
    expect(matchConcepts(glossSpanish("como puedo ser salvo")).map((m) => m.concept.id)).toContain("salvation");
    expect(tokenize(glossSpanish("perdón de los pecados"))).toEqual(expect.arrayContaining(["forgiv", "sin"]));
  });
});
