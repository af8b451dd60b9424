import { beforeAll, describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { alignNames, englishName, glossNames, loadNames, namesToJson, type Names } from "../../src/scripture/search/names.js";

/** Names learnt from the real RV1909 and WEB, verse by verse. */
let names: Names;
beforeAll(() => {
  const library = loadBibleLibrary({ ids: ["eng-web", "spa-rv1909"] });
  names = alignNames(library.get("spa-rv1909")!, library.get("eng-web")!);
});

describe("names across languages, aligned from the parallel verses", () => {
  it("pairs a Spanish name with the English one that shares its verses", () => {
    expect(englishName("moises", names)).toBe("moses");
    expect(englishName("josue", names)).toBe("joshua");
    expect(englishName("pedro", names)).toBe("peter");
    expect(englishName("salomon", names)).toBe("solomon");
  });

  it("reads a modern spelling the 1909 text spells otherwise as the name one letter away", () => {
    // The RV1909 spells her "Ruth": "Rut" is in neither text.
    expect(names.spanishWords.has("rut")).toBe(false);
    expect(englishName("rut", names)).toBe("ruth");
    expect(englishName("goliat", names)).toBe("goliath");
  });

  it("leaves the Spanish text's own words and sentence openers alone", () => {
    for (const w of ["era", "fue", "quien", "entonces", "historia", "amor", "torre"]) expect(englishName(w, names)).toBeUndefined();
  });

  it("the shipped alignment is the one the texts give today (rerun npm run ingest:expansion when it is not)", () => {
    expect(namesToJson(loadNames()!)).toEqual(namesToJson(names));
  });

  it("glosses only the names of a question, keeping its other words", () => {
    expect(glossNames("¿Quién fue Moisés?", names)).toBe("quien fue moses");
    expect(glossNames("el amor de dios", names)).toBe("el amor de god");
    expect(glossNames("el amor", names)).toBe("el amor");
  });
});
