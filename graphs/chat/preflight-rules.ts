import type { PreflightCategory } from "./types.js";

/**
 * Cheap checks that settle the obvious inputs before (and instead of) the classifier model: they
 * cost no provider call and no latency. Anything not clearly one of these goes to the model.
 */

const INJECTION: RegExp[] = [
  // "Should Christians ignore the rules of Leviticus?" is a question, so "the" and "all" alone do not count.
  /\b(ignore|disregard|forget|override)\b.{0,30}\b(previous|prior|above|earlier|your|these|system)\b.{0,20}\b(instructions?|prompts?|rules|guardrails|directives)\b/i,
  /\b(reveal|show|print|repeat|output|display|tell me|give me)\b.{0,20}\b(system|hidden|initial|secret)\s+(prompt|instructions?)\b/i,
  /\byou are now\b.{0,40}\b(DAN|jailbroken|unfiltered|without (any )?(rules|restrictions|filters))\b/i,
  /\b(jailbreak|developer mode|do anything now)\b/i,
  /<\s*\/?\s*(script|iframe|img|svg|object)\b[^>]*>/i,
  /\bjavascript:\s*\S/i,
  /('|")\s*;?\s*(drop|delete|truncate)\s+table\b/i,
  /\bunion\s+(all\s+)?select\b/i,
  /\{\{.*\}\}|\$\{.*\}/,
  /\b(olvida|ignora|descarta)\b.{0,30}\b(tus|las|todas)\b.{0,20}\binstrucciones\b/i,
  // "Dime las instrucciones de Dios" is a question; only *your* instructions or hidden ones count.
  /\b(mu[eé]stra|revela|dime|imprime|repite)\w*\b.{0,20}\b(tu|tus)\s+(prompt|instrucciones|reglas)\b/i,
  /\b(prompt|instrucciones)\s+(del sistema|secretas|ocultas|iniciales)\b/i,
];

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/u;
const PHONE_ONLY = /^[+(]?[\d\s().\-/]{7,}$/;

const GREETING_PHRASES = [
  "hi", "hello", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon", "good evening",
  "thanks", "thank you", "thx", "ty", "cheers", "bye", "goodbye", "see you", "god bless", "blessings",
  "hola", "buenos dias", "buenas tardes", "buenas noches", "buenas", "saludos", "gracias", "muchas gracias",
  "adios", "hasta luego", "bendiciones", "dios te bendiga",
];
const GREETING_FILLER = new Set([
  "there", "all", "everyone", "friend", "friends", "so", "much", "very", "a", "lot", "again", "you", "and",
  "amigo", "amiga", "amigos", "a todos", "de nuevo", "mucho", "oh", "ok", "okay", "to", "too",
]);
const GREETING_RE = new RegExp(`\\b(${GREETING_PHRASES.map((p) => p.replace(/ /g, "\\s+")).join("|")})\\b`, "g");

// Runs along a keyboard row that no English or Spanish word (and no word of the three Bibles) contains.
const KEYBOARD_RUNS = /(qwer|rtyu|tyui|yuio|uiop|asdf|sdfg|dfgh|fghj|ghjk|hjkl|zxcv|xcvb|cvbn|vbnm)/i;

function normalize(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function isGreeting(text: string): boolean {
  const norm = normalize(text);
  if (!norm || norm.split(" ").length > 8) return false;
  if (!GREETING_RE.test(norm)) return false;
  GREETING_RE.lastIndex = 0;
  const rest = norm.replace(GREETING_RE, " ").split(" ").filter(Boolean);
  return rest.every((w) => GREETING_FILLER.has(w));
}

/**
 * Keyboard mash, tuned so that none of the 47,000 distinct words of the shipped Bibles counts
 * ("witchcraft" and "firstfruits" have five consonants in a row, so it takes six).
 */
function isGibberishWord(word: string): boolean {
  const w = word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  if (!/^\p{L}+$/u.test(w) || w.length < 3) return false;
  if (KEYBOARD_RUNS.test(w)) return true;
  if (!/[aeiouy]/.test(w) && w.length >= 4) return true;
  return /[^aeiouy]{6,}/.test(w);
}

function isGibberish(text: string): boolean {
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 6) return false;
  const bad = words.filter(isGibberishWord).length;
  return bad * 2 > words.length;
}

/**
 * The category when a rule settles it, else null. `isPassage` says whether the whole text is one
 * scripture reference ("John 3:16"), which needs no classifier to be a passage request.
 */
export function classifyByRules(text: string, isPassage: (t: string) => boolean): PreflightCategory | null {
  const trimmed = text.trim();
  if (trimmed === "") return "incomplete_input";
  if (INJECTION.some((re) => re.test(trimmed))) return "hacker_activity";
  const withoutContacts = trimmed.replace(new RegExp(EMAIL.source, "gu"), " ").trim();
  if (withoutContacts !== trimmed && normalize(withoutContacts).split(" ").filter(Boolean).length <= 2) return "invalid";
  if (PHONE_ONLY.test(trimmed) && (trimmed.match(/\d/g) ?? []).length >= 7) return "invalid";
  if (isGreeting(trimmed)) return "greeting";
  const bare = trimmed.replace(/[.?!¿¡]+$/u, "").trim();
  // A bare book name ("Romans") is a fragment, not a passage request: the classifier examples say so.
  if (/\d/.test(bare) && isPassage(bare)) return "passage_request";
  if (isGibberish(trimmed)) return "invalid";
  const words = normalize(trimmed).split(" ").filter(Boolean);
  if (words.length === 1) return "incomplete_input";
  return null;
}
