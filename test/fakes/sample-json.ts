/**
 * A plausible value for a JSON Schema, for the fake's default structured replies. It covers what
 * zod's toJSONSchema and hand-written tool schemas emit; anything odder yields null.
 */

type Schema = Record<string, unknown>;

/** Enum values the default script prefers, so that an unscripted preflight lets the question through. */
const PREFERRED_ENUM_VALUES = ["biblical_question", "passage_request"];

export interface SampleHints {
  /** Used for free-text string fields such as `query`. */
  userText: string;
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split("/")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Schema)[decodeURIComponent(part.replace(/~1/g, "/").replace(/~0/g, "~"))];
  }
  return typeof node === "object" && node !== null ? (node as Schema) : undefined;
}

function sampleString(key: string, schema: Schema, hints: SampleHints): string {
  if (/ref|passage|verse/i.test(key)) return "John 3:16";
  if (/book/i.test(key)) return "JHN";
  if (/reason|explanation|rationale/i.test(key)) return "The input asks about the Bible.";
  if (/lang/i.test(key)) return "en";
  if (schema.format === "date-time") return "2024-01-01T00:00:00Z";
  return hints.userText.slice(0, 200) || "grace";
}

function sampleNumber(key: string, schema: Schema): number {
  const min = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const max = typeof schema.maximum === "number" ? schema.maximum : undefined;
  let value = /confidence|score|probability/i.test(key) ? 0.9 : /limit|count|top/i.test(key) ? 5 : 1;
  if (/chapter|verse/i.test(key)) value = /chapter/i.test(key) ? 3 : 16;
  if (min !== undefined && value < min) value = min;
  if (max !== undefined && value > max) value = max;
  return schema.type === "integer" ? Math.round(value) : value;
}

function sample(root: Schema, schema: Schema, key: string, hints: SampleHints, depth: number): unknown {
  if (depth > 8) return null;
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    return target ? sample(root, target, key, hints, depth + 1) : null;
  }
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    return PREFERRED_ENUM_VALUES.find((v) => (schema.enum as unknown[]).includes(v)) ?? schema.enum[0];
  }
  if ("default" in schema && schema.default !== undefined) return schema.default;
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0) {
    const pick = union.find((s) => s.type !== "null") ?? union[0]!;
    return sample(root, pick, key, hints, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return sample(root, schema.allOf[0] as Schema, key, hints, depth + 1);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  const type = types.find((t) => t !== "null") ?? (schema.properties ? "object" : undefined);
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      for (const [name, prop] of Object.entries(props)) out[name] = sample(root, prop, name, hints, depth + 1);
      return out;
    }
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 1;
      const items = (schema.items ?? {}) as Schema;
      return Array.from({ length: Math.max(min, 1) }, () => sample(root, items, key, hints, depth + 1));
    }
    case "string":
      return sampleString(key, schema, hints);
    case "number":
    case "integer":
      return sampleNumber(key, schema);
    case "boolean":
      return false;
    default:
      return null;
  }
}

export function sampleFromSchema(schema: unknown, hints: SampleHints): unknown {
  if (typeof schema !== "object" || schema === null) return {};
  return sample(schema as Schema, schema as Schema, "", hints, 0);
}
