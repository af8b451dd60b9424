/**
 * The translations this service ships. All are public domain, exported from Debian's SWORD modules by
 * ingest/export-sword.ts into data/bibles/<id>.json. The objects are the wire shape of
 * GET /v1/translations, hence the snake_case field.
 */

export interface Translation {
  readonly id: string;
  readonly name: string;
  /** BCP 47 language tag. */
  readonly language: string;
  readonly is_default: boolean;
}

export const DEFAULT_TRANSLATION_ID = "eng-web";

export const TRANSLATIONS: readonly Translation[] = Object.freeze([
  Object.freeze({ id: "eng-web", name: "World English Bible", language: "en", is_default: true }),
  Object.freeze({ id: "eng-kjv", name: "King James Version", language: "en", is_default: false }),
  Object.freeze({ id: "spa-rv1909", name: "Reina-Valera 1909", language: "es", is_default: false }),
]);

export function findTranslation(id: string): Translation | undefined {
  return TRANSLATIONS.find((translation) => translation.id === id);
}

export function translationIds(): string[] {
  return TRANSLATIONS.map((translation) => translation.id);
}
