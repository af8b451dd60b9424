/**
 * The study library: lexicon, word tags and notes, commentaries and topics, each read from data/study
 * on first use, so start-up pays nothing for them.
 */
import { createCommentaries, type Commentaries } from "./commentary.js";
import { DEFAULT_STUDY_DIR } from "./data.js";
import { createLexicon, type Lexicon } from "./lexicon.js";
import { createTopics, type Topics } from "./topics.js";
import { createVerseTags, type VerseTags } from "./verse-tags.js";

export interface StudyLibrary {
  lexicon: Lexicon;
  tags: VerseTags;
  commentaries: Commentaries;
  topics: Topics;
}

export function createStudyLibrary(dir: string = DEFAULT_STUDY_DIR): StudyLibrary {
  return { lexicon: createLexicon(dir), tags: createVerseTags(dir), commentaries: createCommentaries(dir), topics: createTopics(dir) };
}

let shared: StudyLibrary | undefined;

/** One library per process for callers that are not handed one (the graph's tools outside the service). */
export function sharedStudyLibrary(): StudyLibrary {
  shared ??= createStudyLibrary();
  return shared;
}
