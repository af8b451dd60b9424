import { CONCEPTS } from "./concepts.js";
import { TITLES } from "./titles.js";
import type { ChapterSource, Passage } from "./types.js";
import { buildPassages, DEFAULT_WINDOWS } from "./windows.js";

/** The search windows of a Bible, titles appended and concepts tagged: what the index and its shipped expansion are keyed to. */
export function corpusPassages(bible: ChapterSource): Passage[] {
  return buildPassages(bible, TITLES, DEFAULT_WINDOWS, CONCEPTS.map((c) => c.entry));
}
