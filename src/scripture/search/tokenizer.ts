/**
 * Words to index terms for BM25 and LSA. The stemmer is deliberately light: it folds inflections
 * ("forgiving", "forgiven", "forgives" -> "forgiv") without Porter's aggressive conflations, which
 * merge unrelated biblical words ("gener"-ation/-ous).
 */
import { wordTable } from "../../word-table.js";
import { foldMarks } from "../../unicode.js";

const STOPWORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was we were what when where which while who whom why will " +
    "with would you your yours yourself yourselves also us shall may might must let unto upon thee thou thy thine ye " +
    "hath doth saith said says say tell tells told bible scripture scriptures verse verses passage chapter story stories " +
    "about what whats does someone something anything thing things way ways want get got one ones many much tell " +
    "el la los las de del y en que un una por para con como se su sus lo al es"
  ).split(/\s+/),
);

// Archaic forms a caller may type (KJV habits); the ranking corpus (WEB) uses the modern ones.
const ARCHAIC: Readonly<Record<string, string>> = wordTable({
  hast: "have", art: "are", wilt: "will", shalt: "shall", spake: "spoke", begat: "became", wast: "was",
  sayest: "say", knoweth: "know", loveth: "love", cometh: "come", goeth: "go", giveth: "give", maketh: "make",
});

const VOWEL = /[aeiouy]/;

function undouble(word: string): string {
  const n = word.length;
  if (n > 3 && word[n - 1] === word[n - 2] && !"lsz".includes(word[n - 1]!)) return word.slice(0, -1);
  return word;
}

/** A light English stemmer; stable and idempotent enough that query and document forms meet. */
export function stem(input: string): string {
  let w = input;
  if (w.length <= 3) return w;
  if (w.endsWith("eth") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("est") && w.length > 6) w = w.slice(0, -3);
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "i";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (w.endsWith("es") && /(?:ch|sh|x|ss|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(?:ss|us|is)$/.test(w) && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith("ness") && w.length > 6) w = w.slice(0, -4);
  else if (w.endsWith("fully") && w.length > 7) w = w.slice(0, -5);
  else if (w.endsWith("ful") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith("ing") && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4 && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  else if (w.endsWith("en") && w.length > 6) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  if (w.endsWith("y") && w.length > 3) w = w.slice(0, -1) + "i";
  return w;
}

/** Lower-cased words with accents folded and apostrophes dropped ("God’s" -> "god"). */
export function words(text: string): string[] {
  const folded = foldMarks(text.toLowerCase())
    .replace(/['’](?:s|ll|re|ve|d|t)?\b/g, "");
  return folded.match(/[a-z0-9]+/g) ?? [];
}

/** Index terms: stopwords out, archaic forms modernised, stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (STOPWORDS.has(word)) continue;
    const modern = ARCHAIC[word] ?? word;
    if (STOPWORDS.has(modern)) continue;
    out.push(stem(modern));
  }
  return out;
}
