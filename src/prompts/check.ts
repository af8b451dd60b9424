import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_PROMPTS_DIR, loadPrompts } from "./loader.js";
import { displayPath } from "./read-dir.js";
import { formatProblem, PromptValidationError } from "./types.js";

/** `npm run prompts:check [dir]`: the same validation the service runs at start-up, as an exit code. */
export function checkPrompts(dir: string): { ok: boolean; lines: string[] } {
  try {
    const r = loadPrompts(dir);
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
  const { ok, lines } = checkPrompts(arg ? resolve(arg) : DEFAULT_PROMPTS_DIR);
  for (const line of lines) (ok ? console.log : console.error)(line);
  process.exitCode = ok ? 0 : 1;
}
