import type { Language } from "./types.js";

// Frequent function words that are rare in the other language; shared words ("a", "no", "me") are left out on purpose.
const EN = new Set(
  "the and of to is are was were what who why how which does did do in on with that this it for not be have has he she they you your my i can about god's".split(" "),
);
const ES = new Set(
  "el la los las y de del que qué es son fue por para con una un su sus en mi tu yo usted cómo como quién quien cuál cual dónde donde por qué porque dios jesús biblia hola gracias muy también pero está están sobre".split(
    " ",
  ),
);
const SPANISH_MARKS = /[¿¡ñáéíóú]/giu;

/**
 * Cheap guess of the language of a user's text, used only to pick a canned reply. Counts stopwords
 * plus Spanish-only marks; English wins ties because it is the service's default voice.
 */
export function detectLanguage(text: string): Language {
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  let en = 0;
  let es = 0;
  for (const w of words) {
    if (EN.has(w)) en++;
    if (ES.has(w)) es++;
  }
  es += Math.min(3, (text.match(SPANISH_MARKS) ?? []).length);
  return es > en ? "es" : "en";
}

const NAMES: Record<Language, string> = { en: "English", es: "Spanish" };

/** The value of the `{{language}}` placeholder. */
export function languageName(lang: Language): string {
  return NAMES[lang];
}
