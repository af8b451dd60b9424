import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { bookById } from "../../../src/scripture/books.js";
import { formatReference } from "../../../src/scripture/references.js";
import { COMMENTARIES, type CommentaryInfo } from "../../../src/study/commentaries.js";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { bounded, clip } from "./format.js";
import { plainLabel, ToolProblem, toolText, type RefLabel, type ToolOutput } from "./output.js";
import { studyOf } from "./study-source.js";
import { boundedText } from "../../../src/limits.js";

/** One commentary's sections stay readable next to the conversation. */
const MAX_SECTION_CHARS = 1_800;
const MAX_SECTIONS = 3;

function describe(info: CommentaryInfo): string {
  return `${info.name} by ${info.author} (${info.date}; ${info.tradition})`;
}

/** Its name, and the one line the guardrails' tool list gives it ({{tools}}, graphs/chat/tools/index.ts). */
export const COMMENTARY_TOOL = {
  name: "commentary",
  purpose: "classic commentaries on a passage (Matthew Henry, Spurgeon on the Psalms, Scofield), each from its own tradition",
} as const;

export const COMMENTARY_DESCRIPTION =
  "What a classic public-domain commentary says about a passage: Matthew Henry's Concise Commentary (whole Bible), Spurgeon's Treasury of David (Psalms), Scofield Reference Notes 1917 (dispensationalist). Each speaks from its own tradition; name it when you draw on it.";

const ids = COMMENTARIES.map((c) => c.id) as [string, ...string[]];

export const COMMENTARY_SCHEMA = z.object({
  reference: boundedText("reference", "reference").min(1).describe('The passage: "John 3:16", "Psalm 23:1", "Romans 9".'),
  commentary: z
    .enum(ids)
    .optional()
    .describe(`Only when the user asks for one by name: ${COMMENTARIES.map((c) => `${c.id} (${c.name})`).join(", ")}.`),
});

/** A theology's `commentaries:` front matter: which to offer first, which never. */
export type CommentaryPreference = { prefer: readonly string[]; avoid: readonly string[] };

/**
 * Classic commentaries on a passage (Matthew Henry's Concise, Spurgeon's Treasury of David on the
 * Psalms, the 1917 Scofield notes). Which one comes first follows the preference (the agent's: its
 * theology's); the result always names the commentary, its author and tradition.
 */
export async function commentaryOn(
  deps: Pick<ChatDeps, "references" | "study">,
  { reference, commentary }: z.infer<typeof COMMENTARY_SCHEMA>,
  { preference: pref, label = plainLabel }: { preference: CommentaryPreference; label?: RefLabel },
): Promise<ToolOutput> {
  const study = studyOf(deps);
  const ref = deps.references.parsePassageQuery(reference);
  if (!ref) return new ToolProblem(`"${reference}" is not a Bible reference I can read. Use forms like John 3:16 or Psalm 23:1.`);
  const bookName = bookById(ref.book)?.name ?? ref.book;
  const ranked = commentary
    ? COMMENTARIES.filter((c) => c.id === commentary)
    : [
        ...pref.prefer.map((id) => COMMENTARIES.find((c) => c.id === id)!).filter(Boolean),
        // Spurgeon wrote on the Psalms alone, so there he is the fuller voice.
        ...COMMENTARIES.filter((c) => c.scope !== "bible"),
        ...COMMENTARIES,
      ].filter((c, i, all) => all.indexOf(c) === i && !pref.avoid.includes(c.id));
  const chosen = ranked.find((c) => study.commentaries.covers(c.id, ref.book));
  if (!chosen) {
    const named = commentary ? COMMENTARIES.find((c) => c.id === commentary) : undefined;
    return named ? new ToolProblem(`${named.name} does not cover ${bookName}.`) : `No commentary available here covers ${bookName}.`;
  }
  const from = ref.verseStart;
  const to = ref.chapterEnd === undefined ? (ref.verseEnd ?? ref.verseStart) : 999;
  const sections = study.commentaries.sections(chosen.id, ref.book, ref.chapter, from, to);
  // Verse-specific sections first; chapter overviews only when nothing closer exists.
  const specific = sections.filter((s) => s.verseStart > 0);
  const picked = (specific.length > 0 ? specific : sections).slice(0, MAX_SECTIONS);
  if (picked.length === 0) return `${chosen.name} has no comment on ${formatReference(ref)}.`;
  const lines = [`${describe(chosen)} on ${label(formatReference(ref), ref)}:`];
  for (const s of picked) {
    const sref = s.verseStart === 0 ? { book: ref.book, chapter: s.chapter } : { book: ref.book, chapter: s.chapter, verseStart: s.verseStart, verseEnd: s.verseEnd };
    lines.push("", `[${label(formatReference(sref), sref)}${s.title ? ` — ${s.title}` : ""}]`, clip(s.text.replace(/\n\n/g, " "), MAX_SECTION_CHARS));
  }
  const others = COMMENTARIES.filter((c) => c.id !== chosen.id && !pref.avoid.includes(c.id) && study.commentaries.covers(c.id, ref.book)).map((c) => c.id);
  if (others.length > 0) lines.push("", `Also available here: ${others.join(", ")}.`);
  lines.push(`When you use this, name the commentary (${chosen.name}, ${chosen.author}) and that it speaks from the ${chosen.tradition} tradition.`);
  return bounded(lines);
}

export function createCommentaryTool(deps: Pick<ChatDeps, "references" | "study" | "prompts">, ctx: ChatContext) {
  const preference = deps.prompts.theology(ctx.theology)?.commentaries ?? { prefer: [], avoid: [] };
  return tool(async (input) => toolText(await commentaryOn(deps, input, { preference })), {
    name: COMMENTARY_TOOL.name,
    description: COMMENTARY_DESCRIPTION,
    schema: COMMENTARY_SCHEMA,
  });
}
