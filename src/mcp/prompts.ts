import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { commentaryOn } from "../../graphs/chat/tools/commentary.js";
import { lookupPassage } from "../../graphs/chat/tools/lookup-passage.js";
import { ToolProblem } from "../../graphs/chat/tools/output.js";
import { wordStudy } from "../../graphs/chat/tools/word-study.js";
import { DEFAULT_TRANSLATION_ID } from "../scripture/translations.js";
import type { McpCatalog } from "./catalog.js";
import { boundedText } from "../limits.js";

const args = new WeakMap<McpCatalog, { reference: z.ZodString; translation: McpCatalog["translation"] }>();

/** Built once per catalog, like the tools' schemas: a server is built per request. */
function argsOf(c: McpCatalog) {
  let shape = args.get(c);
  if (!shape) {
    shape = { reference: boundedText("reference", "reference").min(1).describe('The passage: "John 21:15-17", "Psalm 23", "Romans 8:28".'), translation: c.translation };
    args.set(c, shape);
  }
  return shape;
}

/**
 * "Study a passage": the passage, a classic commentary on it and its original-language words, pulled by
 * the same functions as the tools and handed to the assistant as one message to study from. A bad
 * reference is a JSON-RPC error (invalid params) with the tool's own message.
 */
export function registerStudyPrompt(server: McpServer, c: McpCatalog) {
  server.registerPrompt(
    "study_passage",
    {
      title: "Study a passage",
      description: "Study a Bible passage: its text, what a classic commentary says about it, and the Greek or Hebrew words behind it.",
      argsSchema: argsOf(c),
    },
    async ({ reference, translation }) => {
      const bibleId = translation ?? DEFAULT_TRANSLATION_ID;
      const passage = await lookupPassage(c.deps, { reference, translation: bibleId }, { bibleId, label: c.label });
      if (passage instanceof ToolProblem) throw new McpError(ErrorCode.InvalidParams, passage.text);
      const [notes, words] = await Promise.all([
        commentaryOn(c.deps, { reference }, { preference: { prefer: [], avoid: [] }, label: c.label }),
        wordStudy(c.deps, { reference }, { bibleId, label: c.label }),
      ]);
      const part = (title: string, out: typeof notes) => `## ${title}\n${typeof out === "string" ? out : out.text}`;
      const text = [
        `Help me study ${reference}. Read the passage, then explain what it says in its context, what the commentary adds ` +
          "(name the commentary and its tradition), and which original words matter and why. Quote only the text below, " +
          "keep its links when you cite, and end with two or three questions for reflection.",
        part("Passage", passage),
        part("Commentary", notes),
        part("Original words", words),
      ].join("\n\n");
      return { description: `Study of ${reference}`, messages: [{ role: "user" as const, content: { type: "text" as const, text } }] };
    },
  );
}
