type Schema = Record<string, any>;

/**
 * A small JSON Schema (2020-12) checker covering the keywords our OpenAPI document uses; returns the
 * problems found, empty when the value conforms. Unknown keywords are ignored, as the spec allows.
 */
export function checkSchema(value: unknown, schema: Schema, root: Schema, path = "$"): string[] {
  if (schema.$ref) {
    const target = (schema.$ref as string).replace(/^#\//, "").split("/").reduce<any>((node, key) => node?.[key], root);
    if (!target) return [`${path}: unresolved ${schema.$ref}`];
    return checkSchema(value, target, root, path);
  }
  const errors: string[] = [];
  const sub = (s: Schema, v = value, p = path) => checkSchema(v, s, root, p);
  if (schema.allOf) for (const s of schema.allOf) errors.push(...sub(s));
  if (schema.anyOf && !schema.anyOf.some((s: Schema) => sub(s).length === 0)) errors.push(`${path}: matches no anyOf branch`);
  if (schema.oneOf && schema.oneOf.filter((s: Schema) => sub(s).length === 0).length !== 1) errors.push(`${path}: must match exactly one oneOf branch`);
  if ("const" in schema && value !== schema.const) errors.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${path}: ${JSON.stringify(value)} not in ${JSON.stringify(schema.enum)}`);
  if (schema.type) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => isType(value, t))) return [...errors, `${path}: expected ${types.join("|")}, got ${JSON.stringify(value)?.slice(0, 60)}`];
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) errors.push(`${path}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) errors.push(`${path}: longer than ${schema.maxLength}`);
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) errors.push(`${path}: does not match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${path}: more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((v, i) => errors.push(...sub(schema.items, v, `${path}[${i}]`)));
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props: Schema = schema.properties ?? {};
    for (const key of schema.required ?? []) if (!(key in obj)) errors.push(`${path}: missing ${key}`);
    for (const [key, v] of Object.entries(obj)) {
      if (props[key]) errors.push(...sub(props[key], v, `${path}.${key}`));
      else if (schema.additionalProperties === false) errors.push(`${path}: unexpected property ${key}`);
      else if (typeof schema.additionalProperties === "object") errors.push(...sub(schema.additionalProperties, v, `${path}.${key}`));
    }
  }
  return errors;
}

function isType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return typeof value === type;
  }
}
