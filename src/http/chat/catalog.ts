import type { PromptRegistry } from "../../prompts/registry.js";
import { bookById, findBook, verseCount } from "../../scripture/books.js";
import { DEFAULT_TRANSLATION_ID, translationIds } from "../../scripture/translations.js";

export interface PassageProblem {
  param: "book_id" | "chapter" | "verses";
  message: string;
}

/** What the adapter must know to validate slugs, translations and scripture context. */
export interface ChatCatalog {
  defaultTheology: string;
  defaultProfile: string;
  isTheology(slug: string): boolean;
  isProfile(slug: string): boolean;
  defaultBibleId: string;
  bibleIds(): string[];
  /** Canonical USFM id for what the caller sent, or undefined when no such book exists. */
  bookId(given: string): string | undefined;
  /** The X-Prompt-Versions value for a theology and profile (both already validated). */
  promptVersions(theology: string, profile: string): string;
  /** undefined when the chapter (and every verse) exists in that translation. */
  checkPassage(bibleId: string, book: string, chapter: number, verses?: number[]): PassageProblem | undefined;
}

/**
 * The catalog over the real prompt registry and the canonical book table. Verse counts are the
 * maximum over the shipped translations (books.ts), so a verse valid in one is accepted for all.
 */
export function chatCatalog(prompts: Pick<PromptRegistry, "defaultTheology" | "defaultProfile" | "theology" | "profile" | "versions">): ChatCatalog {
  return {
    defaultTheology: prompts.defaultTheology.slug,
    defaultProfile: prompts.defaultProfile.slug,
    isTheology: (slug) => prompts.theology(slug) !== undefined,
    isProfile: (slug) => prompts.profile(slug) !== undefined,
    promptVersions: (theology, profile) => prompts.versions(theology, profile),
    defaultBibleId: DEFAULT_TRANSLATION_ID,
    bibleIds: translationIds,
    bookId: (given) => (bookById(given) ?? findBook(given))?.id,
    checkPassage(_bibleId, book, chapter, verses) {
      const inChapter = verseCount(book, chapter);
      if (inChapter === 0) return { param: "chapter", message: `${book} has no chapter ${chapter}.` };
      const missing = verses?.find((v) => v > inChapter);
      if (missing !== undefined) {
        return { param: "verses", message: `${book} ${chapter} has no verse ${missing} (it has ${inChapter}).` };
      }
      return undefined;
    },
  };
}
