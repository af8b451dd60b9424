import { z } from "zod";
import { translationIds } from "../../src/scripture/translations.js";

/**
 * The run options a LangGraph Studio user may set, as the graph's context schema: Studio draws a field
 * for each. Every one is optional, and resolveContext (configuration.ts) fills what is missing with the
 * service's defaults, so this schema only describes; the contract's checks (validateInput) still judge
 * the values. Studio's server shows each default, as resolveContext has it, beside its field
 * (studio-http.ts), so the descriptions name none. The provider key is not among them: Studio's runs take it from the server's environment
 * (STUDIO_API_KEY), never from a field a run records.
 */
export const ChatContextSchema = z.object({
  model: z.string().optional().describe("The model to answer with, as the HTTP API's `model` (when left out: the server's DEFAULT_MODEL)."),
  theology: z.string().optional().describe("A theology slug, as GET /v1/theologies lists them, e.g. `reformed`, `catholic`."),
  profile: z.string().optional().describe("A reader profile slug, as GET /v1/profiles lists them, e.g. `new_believer`, `scholar`."),
  bibleId: z.enum(translationIds() as [string, ...string[]]).optional().describe("The translation quoted and linked, the API's `bible_id`."),
  maxWords: z.number().int().optional().describe("The answer's length in words at most, the API's `max_words`."),
  convertLinks: z.boolean().optional().describe("Scripture references become reader links."),
  verifyQuotes: z.boolean().optional().describe("Quotations of scripture are checked against the translation."),
  skipPreflight: z.boolean().optional().describe("Skip the preflight classifier and go straight to the agent."),
});
