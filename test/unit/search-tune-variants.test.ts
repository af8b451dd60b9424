import { describe, expect, it } from "vitest";
import { DEFAULT_FUSION } from "../../src/scripture/search/ranker.js";
import { fusionOf, parseVariants } from "../../evals/search/variants.js";

describe("eval:tune's fusion variants", () => {
  it("takes DEFAULT_FUSION's fields with their types and overrides only those", () => {
    const [plain, prior] = parseVariants('[{}, {"shortPrior": 0.8, "mode": "rrf"}]');
    expect(fusionOf(plain!)).toEqual(DEFAULT_FUSION);
    expect(fusionOf(prior!)).toEqual({ ...DEFAULT_FUSION, shortPrior: 0.8, mode: "rrf" });
    expect(fusionOf(prior!, { ...DEFAULT_FUSION, keyword: 0.5 }).keyword).toBe(0.5);
  });

  it("refuses a misspelt knob, a wrong type and what is not an array of objects", () => {
    expect(() => parseVariants('[{"shortprior": 0.8}]')).toThrow(/unknown fusion field "shortprior"/);
    expect(() => parseVariants('[{"prior": "0.3"}]')).toThrow(/variants\[0\]\.prior: expected a number/);
    expect(() => parseVariants('[{"prior": null}]')).toThrow(/expected a number/);
    expect(() => parseVariants('{"prior": 0.3}')).toThrow(/non-empty JSON array/);
    expect(() => parseVariants("[]")).toThrow(/non-empty JSON array/);
    expect(() => parseVariants("[3]")).toThrow(/variants\[0\]: expected an object/);
    expect(() => parseVariants("[{prior: 0.3}]")).toThrow(/not JSON/);
  });
});
