import { sharedStudyLibrary, type StudyLibrary } from "../../../src/study/library.js";
import type { ChatDeps } from "../deps.js";

/** The study library the deps carry, else the process's shared one (read lazily from data/study). */
export function studyOf(deps: Pick<ChatDeps, "study">): StudyLibrary {
  return deps.study ?? sharedStudyLibrary();
}

/** Up to n items spread over the list (first, last and evenly between), so samples are not all from Genesis. */
export function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(items[Math.round((i * (items.length - 1)) / (n - 1))]!);
  return out;
}
