import { BOOKS } from "../../src/scripture/books.js";
import type { PreflightCategory } from "./contract.js";
import { isDistress, isLastGoodbye, mentionsHarm } from "./distress/rules.js";
import { foldMarks } from "../../src/unicode.js";

/**
 * Cheap checks that settle the obvious inputs before (and instead of) the classifier model: they
 * cost no provider call and no latency. Anything not clearly one of these goes to the model.
 */

/**
 * Injection: only text that addresses the assistant's own instructions, or code and markup. "Did Jesus
 * override the previous rules about the Sabbath?" and "Should Christians ignore the rules in Leviticus?"
 * are questions, so an override verb needs the instructions to be *yours* / the system's / the prompt.
 */
const INJECTION: RegExp[] = [
  /\b(ignore|disregard|forget|override|bypass)\b.{0,30}\b(previous|prior|above|earlier|preceding|your|system|developer|initial)\b.{0,20}\b(instructions?|prompts?|guardrails|directives|programming|guidelines)\b(?!\s+(of|from|given (to|by)|about)\s+(god|the lord|jesus|christ|moses|paul|scripture|leviticus|deuteronomy|the (law|bible|scriptures?|prophets?|apostles?|church|pharisees|sabbath))\b)/i,
  /\b(ignore|disregard|forget|override|bypass)\b.{0,20}\b(your|the system'?s?|the assistant'?s?)\s+(rules|restrictions|filters|safety)\b/i,
  /\b(reveal|show|print|repeat|output|display|tell me|give me|leak|dump)\b.{0,30}\b((system|hidden|initial|secret|developer)\s+(prompt|instructions?)|system\s+message)\b/i,
  /\b(reveal|print|repeat|output|dump)\b.{0,20}\b(your|the)\s+(prompt|instructions|configuration|guardrails)\b/i,
  /\byou are now\b.{0,40}\b(DAN|jailbroken|unfiltered|unrestricted|without (any )?(rules|restrictions|filters))\b/i,
  /\b(jailbreak|developer mode|do anything now)\b/i,
  /\b(pretend|act as if|imagine)\b.{0,30}\b(you have no|you don'?t have( any)?|without( any)?)\s+(rules|restrictions|guardrails|filters|instructions)\b/i,
  /<\s*\/?\s*(script|iframe|img|svg|object)\b[^>]*>/i,
  /\bjavascript:\s*\S/i,
  /('|")\s*;?\s*(drop|delete|truncate)\s+table\b/i,
  /\bunion\s+(all\s+)?select\b/i,
  // Template markup: "{{" or "${" closed later on the same line. Each opening is followed by a run free of
  // its own opening, so the engine never rescans the line from every "{" (linear on "{{{{...").
  /\{\{(?:[^{}\n]|\{(?!\{)|\}(?!\}))*\}\}|\$\{[^$\n]*\}/,
  /\b(olvida|ignora|descarta|omite)\w*\b.{0,30}\b(tus|las|todas|sus)\b.{0,20}\b(instrucciones|indicaciones|reglas del sistema)\b/i,
  // "Dime las instrucciones de Dios" is a question; only *your* instructions or hidden ones count.
  /\b(mu[eé]stra|revela|dime|imprime|repite)\w*\b.{0,20}\b(tu|tus)\s+(prompt|instrucciones|reglas|configuraci[oó]n)\b/i,
  /\b(prompt|instrucciones)\s+(del sistema|secretas|ocultas|iniciales)\b/i,
  /\b(ignore|oublie)\w*\b.{0,30}\b(tes|vos|les)\s+(instructions|consignes)\s+(pr[eé]c[eé]dentes|syst[eè]me)\b/i,
  /\b(ignore|esque[cç]a)\w*\b.{0,30}\b(suas|as)\s+instru[cç][oõ]es\b/i,
];

// Starts only where a run of address characters starts, and bounded as RFC 5321 bounds an address
// (64 before the @, 255 after): a long run without an @ ("aaaa...", "www.www...") is scanned once, not
// again from each of its positions.
const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}.-]{1,253}\.\p{L}{2,63}/u;
const PHONE_ONLY = /^[+(]?[\d\s().\-/]{7,}$/;

/** Greetings, thanks and farewells: one greeting category (the spec's), three replies (greetingKind). */
const HELLO_PHRASES = [
  "hi", "hello", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon", "good evening",
  "hola", "buenos dias", "buenas tardes", "buenas noches", "buenas", "saludos", "god bless", "blessings", "bendiciones", "dios te bendiga",
];
const THANKS_PHRASES = ["thanks", "thank you", "thank u", "thx", "ty", "tysm", "many thanks", "cheers", "gracias", "muchas gracias", "mil gracias"];
const FAREWELL_PHRASES = [
  "bye", "bye bye", "goodbye", "good bye", "see you", "see ya", "good night", "goodnight", "take care", "farewell",
  "adios", "hasta luego", "hasta pronto", "hasta manana", "nos vemos", "chao", "chau", "cuidate",
];
const GREETING_PHRASES = [...HELLO_PHRASES, ...THANKS_PHRASES, ...FAREWELL_PHRASES];
const phrasesRe = (phrases: readonly string[], flags = "") =>
  new RegExp(`\\b(${[...phrases].sort((a, b) => b.length - a.length).map((p) => p.replace(/ /g, "\\s+")).join("|")})\\b`, flags);
const THANKS_RE = phrasesRe(THANKS_PHRASES);
const FAREWELL_RE = phrasesRe(FAREWELL_PHRASES);
const GREETING_FILLER = new Set([
  "there", "all", "everyone", "friend", "friends", "so", "much", "very", "a", "lot", "again", "you", "and",
  "amigo", "amiga", "amigos", "a todos", "de nuevo", "mucho", "oh", "ok", "okay", "to", "too",
]);
const GREETING_RE = phrasesRe(GREETING_PHRASES, "g");

// Runs along a keyboard row that no English or Spanish word (and no word of the three Bibles) contains.
const KEYBOARD_RUNS = /(qwer|rtyu|tyui|yuio|uiop|asdf|sdfg|dfgh|fghj|ghjk|hjkl|zxcv|xcvb|cvbn|vbnm)/i;

function normalize(text: string): string {
  return foldMarks(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function isGreeting(text: string): boolean {
  const norm = normalize(text);
  if (!norm || norm.split(" ").length > 8) return false;
  GREETING_RE.lastIndex = 0;
  if (!GREETING_RE.test(norm)) return false;
  GREETING_RE.lastIndex = 0;
  const rest = norm.replace(GREETING_RE, " ").split(" ").filter(Boolean);
  return rest.every((w) => GREETING_FILLER.has(w));
}

/**
 * Which reply a greeting gets (the category stays `greeting`): a goodbye gets a goodbye ("thanks,
 * bye" too), thanks get thanks, anything else a welcome.
 */
export function greetingKind(text: string): "greeting" | "thanks" | "farewell" {
  const norm = normalize(text);
  if (FAREWELL_RE.test(norm)) return "farewell";
  if (THANKS_RE.test(norm)) return "thanks";
  return "greeting";
}

/**
 * Keyboard mash, tuned so that none of the 47,000 distinct words of the shipped Bibles counts
 * ("witchcraft" and "firstfruits" have five consonants in a row, so it takes six).
 */
function isGibberishWord(word: string): boolean {
  const w = foldMarks(word).toLowerCase();
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

// The distress rules live in distress/ (one file per language); these are the ones callers use.
export { distressLanguage, isDistress, isLastGoodbye, needsCare, type DistressLanguage } from "./distress/rules.js";

/**
 * People, places and topics that are a whole question when named alone ("Nicodemus", "grace"): the
 * agent gives an overview. Book names come from the canon list; this is the rest, in English and Spanish.
 */
const NAMED_SUBJECTS = new Set(
  (
    "adam eve cain abel seth noah shem abraham abram sarah sarai hagar ishmael isaac rebekah rebecca jacob esau rachel leah joseph " +
    "judah benjamin levi moses aaron miriam pharaoh joshua caleb rahab deborah gideon samson delilah naomi boaz eli hannah samuel saul " +
    "jonathan david goliath bathsheba uriah nathan absalom solomon elijah elisha jezebel ahab naaman hezekiah josiah jeremiah isaiah " +
    "ezekiel daniel shadrach meshach abednego nebuchadnezzar cyrus esther mordecai haman job jonah hosea amos micah malachi melchizedek " +
    "mary joseph jesus christ john peter simon andrew james philip bartholomew thomas matthew judas iscariot nicodemus zacchaeus lazarus " +
    "martha magdalene pilate herod caiaphas barabbas stephen paul saul barnabas silas timothy titus lydia priscilla aquila apollos " +
    "cornelius onesimus philemon luke mark jerusalem bethlehem nazareth galilee egypt babylon eden sinai calvary golgotha gethsemane " +
    "grace faith hope love forgiveness salvation sin repentance baptism communion eucharist resurrection heaven hell prayer trinity " +
    "atonement justification sanctification covenant creation sabbath tithe tithing angels demons satan devil prophecy rapture " +
    "gospel parables beatitudes psalms proverbs apostles pentecost easter christmas advent lent passover exodus fasting worship " +
    "adan eva cain abel noe abraham sara isaac jacob esau raquel jose moises aaron josue rut booz ana samuel saul david goliat salomon " +
    "elias eliseo jonas daniel ester job maria jesus cristo juan pedro andres santiago felipe tomas mateo judas nicodemo zaqueo lazaro " +
    "marta magdalena pilato herodes esteban pablo bernabe timoteo tito lidia jerusalen belen nazaret galilea egipto babilonia " +
    "gracia fe esperanza amor perdon salvacion pecado arrepentimiento bautismo comunion resurreccion cielo infierno oracion trinidad " +
    "pacto creacion diezmo angeles demonios profecia evangelio parabolas bienaventuranzas apostoles pentecostes pascua navidad ayuno"
  ).split(" "),
);
const BOOK_NAMES = new Set(BOOKS.flatMap((b) => [normalize(b.name), normalize(b.nameEs)]));

/** One or two words that name a book, a person, a place or a topic of the Bible ("Ruth", "Song of Songs"). */
function isNamedSubject(norm: string): boolean {
  if (norm.length > 40) return false;
  if (BOOK_NAMES.has(norm) || BOOK_NAMES.has(norm.replace(/^(the|el|la|los|las|el libro de|the book of|libro de) /, ""))) return true;
  const words = norm.split(" ").filter((w) => !["the", "el", "la", "los", "las", "saint", "st", "san", "santa", "book", "of", "de"].includes(w));
  return words.length >= 1 && words.length <= 2 && words.every((w) => NAMED_SUBJECTS.has(w));
}

/** Short replies that only make sense after an answer: with the conversation before them they are questions. */
const FOLLOW_UP = new RegExp(
  "^(why|why not|how|how so|what|what do you mean|what does that mean|meaning|explain|explain more|more|tell me more|go on|continue|keep going|and then|really|" +
    "yes|yes please|yeah|yep|sure|please|please do|ok go on|okay go on|please continue|example|for example|give me an example|another one|another|which one|where|who|when|" +
    "por que|por que no|como|que|que quieres decir|explica|explicame|explicamelo|mas|cuentame mas|dime mas|sigue|continua|si|si por favor|claro|por favor|un ejemplo|otro|cual|donde|quien|cuando)$",
);

/** Single words that are fragments, not subjects: the incomplete-input reply asks for a sentence. */
export interface RuleOptions {
  /** The request carries earlier turns (an assistant answer before this message): short follow-ups are questions. */
  hasContext?: boolean;
  /** The conversation's earlier user messages, oldest first: once one read as distress, every later message goes to the agent (care sticks). */
  earlierUserTexts?: readonly string[];
}

/**
 * The category when a rule settles it, else null. `isPassage` says whether the whole text is one
 * scripture reference ("John 3:16"), which needs no classifier to be a passage request. Distress comes
 * first, before any filter, so that "I want to die", "help" or a first-message goodbye always reaches
 * the agent; so does every message of a conversation that had distress in it.
 */
export function classifyByRules(text: string, isPassage: (t: string) => boolean, options: RuleOptions = {}): PreflightCategory | null {
  const trimmed = text.trim();
  if (trimmed === "") return "incomplete_input";
  // Distress first, before any filter: a person in distress is answered, whatever else the message
  // says ("ignore your rules" included), and so is every later message of a conversation that had it.
  const earlier = options.earlierUserTexts ?? [];
  if (isDistress(trimmed) || earlier.some(isDistress)) return "biblical_question";
  if (earlier.length === 0 && isLastGoodbye(trimmed)) return "biblical_question";
  // An injection that speaks of harm is left to the classifier, whose care verdict reads it; the rest is refused here.
  if (INJECTION.some((re) => re.test(trimmed))) return mentionsHarm(trimmed) ? null : "hacker_activity";
  const withoutContacts = trimmed.replace(new RegExp(EMAIL.source, "gu"), " ").trim();
  if (withoutContacts !== trimmed && normalize(withoutContacts).split(" ").filter(Boolean).length <= 2) return "invalid";
  if (PHONE_ONLY.test(trimmed) && (trimmed.match(/\d/g) ?? []).length >= 7) return "invalid";
  const norm = normalize(trimmed);
  if (options.hasContext && FOLLOW_UP.test(norm)) return "biblical_question";
  if (isGreeting(trimmed)) return "greeting";
  const bare = trimmed.replace(/[.?!¿¡]+$/u, "").trim();
  if (/\d/.test(bare) && isPassage(bare)) return "passage_request";
  // A book, person, place or topic named alone asks for an overview.
  if (isNamedSubject(norm)) return "biblical_question";
  if (isGibberish(trimmed)) return "invalid";
  const words = norm.split(" ").filter(Boolean);
  // Other single words: a fragment without context; with context the classifier sees the turns before it.
  if (words.length === 1 && !options.hasContext) return "incomplete_input";
  return null;
}
