import { DEFAULT_FUSION, type FusionOptions } from "../../src/scripture/search/ranker.js";

/**
 * Fusion variants for `npm run eval:tune`, read from a JSON array of objects that override DEFAULT_FUSION
 * fields (`[{}, {"shortPrior": 0.8}]`). Only fields DEFAULT_FUSION has, with its value's type, are taken:
 * a misspelt knob would otherwise measure the default under a new name.
 */
export function parseVariants(json: string): Partial<FusionOptions>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    throw new Error(`variants: not JSON (${(err as Error).message}); expected an array such as [{}, {"shortPrior": 0.8}]`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('variants: expected a non-empty JSON array of objects, such as [{}, {"shortPrior": 0.8}]');
  return parsed.map((v, i) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(`variants[${i}]: expected an object of fusion fields`);
    for (const [key, value] of Object.entries(v)) {
      if (!Object.hasOwn(DEFAULT_FUSION, key)) throw new Error(`variants[${i}]: unknown fusion field "${key}" (known: ${Object.keys(DEFAULT_FUSION).join(", ")})`);
      const want = typeof DEFAULT_FUSION[key as keyof FusionOptions];
      if (typeof value !== want || (want === "number" && !Number.isFinite(value))) throw new Error(`variants[${i}].${key}: expected a ${want}, got ${JSON.stringify(value)}`);
    }
    return v as Partial<FusionOptions>;
  });
}

/** The fusion a variant ranks with: DEFAULT_FUSION's fields, then the variant's. */
export function fusionOf(variant: Partial<FusionOptions>, base: FusionOptions = DEFAULT_FUSION): FusionOptions {
  return { ...base, ...variant };
}
