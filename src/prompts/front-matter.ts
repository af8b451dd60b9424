import { LineCounter, parseDocument, isMap, isScalar } from "yaml";
import { z } from "zod";
import { COMMENTARIES } from "../study/commentaries.js";
import { CANONS } from "../scripture/books.js";
import type { PromptKind, PromptProblem } from "./types.js";

export interface SplitFile {
  yaml: string;
  /** File line of the first YAML line (the line after the opening ---). */
  yamlLine: number;
  body: string;
  bodyLine: number;
}

/** Splits `---\nyaml\n---\nbody`. Text must already use \n line ends. */
export function splitFrontMatter(text: string): SplitFile | string {
  if (!text.startsWith("---\n")) return 'file must start with YAML front matter: a "---" line, the fields, and a closing "---" line';
  const close = /^---[ \t]*$/m;
  const rest = text.slice(4);
  const m = close.exec(rest);
  if (!m) return 'front matter has no closing "---" line';
  const yaml = rest.slice(0, m.index);
  const afterClose = rest.slice(m.index + m[0].length);
  const body = afterClose.startsWith("\n") ? afterClose.slice(1) : afterClose;
  const yamlLines = yaml === "" ? 0 : yaml.split("\n").length - 1;
  return { yaml, yamlLine: 2, body, bodyLine: 2 + yamlLines + 1 };
}

const slug = z
  .string({ error: "must be a string" })
  .regex(/^[a-z][a-z0-9_]*$/, { error: "must be lower-case letters, digits and underscores, starting with a letter (e.g. eastern_orthodox)" });
const text = z.string({ error: "must be a string" }).trim().min(1, { error: "must not be empty" });
const version = z
  .string({ error: 'must be a string such as "2026-11-22.1" (quote it if YAML reads it as a number or date)' })
  .trim()
  .min(1, { error: "must not be empty" });
const isDefault = z.boolean({ error: "must be true or false" });
const order = z.int({ error: "must be an integer" }).optional();

const commentaryIds = COMMENTARIES.map((c) => c.id) as [string, ...string[]];
const commentaryList = z.array(z.enum(commentaryIds, { error: `must list commentary ids (${commentaryIds.join(", ")})` }), {
  error: `must be a list such as [${commentaryIds[0]}]`,
});
/** Which commentaries the commentary tool reaches for first, and which it leaves out unless asked by name. */
const commentaries = z.strictObject({ prefer: commentaryList.optional(), avoid: commentaryList.optional() }, { error: "must be a map with prefer and/or avoid lists" }).optional();

// Which books the tradition's Bible has (src/scripture/books.ts): "catholic" and "orthodox" add the
// deuterocanon to search; absent means "protestant", the 66 books.
const canon = z.enum(CANONS, { error: `must be one of ${CANONS.join(", ")}` }).optional();

const commonSchema = z.strictObject({
  slug,
  name: text,
  description: text,
  // Spanish name and description for the listings (?lang=es); prompts:check requires them.
  name_es: text.optional(),
  description_es: text.optional(),
  version,
  is_default: isDefault,
  order,
});
// commentaries steers the commentary tool, which reads the theology only: a profile may not set it.
const theologySchema = commonSchema.extend({ canon, commentaries });
const profileSchema = commonSchema.extend({
  experience_level: z.int({ error: "must be an integer from 0 to 5" }).min(0, { error: "must be from 0 to 5" }).max(5, { error: "must be from 0 to 5" }),
});
const documentSchema = z.strictObject({ version, name: text.optional(), description: text.optional() });
const partialSchema = z.strictObject({ version: version.optional(), description: text.optional() });

export type FrontMatter = {
  slug?: string;
  name?: string;
  description?: string;
  name_es?: string;
  description_es?: string;
  version?: string;
  is_default?: boolean;
  order?: number;
  experience_level?: number;
  commentaries?: { prefer?: string[]; avoid?: string[] };
  canon?: (typeof CANONS)[number];
};

const SCHEMAS: Record<PromptKind, z.ZodType<FrontMatter>> = {
  theology: theologySchema,
  profile: profileSchema,
  guardrails: documentSchema,
  preflight: documentSchema,
  canned: documentSchema,
  partial: partialSchema,
};

/** Parses and checks the front matter of one file; every problem carries the line of the offending key. */
export function parseFrontMatter(
  split: SplitFile,
  kind: PromptKind,
  path: string,
): { data?: FrontMatter; keyLines: Map<string, number>; problems: PromptProblem[] } {
  const counter = new LineCounter();
  const doc = parseDocument(split.yaml, { lineCounter: counter, prettyErrors: false });
  const lineOf = (offset: number) => split.yamlLine + counter.linePos(offset).line - 1;
  const keyLines = new Map<string, number>();
  if (doc.errors.length > 0) {
    const yamlLines = split.yaml.split("\n");
    const seen = new Set<number>();
    const problems: PromptProblem[] = [];
    for (const e of doc.errors) {
      const line = lineOf(e.pos[0]);
      if (seen.has(line)) continue;
      seen.add(line);
      problems.push({ path, line, message: yamlErrorMessage(yamlLines[line - split.yamlLine] ?? "", e.message) });
    }
    return { keyLines, problems };
  }
  if (isMap(doc.contents)) {
    for (const pair of doc.contents.items) {
      if (isScalar(pair.key) && pair.key.range) keyLines.set(String(pair.key.value), lineOf(pair.key.range[0]));
    }
  } else if (doc.contents !== null) {
    return { keyLines, problems: [{ path, line: split.yamlLine, message: "front matter must be a map of fields (key: value lines)" }] };
  }
  const raw: unknown = doc.toJS() ?? {};
  const result = SCHEMAS[kind].safeParse(raw);
  if (result.success) return { data: result.data, keyLines, problems: [] };
  const problems: PromptProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys" && issue.path.length > 0) {
      const field = String(issue.path[0]);
      problems.push({ path, line: keyLines.get(field) ?? split.yamlLine, message: `front matter field "${field}" has unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}` });
      continue;
    }
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        problems.push({ path, line: keyLines.get(key) ?? split.yamlLine, message: `unknown front matter field "${key}" (allowed: ${allowedKeys(kind)})` });
      }
      continue;
    }
    const key = String(issue.path[0] ?? "");
    const line = keyLines.get(key);
    const message = line === undefined ? `front matter field "${key}" is missing` : `front matter field "${key}" ${issue.message}`;
    problems.push({ path, line: line ?? split.yamlLine, message });
  }
  return { keyLines, problems };
}

/** An unquoted value holding ": " (the usual slip in a description) reads to YAML as a nested field. */
const UNQUOTED_COLON = /^([A-Za-z_][\w-]*):[ \t]+([^"'|>\s].*?:\s.*)$/;

/** The YAML parser's message, or for an unquoted colon what happened and the line rewritten to fix it. */
function yamlErrorMessage(sourceLine: string, parserMessage: string): string {
  const m = UNQUOTED_COLON.exec(sourceLine.trimEnd());
  if (!m) return `front matter is not valid YAML: ${parserMessage.split("\n")[0]}`;
  const [, key, value] = m;
  // JSON's escaping is valid in a YAML double-quoted scalar, so the fix can be pasted as it is.
  return `the value of "${key}" contains ": ", which YAML reads as the start of another field: put the value in double quotes: ${key}: ${JSON.stringify(value)}`;
}

/** The front matter fields a kind of file may set (prompts/README.md documents each). */
export function frontMatterFields(kind: PromptKind): string[] {
  const schema = SCHEMAS[kind] as unknown as { shape: Record<string, unknown> };
  return Object.keys(schema.shape);
}

function allowedKeys(kind: PromptKind): string {
  return frontMatterFields(kind).join(", ");
}
