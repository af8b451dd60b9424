import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { loadScenarios, SCENARIOS_DIR } from "../../evals/answers/scenario.js";
import { authoringProblems } from "./authoring.js";
import { DEFAULT_PROMPTS_DIR, loadPrompts } from "./loader.js";
import { displayPath } from "./read-dir.js";
import { formatProblem, PromptValidationError } from "./types.js";

/** How many eval scenarios name each theology and profile. */
function scenarioCounts(dir: string): { theology: Map<string, number>; profile: Map<string, number> } {
  const theology = new Map<string, number>();
  const profile = new Map<string, number>();
  for (const s of loadScenarios(dir)) {
    theology.set(s.theology, (theology.get(s.theology) ?? 0) + 1);
    profile.set(s.profile, (profile.get(s.profile) ?? 0) + 1);
  }
  return { theology, profile };
}

/**
 * `npm run prompts:check [dir]`: the validation the service runs at start-up, plus the authoring rules
 * (src/prompts/authoring.ts), as an exit code. Scenario counts are checked when a scenarios folder is
 * given (the shipped evals/scenarios for the shipped prompts).
 */
export function checkPrompts(dir: string, scenariosDir?: string): { ok: boolean; lines: string[] } {
  try {
    const r = loadPrompts(dir);
    const authoring = authoringProblems(r, scenariosDir ? scenarioCounts(scenariosDir) : undefined);
    if (authoring.length > 0) throw new PromptValidationError(authoring);
    const summary =
      `OK ${displayPath(dir)}: ${r.theologies.length} theologies, ${r.profiles.length} profiles, ` +
      `${r.cannedReplies.length} canned replies, ${r.partials.length} partials, guardrails, preflight`;
    return { ok: true, lines: [summary] };
  } catch (err) {
    if (err instanceof PromptValidationError) {
      return { ok: false, lines: [...err.problems.map(formatProblem), `${err.problems.length} problem(s) in ${displayPath(dir)}`] };
    }
    throw err;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const arg = process.argv[2];
  const dir = arg ? resolve(arg) : DEFAULT_PROMPTS_DIR;
  const scenarios = process.argv[3] ? resolve(process.argv[3]) : !arg && existsSync(SCENARIOS_DIR) ? SCENARIOS_DIR : undefined;
  const { ok, lines } = checkPrompts(dir, scenarios);
  for (const line of lines) (ok ? console.log : console.error)(line);
  process.exitCode = ok ? 0 : 1;
}
