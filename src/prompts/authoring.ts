import { readFileSync } from "node:fs";
import type { PromptRegistry } from "./registry.js";
import type { PromptDoc, PromptProblem } from "./types.js";

/**
 * The authoring rules a theology or profile must meet beyond loading (npm run prompts:check runs them
 * with the loader's own checks; the service starts without them, so a rule can be tightened without
 * taking the API down). One place for each rule, each problem as `file:line: message`.
 */
export const AUTHORING_RULES = {
  theology: {
    words: { min: 230, max: 1100 },
    heading: "# Perspective: {{theology_name}}",
    sections: ["## Sources of authority", "## Emphases", "## Contested passages", "## Moral questions", "## Other traditions"],
    /** Scenarios in evals/scenarios that name the theology. */
    scenarios: 3,
  },
  profile: {
    words: { min: 230, max: 700 },
    heading: "# Reader: {{profile_name}}",
    sections: ["## What to assume", "## Vocabulary", "## Depth and shape", "## Length"],
    scenarios: 2,
  },
} as const;

/** Languages every theology and profile names itself in, besides English (front matter `name_<lang>`, `description_<lang>`). */
export const LISTING_LANGUAGES = ["es"] as const;

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Line (1-based) in the file of the first line starting with `prefix`, or of the front matter's end. */
function lineOf(lines: string[], test: (l: string) => boolean): number | undefined {
  const i = lines.findIndex(test);
  return i >= 0 ? i + 1 : undefined;
}

function frontMatterEnd(lines: string[]): number {
  const i = lines.findIndex((l, n) => n > 0 && /^---\s*$/.test(l));
  return i >= 0 ? i + 1 : 1;
}

/**
 * Problems with the shipped theologies and profiles: length (body words, comments excluded), the
 * heading and `##` sections authors are asked for, the Spanish listing name and description, a
 * `<!-- Sources: ... -->` comment in each theology naming the standard texts it was checked against,
 * and enough eval scenarios (counts by slug, when given).
 */
export function authoringProblems(
  registry: PromptRegistry,
  scenarioCounts?: { theology: Map<string, number>; profile: Map<string, number> },
): PromptProblem[] {
  const problems: PromptProblem[] = [];
  const check = (doc: PromptDoc, kind: "theology" | "profile") => {
    const rules = AUTHORING_RULES[kind];
    let text: string;
    try {
      text = readFileSync(doc.path, "utf8").replace(/\r\n/g, "\n");
    } catch {
      text = "";
    }
    const lines = text.split("\n");
    const end = frontMatterEnd(lines);
    const at = (line: number | undefined, message: string) => problems.push({ path: doc.path, line: line ?? end, message });

    const n = words(doc.body);
    if (n < rules.words.min || n > rules.words.max) {
      at(end + 1, `${n} words: keep a ${kind} between ${rules.words.min} and ${rules.words.max} words (comments and the Controls line not counted)`);
    }
    if (!doc.body.includes(rules.heading)) at(end + 1, `the text must contain the heading "${rules.heading}"`);
    for (const section of rules.sections) {
      if (!doc.body.split("\n").some((l) => l.startsWith(section))) at(end + 1, `missing section "${section}" (see prompts/README.md, "Writing well here")`);
    }
    for (const lang of LISTING_LANGUAGES) {
      if (!doc.localized?.[lang]) {
        at(lineOf(lines, (l) => l.startsWith("description:")), `missing name_${lang} and description_${lang}: the listings serve them with ?lang=${lang}`);
      }
    }
    if (kind === "theology" && !/<!--\s*Sources:[^]*?-->/.test(text)) {
      at(lineOf(lines, (l) => l.startsWith("## Moral questions")), 'no "<!-- Sources: ... -->" comment naming the standard texts this file was checked against');
    }
    const count = scenarioCounts?.[kind].get(doc.slug);
    if (scenarioCounts && (count ?? 0) < rules.scenarios) {
      at(lineOf(lines, (l) => l.startsWith("slug:")), `${count ?? 0} eval scenario(s) in evals/scenarios use this ${kind}; add at least ${rules.scenarios}`);
    }
  };
  for (const t of registry.theologies) check(t, "theology");
  for (const p of registry.profiles) check(p, "profile");
  return problems;
}
