import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { z } from "zod";

export const SCENARIOS_DIR = fileURLToPath(new URL("../scenarios/", import.meta.url));

const pattern = z.string().refine(
  (p) => {
    try {
      new RegExp(p, "iu");
      return true;
    } catch {
      return false;
    }
  },
  { error: "must be a valid regular expression" },
);

const fields = {
  theology: z.string().regex(/^[a-z][a-z0-9_]*$/),
  profile: z.string().regex(/^[a-z][a-z0-9_]*$/),
  max_words: z.int().min(1).max(2000),
  language: z.enum(["en", "es"]),
  min_citations: z.int().min(0),
  must_include: z.array(pattern),
  must_not_include: z.array(pattern),
};

/** Earlier turns of the conversation, oldest first, sent before the question (e.g. a farewell after a disclosure). */
const turn = z.strictObject({ role: z.enum(["user", "assistant"]), content: z.string().trim().min(1) });

const scenarioSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_.-]*$/, { error: "ids are lower-case, digits, . _ -" }),
  question: z.string().trim().min(1),
  history: z.array(turn).min(1).optional(),
  ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])),
  bible_id: z.string().optional(),
  system_instructions: z.string().optional(),
}) as z.ZodType<Partial<Scenario> & { id: string; question: string }>;

const fileSchema = z.strictObject({
  defaults: z.strictObject(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()]))).optional(),
  scenarios: z.array(z.unknown()).min(1),
});

export interface Scenario {
  id: string;
  /** The file it came from, for messages. */
  file: string;
  question: string;
  /** Earlier turns, oldest first; the question is the last user message after them. */
  history?: { role: "user" | "assistant"; content: string }[];
  theology: string;
  profile: string;
  max_words: number;
  language: "en" | "es";
  min_citations: number;
  /** Case-insensitive regular expressions the answer must match. */
  must_include: string[];
  must_not_include: string[];
  bible_id?: string;
  /** Sent as the caller's `system_instructions` (e.g. an app trying to override the guardrails). */
  system_instructions?: string;
}

const BUILT_IN: Omit<Scenario, "id" | "file" | "question"> = {
  theology: "default",
  profile: "universal_explorer",
  max_words: 300,
  language: "en",
  min_citations: 1,
  must_include: [],
  must_not_include: [],
};

/** Reads every *.yaml under dir; a file holds `defaults` (optional) and a list of `scenarios`. Throws listing every problem. */
export function loadScenarios(dir: string = SCENARIOS_DIR): Scenario[] {
  const problems: string[] = [];
  const scenarios: Scenario[] = [];
  const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  for (const file of files) {
    const path = join(dir, file);
    let raw: unknown;
    try {
      raw = parse(readFileSync(path, "utf8"));
    } catch (err) {
      problems.push(`${path}: not valid YAML: ${(err as Error).message.split("\n")[0]}`);
      continue;
    }
    const parsed = fileSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((i) => `${path}: ${i.path.join(".")}: ${i.message}`));
      continue;
    }
    parsed.data.scenarios.forEach((item, index) => {
      const s = scenarioSchema.safeParse(item);
      if (!s.success) {
        problems.push(...s.error.issues.map((i) => `${path}: ${["scenarios", index, ...i.path].join(".")}: ${i.message}`));
        return;
      }
      scenarios.push({ ...BUILT_IN, ...(parsed.data.defaults as Partial<Scenario>), ...s.data, file: path } as Scenario);
    });
  }
  const seen = new Map<string, string>();
  for (const s of scenarios) {
    const first = seen.get(s.id);
    if (first) problems.push(`${s.file}: duplicate scenario id "${s.id}" (also in ${first})`);
    seen.set(s.id, s.file);
  }
  if (problems.length > 0) throw new Error(`Scenario files are invalid:\n${problems.join("\n")}`);
  return scenarios;
}
