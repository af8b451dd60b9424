import type { CrisisLanguage, Language } from "./types.js";

// Frequent function words that are rare in the other language; shared words ("a", "no", "me") are left out on purpose.
const EN = new Set(
  "the and of to is are was were what who why how which does did do in on with that this it for not be have has he she they you your my i can about god's".split(" "),
);
const ES = new Set(
  "el la los las y de del que qué es son fue por para con una un su sus en mi tu yo usted cómo como quién quien cuál cual dónde donde por qué porque dios jesús biblia hola gracias muy también pero está están sobre ya nadie nada más estoy soy tengo quiero puedo".split(
    " ",
  ),
);
const SPANISH_MARKS = /[¿¡ñáéíóú]/giu;
// The crisis reply's other languages (CRISIS_LANGUAGES): frequent little words, with those the same in
// English left out ("die", "will", "in", "so") so an English cry is never read as German.
const PT = new Set("o os e é não nao eu meu minha você voce isso está estou com em uma mais quero posso tenho ninguém ninguem também tambem sem muito já ja nada de que para por".split(" "));
const FR = new Set("le les et est je j suis ne pas mon ma mes une des du au pour avec plus veux peux ai c personne rien moi tout très tres il elle nous vous de que la un en tu".split(" "));
const DE = new Set("ich und der das nicht bin mein meine ist mit zu ein eine auch kein keine mich mir kann habe niemand nichts mehr sehr wir ihr du".split(" "));
const CRISIS_WORDS: ReadonlyArray<readonly [CrisisLanguage, ReadonlySet<string>]> = [
  ["en", EN],
  ["es", ES],
  ["pt", PT],
  ["fr", FR],
  ["de", DE],
];
const CANNED_WORDS: ReadonlyArray<readonly [Language, ReadonlySet<string>]> = [
  ["en", EN],
  ["es", ES],
];
const ONLY_SPANISH = /[¿¡ñ]/gu;
const ONLY_PORTUGUESE = /[ãõ]/gu;

/**
 * Cheap guess of the language of a user's text, used only to pick a canned reply. Counts stopwords
 * plus Spanish-only marks; English wins ties because it is the service's default voice.
 */
export function detectLanguage(text: string): Language {
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  return mostLittleWords(words, CANNED_WORDS, { es: Math.min(3, (text.match(SPANISH_MARKS) ?? []).length) });
}

/**
 * The language whose little words the text holds most, plus a bonus per language (marks only it uses);
 * ties go to the earlier language in `table`. The one scoring rule of detectLanguage and detectCrisisLanguage.
 */
function mostLittleWords<L extends string>(words: readonly string[], table: ReadonlyArray<readonly [L, ReadonlySet<string>]>, bonus: Partial<Record<L, number>>): L {
  let best = table[0]![0];
  let bestScore = -1;
  for (const [lang, set] of table) {
    let score = bonus[lang] ?? 0;
    for (const w of words) if (set.has(w)) score++;
    if (score > bestScore) [best, bestScore] = [lang, score];
  }
  return best;
}

/**
 * The same kind of guess over the five languages the crisis reply is written in, for a person in
 * distress whose words no distress rule read (the classifier's verdict or the learned reader found
 * it): the most little words of one language, plus marks only Spanish (¿¡ñ) or Portuguese (ãõ) use;
 * English wins ties, then the order of CRISIS_LANGUAGES.
 */
export function detectCrisisLanguage(text: string): CrisisLanguage {
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}]+/gu) ?? [];
  return mostLittleWords(words, CRISIS_WORDS, {
    es: Math.min(3, (lower.match(ONLY_SPANISH) ?? []).length),
    pt: Math.min(3, (lower.match(ONLY_PORTUGUESE) ?? []).length),
  });
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
