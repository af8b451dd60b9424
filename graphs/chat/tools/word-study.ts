import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { bookById } from "../../../src/scripture/books.js";
import type { LexiconEntry } from "../../../src/study/lexicon.js";
import { compactItem, type RefItem } from "../../../src/study/passage-refs.js";
import { normalizeStrongId } from "../../../src/study/strong-ids.js";
import type { VerseWord } from "../../../src/study/verse-tags.js";
import type { ChatContext } from "../configuration.js";
import type { ChatDeps } from "../deps.js";
import { bounded } from "./format.js";
import { plainLabel, ToolProblem, toolText, type RefLabel, type ToolOutput } from "./output.js";
import { spread, studyOf } from "./study-source.js";
import { boundedText } from "../../../src/limits.js";

/** The KJV's tags are hand-aligned (Strong's concordance is built on it); the WEB's are machine-aligned. */
const CONCORDANCE_BIBLE = "eng-kjv";
const MAX_IDS = 4;
const SAMPLE_REFS = 6;

function entryLines(entry: LexiconEntry, verses: string[], book: string | undefined, label: RefLabel): string[] {
  const lines = [
    `${entry.id} ${entry.lemma} (${entry.language === "greek" ? "Greek" : "Hebrew"}; ${entry.transliteration}, pronounced ${entry.pronunciation})`,
    `  Definition: ${entry.definition}`,
  ];
  if (entry.derivation) lines.push(`  Derivation: ${entry.derivation}`);
  if (entry.kjv_usage) lines.push(`  KJV renders it: ${entry.kjv_usage}`);
  const kjv = entry.occurrences[CONCORDANCE_BIBLE];
  if (kjv) {
    const items = verses.map((v) => compactItem(v)).filter((r): r is RefItem => r !== undefined);
    const inBook = book === undefined ? [] : items.filter((r) => r.book_id === book);
    const sample = [...spread(inBook, 3), ...spread(items, SAMPLE_REFS)].filter((r, i, all) => all.findIndex((x) => x.reference === r.reference) === i);
    const bookNote = book !== undefined && inBook.length > 0 ? `, ${inBook.length} of them in ${bookById(book)?.name ?? book}` : "";
    lines.push(`  Used in ${kjv.verses} verses of the KJV (${kjv.words} times)${bookNote}, e.g. ${sample.slice(0, SAMPLE_REFS + 2).map((r) => label(r.reference, r)).join("; ")}`);
  }
  if (entry.see_also.length > 0) lines.push(`  See also: ${entry.see_also.join(", ")}`);
  return lines;
}

const stem = (w: string) => w.toLowerCase().replace(/[^\p{L}\s']/gu, "").trim();

/** Tagged words of the verses whose text holds the English word ("love" finds "loved", "lovest thou"). */
function matching(words: VerseWord[], english: string): VerseWord[] {
  const target = stem(english);
  if (target === "") return [];
  return words.filter((w) => w.strong.length > 0 && stem(w.text).split(/\s+/).some((t) => t.startsWith(target) || target.startsWith(t) && t.length >= 4));
}

/** Its name, and the one line the guardrails' tool list gives it ({{tools}}, graphs/chat/tools/index.ts). */
export const WORD_STUDY_TOOL = {
  name: "word_study",
  purpose: "the Greek or Hebrew word behind an English one (\"what does love mean in John 21:15?\")",
} as const;

export const WORD_STUDY_DESCRIPTION =
  "The original Greek or Hebrew word behind an English word of a passage (or a Strong's number): its lemma, transliteration and meaning, how the KJV renders it, and where else the Bible uses it. Use it for questions about what a word means in the original, e.g. agape vs phileo in John 21.";

export const WORD_STUDY_SCHEMA = z.object({
  reference: boundedText("reference", "reference").optional().describe('The passage the word is in: "John 21:15", "Genesis 1:1".'),
  word: boundedText("word", "word").optional().describe('The English word as it reads there: "love", "created".'),
  strong: boundedText("word", "strong").optional().describe('A Strong\'s number instead: "G25", "G5368", "H7965".'),
});

/**
 * The original (Greek or Hebrew) word behind an English word of a passage, or a Strong's number, from
 * Strong's dictionaries and the KJV's concordance tags: definition, derivation, and where else the Bible
 * uses it.
 */
export async function wordStudy(
  deps: Pick<ChatDeps, "references" | "study">,
  { reference, word, strong }: z.infer<typeof WORD_STUDY_SCHEMA>,
  { bibleId, label = plainLabel }: { bibleId: string; label?: RefLabel },
): Promise<ToolOutput> {
  const study = studyOf(deps);
  const ids: string[] = [];
  const lines: string[] = [];
  let book: string | undefined;
  if (strong) {
    const id = normalizeStrongId(strong);
    if (id === undefined) return new ToolProblem(`"${strong}" is not a Strong's number; use forms like G25 or H7965.`);
    ids.push(id);
  }
  if (reference) {
    const ref = deps.references.parsePassageQuery(reference);
    if (!ref) return new ToolProblem(`"${reference}" is not a Bible reference I can read. Use forms like John 21:15 or Genesis 1:1.`);
    book = ref.book;
    const from = ref.verseStart ?? 1;
    const to = ref.chapterEnd === undefined ? (ref.verseEnd ?? (ref.verseStart === undefined ? 999 : from)) : 999;
    // The user's translation first when it is tagged, then the KJV, whose tags are the more exact.
    const bibles = [...new Set([bibleId, CONCORDANCE_BIBLE])].filter((b) => study.tags.has(b));
    const found = new Map<string, string[]>();
    const verseWords: string[] = [];
    for (const bibleId of bibles) {
      for (let v = from; v <= Math.min(to, from + 30); v++) {
        const words = study.tags.words(bibleId, ref.book, ref.chapter, v);
        if (!words) continue;
        const hits = word ? matching(words, word) : [];
        for (const hit of hits) for (const id of hit.strong) found.set(id, [...(found.get(id) ?? []), `"${hit.text}" (${bibleId} ${ref.chapter}:${v})`]);
        if (bibleId === CONCORDANCE_BIBLE && verseWords.length < 60) {
          verseWords.push(...words.filter((w) => w.strong.length > 0).map((w) => `${w.text}=${w.strong.join("+")}`));
        }
      }
    }
    if (found.size > 0) {
      lines.push(`"${word}" in ${reference} translates:`);
      for (const [id, where] of found) {
        lines.push(`- ${id}: ${where.slice(0, 4).join(", ")}`);
        if (!ids.includes(id)) ids.push(id);
      }
    } else if (verseWords.length > 0) {
      lines.push(
        word ? `No tagged word "${word}" in ${reference}. The KJV's tagged words there (word=Strong's id):` : `The KJV's tagged words in ${reference} (word=Strong's id):`,
        verseWords.join(", "),
        "Call word_study again with one of these ids as strong for its entry.",
      );
    } else if (ids.length === 0) {
      return `${reference} has no Strong's tags (only the WEB's and KJV's 66 books are tagged).`;
    }
  } else if (!strong) {
    return new ToolProblem("Give a reference and an English word (John 21:15, love) or a Strong's number (G25).");
  }
  for (const id of ids.slice(0, MAX_IDS)) {
    const entry = study.lexicon.get(id);
    if (!entry) {
      lines.push(`${id}: not in Strong's dictionary.`);
      continue;
    }
    lines.push("", ...entryLines(entry, study.lexicon.verses(id), book, label));
  }
  lines.push("", "Source: Strong's Exhaustive Concordance dictionaries (1890, public domain); counts from the KJV's Strong's tags.");
  return bounded(lines);
}

export function createWordStudyTool(deps: Pick<ChatDeps, "references" | "study">, ctx: ChatContext) {
  return tool(async (input) => toolText(await wordStudy(deps, input, { bibleId: ctx.bibleId })), {
    name: WORD_STUDY_TOOL.name,
    description: WORD_STUDY_DESCRIPTION,
    schema: WORD_STUDY_SCHEMA,
  });
}
