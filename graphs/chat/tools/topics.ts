import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { bounded } from "./format.js";
import { plainLabel, ToolProblem, toolText, type RefLabel, type ToolOutput } from "./output.js";
import { studyOf } from "./study-source.js";
import { boundedText } from "../../../src/limits.js";

const MAX_TOPICS = 3;
const REFS_PER_TOPIC = 25;

/** Its name, and the one line the guardrails' tool list gives it ({{tools}}, graphs/chat/tools/index.ts). */
export const TOPICS_TOOL = {
  name: "topics",
  purpose: "Nave's Topical Bible, by topic or by verse (\"verses on anger\")",
} as const;

export const TOPICS_DESCRIPTION =
  "Nave's Topical Bible: the passages on a topic across the whole Bible (e.g. anger, forgiveness, the Sabbath), grouped as Nave grouped them, or the topics a verse belongs to.";

export const TOPICS_SCHEMA = z.object({
  topic: boundedText("topic", "topic").optional().describe('Topic words: "anger", "prayer", "Sabbath".'),
  reference: boundedText("reference", "reference").optional().describe('Instead: a verse whose topics you want, "Proverbs 15:1".'),
});

/**
 * Nave's Topical Bible: where a topic runs through the whole Bible (by topic words), or the topics a
 * verse belongs to. Its own index, apart from scripture search.
 */
export async function topicsFor(
  deps: Pick<ChatDeps, "references" | "study">,
  { topic, reference }: z.infer<typeof TOPICS_SCHEMA>,
  { label = plainLabel }: { label?: RefLabel } = {},
): Promise<ToolOutput> {
  const study = studyOf(deps);
  let topics;
  if (reference) {
    const ref = deps.references.parsePassageQuery(reference);
    if (!ref || ref.verseStart === undefined) return new ToolProblem(`"${reference}" is not a verse reference; use forms like John 3:16.`);
    topics = study.topics.forVerse(ref.book, ref.chapter, ref.verseStart, MAX_TOPICS + 2, REFS_PER_TOPIC);
    if (topics.length === 0) return `Nave's Topical Bible lists no topic for ${reference}.`;
  } else if (topic) {
    topics = study.topics.search(topic, MAX_TOPICS, REFS_PER_TOPIC);
    if (topics.length === 0) return `Nave's Topical Bible has no topic named like "${topic}". Try a simpler word (anger, prayer, faith).`;
  } else {
    return new ToolProblem("Give a topic (anger, forgiveness) or a verse reference (John 3:16).");
  }
  const lines = [`Nave's Topical Bible (Orville J. Nave, 1896, public domain):`];
  for (const t of topics) {
    lines.push("", `${t.name} (${t.reference_count} references${t.reference_count > t.references.length ? `, first ${t.references.length}` : ""}):`);
    // Nave groups references under lines ("General scriptures concerning", "Of Cain slaying Abel").
    const groups: { note: string; refs: string[] }[] = [];
    for (const r of t.references) {
      const note = r.note ?? "";
      const last = groups.at(-1);
      if (last && last.note === note) last.refs.push(label(r.reference, r));
      else groups.push({ note, refs: [label(r.reference, r)] });
    }
    for (const g of groups) lines.push(`- ${g.note ? `${g.note}: ` : ""}${g.refs.join("; ")}`);
    if (t.see_also.length > 0) lines.push(`See also: ${t.see_also.slice(0, 8).join(", ")}`);
  }
  return bounded(lines);
}

export function createTopicsTool(deps: Pick<ChatDeps, "references" | "study">, _ctx: ChatContext) {
  return tool(async (input) => toolText(await topicsFor(deps, input)), {
    name: TOPICS_TOOL.name,
    description: TOPICS_DESCRIPTION,
    schema: TOPICS_SCHEMA,
  });
}
