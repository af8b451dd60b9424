import { BOOKS } from "../../src/scripture/books.js";
import type { PreflightCategory } from "./contract.js";

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
  /\{\{.*\}\}|\$\{.*\}/,
  /\b(olvida|ignora|descarta|omite)\w*\b.{0,30}\b(tus|las|todas|sus)\b.{0,20}\b(instrucciones|indicaciones|reglas del sistema)\b/i,
  // "Dime las instrucciones de Dios" is a question; only *your* instructions or hidden ones count.
  /\b(mu[eé]stra|revela|dime|imprime|repite)\w*\b.{0,20}\b(tu|tus)\s+(prompt|instrucciones|reglas|configuraci[oó]n)\b/i,
  /\b(prompt|instrucciones)\s+(del sistema|secretas|ocultas|iniciales)\b/i,
  /\b(ignore|oublie)\w*\b.{0,30}\b(tes|vos|les)\s+(instructions|consignes)\s+(pr[eé]c[eé]dentes|syst[eè]me)\b/i,
  /\b(ignore|esque[cç]a)\w*\b.{0,30}\b(suas|as)\s+instru[cç][oõ]es\b/i,
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
 * Distress, self-harm and abuse, in the languages the service hears most (English, Spanish,
 * Portuguese, French, German), matched on accent-free lower-case text. These run before every other
 * rule: such a message always reaches the agent, whose guardrails carry the crisis guidance. A false
 * positive costs nothing but a skipped filter (the agent's rules still hold); a miss can cost a life.
 */
const DISTRESS: RegExp[] = [
  // English: suicide and self-harm.
  /\b(suicid\w*|self[ -]?harm\w*|kill(ing)? myself|end(ing)? (my|it) (life|all)|take my (own )?life|want(ed)? to die|wanna die|wish i (was|were) dead|wish i had never been born|better off dead|(don'?t|do not|no longer) want to (live|be alive|be here|exist|wake up)|no reason to (live|go on)|can'?t (go on|take (it|this) anymore|do this anymore)|hurt(ing)? myself|cut(ting)? myself|overdos\w*|hang myself|jump off)\b/,
  // English: abuse disclosed in the first person, also by a church leader, and a child's words.
  /\b(i (was|am|'m|have been|got|keep getting) (being )?(abused|molested|raped|assaulted|groomed|beaten|hit)|(abuses|abused|abusing|molests|molested|molesting|raped|rapes|raping|assaulted|grooming) (me|my (daughter|son|child|kids|children))|(he|she|they|someone|somebody|my \w+( \w+)?|the \w+|a (man|woman|boy|girl|teacher|priest|pastor)) (keeps )?(beats|beat|beating|hits|hit|hitting|touches|touched|touching|hurts|hurt|hurting|chokes|choked) (me|my (daughter|son|child|kids|children))|(domestic|sexual) (violence|abuse)|afraid of my (husband|wife|father|dad|mother|mom|stepfather|stepdad|partner|boyfriend|pastor|priest|youth pastor)|not safe at home|scared to go home)\b/,
  /^(please )?(help|help me|help me please|i need help|sos)$/,
  // Spanish.
  /\b(suicid\w*|matarme|quitarme la vida|acabar con (mi vida|todo)|quiero morir\w*|me quiero morir|ganas de morir|no quiero (vivir|seguir viviendo|despertar)|no tengo (razones|motivos) para vivir|hacerme dano|autolesi\w*|cortarme|no puedo mas)\b/,
  /\b(me (abuso|abusa|abusaron|abusan|violo|violaron|viola|pega|pegan|golpea|golpean|maltrata|maltratan|toca|tocaba|toco|lastima)|abuso de mi|abusaron de mi|abusa de mi|fui (abusad[oa]|violad[oa])|violencia (domestica|sexual)|tengo miedo de mi (esposo|marido|padre|papa|madre|mama|padrastro|pareja|novio|pastor|sacerdote))\b/,
  /^(ayuda|ayudame|ayudenme|socorro|necesito ayuda)$/,
  // Portuguese.
  /\b(suicid\w*|me matar|tirar (a )?minha (propria )?vida|quero morrer|nao quero (mais )?viver|me machucar|automutila\w*|abusou de mim|fui (abusad[oa]|estuprad[oa])|me estuprou|me bate|violencia domestica)\b/,
  // French.
  /\b(suicid\w*|me tuer|je veux mourir|envie de mourir|mettre fin a (mes jours|ma vie)|me faire du mal|je ne veux plus vivre|(il|elle) me (frappe|bat|touche)|m a (viole|violee|agresse|agressee)|j ai ete (viole|violee|abuse|abusee|agresse|agressee)|abuse de moi|violence conjugale)\b/,
  // German.
  /\b(selbstmord|suizid\w*|mich umbringen|will (nicht mehr leben|sterben)|missbraucht|vergewaltigt)\b/,
];

/** Stems at least one of which every DISTRESS pattern needs: most messages skip the patterns after one cheap scan. */
const DISTRESS_STEMS =
  /suicid|kill|die|dead|aliv|live|life|harm|cut|hurt|go on|take (it|this)|do this|overdos|hang|jump|abus|molest|rap|assault|groom|beat|hit|touch|chok|violen|afraid|safe|scared|help|sos|born|matar|mori|vivi|vida|dano|autoles|puedo|viol|pega|golpe|maltrat|toca|toco|lastim|miedo|ayud|socorro|morrer|viver|machuc|estupr|bate|tuer|mour|fin a|mal|frappe|touche|agress|selbst|umbring|sterben|leben|missbr|vergew/;

/** Every DISTRESS pattern in one expression: two scans of the text instead of eighteen. */
const DISTRESS_ANY = new RegExp(DISTRESS.map((re) => `(?:${re.source})`).join("|"));

/** True when the text reads as distress, self-harm or a disclosure of abuse (see DISTRESS). */
export function isDistress(text: string): boolean {
  const lower = text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/’/g, "'");
  if (!DISTRESS_STEMS.test(lower)) return false;
  const withApostrophes = lower.replace(/\s+/g, " ").trim();
  const norm = lower.replace(/[^\p{L}\p{N}\s]/gu, " ").replace(/\s+/g, " ").trim();
  return DISTRESS_ANY.test(norm) || DISTRESS_ANY.test(withApostrophes);
}

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
}

/**
 * The category when a rule settles it, else null. `isPassage` says whether the whole text is one
 * scripture reference ("John 3:16"), which needs no classifier to be a passage request. Distress comes
 * first, before any filter, so that "I want to die" or "help" always reaches the agent.
 */
export function classifyByRules(text: string, isPassage: (t: string) => boolean, options: RuleOptions = {}): PreflightCategory | null {
  const trimmed = text.trim();
  if (trimmed === "") return "incomplete_input";
  if (isDistress(trimmed)) return "biblical_question";
  if (INJECTION.some((re) => re.test(trimmed))) return "hacker_activity";
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
