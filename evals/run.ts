import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { findReferences } from "../src/scripture/references.js";
import { formatGrounding, formatTable, runScenarios } from "./answers/runner.js";
import { loadScenarios, SCENARIOS_DIR } from "./answers/scenario.js";

const USAGE = `npm run eval:answers [-- filter...]
  Runs evals/scenarios/*.yaml through the service's /v1/chat/completions and checks the answers.
  A filter keeps scenarios whose id, theology or profile contains it.
  EVAL_API_KEY      your provider key (required; sent to the service only)
  EVAL_BASE_URL     the service (default http://localhost:8080/v1)
  EVAL_MODEL        model name (default: the service's default)
  EVAL_CONCURRENCY  parallel requests (default 2)
  EVAL_SCENARIOS    scenario folder (default evals/scenarios)`;

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  const apiKey = env.EVAL_API_KEY;
  if (!apiKey) {
    console.error(`EVAL_API_KEY is not set.\n\n${USAGE}`);
    return 2;
  }
  const all = loadScenarios(env.EVAL_SCENARIOS ? resolve(env.EVAL_SCENARIOS) : SCENARIOS_DIR);
  const filters = argv.filter((a) => !a.startsWith("-"));
  const scenarios = filters.length === 0 ? all : all.filter((s) => filters.some((f) => [s.id, s.theology, s.profile].some((v) => v.includes(f))));
  if (scenarios.length === 0) {
    console.error(`no scenario matches ${filters.join(" ")}`);
    return 2;
  }
  const baseURL = env.EVAL_BASE_URL ?? "http://localhost:8080/v1";
  console.log(`${scenarios.length} scenario(s) against ${baseURL}`);
  let versionsShown = false;
  const results = await runScenarios({
    baseURL,
    apiKey,
    model: env.EVAL_MODEL,
    scenarios,
    findReferences,
    concurrency: Number(env.EVAL_CONCURRENCY ?? 2) || 2,
    onResult: (r) => {
      if (r.promptVersions && !versionsShown) {
        versionsShown = true;
        console.log(`prompt versions (first answer): ${r.promptVersions}`);
      }
      process.stdout.write(r.error ? "E" : r.report?.pass ? "." : "F");
    },
  });
  console.log(`\n\n${formatTable(results)}\n\n${formatGrounding(results)}`);
  return results.every((r) => r.report?.pass) ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2), process.env).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 2;
    },
  );
}
