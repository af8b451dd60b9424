import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import type { ChatContext } from "../../graphs/chat/configuration.js";
import { DEFAULT_BIBLE_ID, DEFAULT_MAX_WORDS } from "../../graphs/chat/contract.js";
import { classifierInput } from "../../graphs/chat/preflight-input.js";
import { classifyByRules } from "../../graphs/chat/preflight-rules.js";
import { buildSystemPrompt } from "../../graphs/chat/prompts.js";
import { HumanMessage } from "@langchain/core/messages";
import { parsePassageQuery } from "../scripture/references.js";
import { DEFAULT_PROMPTS_DIR, loadPrompts, type PromptRegistry } from "./loader.js";
import { formatProblem, PromptValidationError } from "./types.js";

const USAGE = `npm run prompts:show -- [--theology SLUG] [--profile SLUG] [--bible-id ID] [--max-words N] [--question TEXT] [--system TEXT] [--dir PROMPTS_DIR]

Prints the exact system prompt a chat request with these settings would send to the model, offline
(no key, no provider). The question matters: a message that reads as distress adds the care-first note.
Versions and the preflight rules' verdict on the question go to stderr, so stdout is only the prompt.`;

export interface ShowOptions {
  theology?: string;
  profile?: string;
  bibleId?: string;
  maxWords?: number;
  question?: string;
  /** The caller's own instructions (system_instructions / system messages). */
  system?: string;
}

/** The system prompt for these options, plus a note line for the author; throws on unknown slugs. */
export function showSystemPrompt(registry: PromptRegistry, opts: ShowOptions): { prompt: string; notes: string[] } {
  const theology = opts.theology ?? registry.defaultTheology.slug;
  const profile = opts.profile ?? registry.defaultProfile.slug;
  if (!registry.theology(theology)) throw new Error(`unknown theology "${theology}" (known: ${registry.theologies.map((t) => t.slug).join(", ")})`);
  if (!registry.profile(profile)) throw new Error(`unknown profile "${profile}" (known: ${registry.profiles.map((p) => p.slug).join(", ")})`);
  const question = opts.question ?? "";
  const ctx: ChatContext = {
    apiKey: "",
    model: "",
    preflightModel: "",
    theology,
    profile,
    bibleId: opts.bibleId ?? DEFAULT_BIBLE_ID,
    maxWords: opts.maxWords ?? DEFAULT_MAX_WORDS,
    convertLinks: true,
    verifyQuotes: true,
    skipPreflight: false,
    ...(opts.system ? { callerSystem: opts.system } : {}),
    modelParams: {},
  };
  const prompt = buildSystemPrompt({ prompts: registry, ctx, lastUserText: question });
  const notes = [`X-Prompt-Versions: ${registry.versions(theology, profile)}`];
  if (question) {
    const rule = classifyByRules(question, (t) => parsePassageQuery(t) !== null, { hasContext: classifierInput([new HumanMessage(question)]).hasContext });
    notes.push(`preflight rules: ${rule ?? "no rule settles it; the classifier model decides"}`);
  }
  return { prompt, notes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const { values } = parseArgs({
      options: {
        theology: { type: "string" },
        profile: { type: "string" },
        "bible-id": { type: "string" },
        "max-words": { type: "string" },
        question: { type: "string" },
        system: { type: "string" },
        dir: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      console.log(USAGE);
    } else {
      const maxWords = values["max-words"] === undefined ? undefined : Number(values["max-words"]);
      if (maxWords !== undefined && !(Number.isInteger(maxWords) && maxWords >= 1 && maxWords <= 2000)) throw new Error("--max-words must be an integer from 1 to 2000");
      const registry = loadPrompts(values.dir ? resolve(values.dir) : DEFAULT_PROMPTS_DIR);
      const { prompt, notes } = showSystemPrompt(registry, {
        ...(values.theology ? { theology: values.theology } : {}),
        ...(values.profile ? { profile: values.profile } : {}),
        ...(values["bible-id"] ? { bibleId: values["bible-id"] } : {}),
        ...(maxWords ? { maxWords } : {}),
        ...(values.question ? { question: values.question } : {}),
        ...(values.system ? { system: values.system } : {}),
      });
      for (const n of notes) console.error(n);
      console.log(prompt);
    }
  } catch (err) {
    if (err instanceof PromptValidationError) for (const p of err.problems) console.error(formatProblem(p));
    else console.error(`prompts:show: ${(err as Error).message}\n\n${USAGE}`);
    process.exitCode = 1;
  }
}
