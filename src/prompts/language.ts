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

/**
 * The language a listing is served in: `?lang=` when it names one we have, else the best
 * Accept-Language entry we have (by q, then order), else English.
 */
export function listingLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  const known = (tag: string): Language | undefined => {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
    return (Object.keys(NAMES) as Language[]).find((l) => l === primary);
  };
  if (typeof query === "string" && query.trim()) {
    const fromQuery = known(query);
    if (fromQuery) return fromQuery;
  }
  if (!acceptLanguage) return "en";
  const ranked = acceptLanguage
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((e) => e.q > 0 && Number.isFinite(e.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const e of ranked) {
    const lang = known(e.tag);
    if (lang) return lang;
  }
  return "en";
}
