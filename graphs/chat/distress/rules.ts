import { DE } from "./de.js";
import { EN } from "./en.js";
import { ES } from "./es.js";
import { distressForm } from "./form.js";
import { distressModel, distressProbability, type DistressModel } from "./model.js";
import { FR } from "./fr.js";
import { PT } from "./pt.js";
import type { DistressLanguage, LanguageRules } from "./types.js";

export type { DistressLanguage } from "./types.js";

/**
 * Distress, self-harm and abuse, read by rules in the five languages we detect: the net that holds
 * where no model verdict exists (the provider is down; the speculative first call is made before the
 * verdict). A false alarm costs a care note the model did not need; a miss can cost a life, so the
 * rules are written by kinds of meaning (means and plans, an overdose taken, a child's words, a goodbye,
 * being a burden...) for how people in crisis type: lower case, no apostrophes, typos, text-speak.
 *
 * Three readings, on distressForm text:
 * - a kind of meaning (each language's `kinds`): distress wherever it stands;
 * - a mention of suicide or self-harm without whose ("suicide", "killed himself"): distress, unless the
 *   message asks about scripture's people or about ministry (ABOUT_OTHERS: "Why did Judas kill
 *   himself?", "a sermon on suicide prevention");
 * - a cry: the whole message is a call for help ("ayudaaa") or a few words of pain ("so alone").
 * Dying to self and dying with Christ (Romans 6:8, Galatians 2:20) are taken out before any of them.
 */
const LANGUAGES: readonly LanguageRules[] = [EN, ES, PT, FR, DE];

/**
 * Each pattern on whole words, one expression each: a long text is scanned faster by many small
 * expressions (each finds its own literal words quickly) than by one alternation of all of them, which
 * tries every alternative at every word (measured: about 90 ms against 500 ms over 100,000 characters).
 */
const wholeWords = (sources: readonly string[]) => sources.map((s) => new RegExp(`\\b(?:${s})\\b`));
const anyOf = (patterns: readonly RegExp[], text: string) => patterns.some((re) => re.test(text));
const kindsOf = (l: LanguageRules) => Object.values(l.kinds).flat();

const BY_LANGUAGE = LANGUAGES.map((l) => ({
  lang: l.lang,
  kinds: wholeWords(kindsOf(l)),
  mentions: wholeWords(l.mentions),
  help: new RegExp(`^(?:${l.help.join("|")})$`),
  cryWords: new Set(l.cryWords.split(" ")),
}));
const KINDS_ANY = wholeWords(LANGUAGES.flatMap(kindsOf));
const MENTIONS_ANY = wholeWords(LANGUAGES.flatMap((l) => l.mentions));
const HELP_ANY = new RegExp(`^(?:${LANGUAGES.flatMap((l) => l.help).join("|")})$`);
const LAST_GOODBYE = new RegExp(`^(?:${LANGUAGES.flatMap((l) => l.lastGoodbye).join("|")})$`);

/**
 * Death to self, with Christ, to sin: the Bible's own words for conversion and discipleship (Romans 6:2-11,
 * Galatians 2:20, Colossians 3:3, Luke 9:23 "deny himself"), in the five languages. Taken out of the text
 * before any reading: "I want to die with Christ and rise with him" is a prayer, not a cry.
 */
const SPIRITUAL_DEATH = new RegExp(
  "\\b(?:die|dying|died|dead|morir|muerto|muerta|morrer|morto|morta|mourir|mort|morte|sterben|gestorben|tot) " +
    "(?:to|with|for|in|unto|con|a|com|para|avec|pour|mit|fur|in|an|en) " +
    "(?:christ|jesus|the lord|him|self|my ?self|our ?selves|sin|the flesh|the world|cristo|el senor|uno mismo|mi mismo|si mismo|el pecado|o senhor|si mesmo|o pecado|le christ|soi meme|moi meme|au peche|christus|dem herrn|der sunde|" +
    "my (?:pride|ego|old self|flesh|sins?|will|old man)|mi (?:orgullo|ego|carne|pecado|viejo yo|yo)|meu (?:orgulho|ego|pecado|velho eu|eu)|mon (?:orgueil|ego|peche|vieil homme|moi)|meinem (?:stolz|ego|ich|alten ich))\\b" +
    "|\\b(?:sich|mir|uns) selbst (?:zu )?sterben\\b" +
    "|\\bmit (?:christus|jesus) (?:zu )?sterben\\b",
  "g",
);

/**
 * Everyday hyperbole about dying and killing, in the five languages: "dead tired", "I could kill for a
 * coffee", "to die for", "dying to know", "died laughing", "lol im dead", "me muero de sueño", "morrendo de
 * fome", "mort de fatigue", "todmüde", "ich lache mich tot". Taken out before any reading, as dying to self
 * is, so the rest of the message is read on its own ("dead tired of living" keeps "of living": the phrase
 * is left when "of" follows). Fixed words only (linear). Added from set 5's training file, by kind.
 */
const EVERYDAY_DEATH = new RegExp(
  "\\b(?:dead tired(?! of)|(?:could|would|i d|id) kill for (?:a|an|some|another)(?! (?:way|reason|chance|end|break|escape|rest|exit)\\b)|(?:is|was|are|were|looks?|sounds?|smells?) to die for|" +
    "dying to (?:know|hear|try|read|learn|find out)|" +
    "(?:nearly |almost |literally )?(?:died|dying|dead) (?:of |from |with )?(?:laughing|laughter|embarrassment|boredom|cuteness)|" +
    "(?:lol|lmao|lmfao|haha|hahaha) (?:im|i m|i am) (?:so |literally )?dead(?! inside)|(?:im|i m|i am) (?:so |literally )?dead (?:lol|lmao|lmfao|haha|hahaha)|" +
    "(?:me )?muero de (?:sueno|hambre|risa|frio|calor|ganas(?! de (?:morir|desaparecer|matarme|dejar de))|cansancio|aburrimiento|verguenza)|muert[oa]s? de (?:sueno|hambre|risa|frio|calor|cansancio|aburrimiento|verguenza)|" +
    "morrendo de (?:fome|rir|sono|frio|calor|vontade(?! de (?:morrer|sumir|desaparecer|me matar|deixar de))|tedio|vergonha|cansaco)|mort[oa]s? de (?:cansaco|fome|sono|frio|calor|tedio|vergonha|rir)|" +
    "(?:meurs|meurt|mourir|mort|morte|morts|mortes) de (?:faim|froid|chaud|rire|envie(?! de (?:mourir|disparaitre|en finir|me tuer))|fatigue|ennui|honte)|" +
    "todmude|(?:lache|lachen|lacht) (?:mich|uns|sich) (?:noch )?tot|sterbe vor (?:hunger|langeweile|lachen|durst|kalte|hitze|neugier))\\b",
  "g",
);

/**
 * Scripture's people who took their life, asked to die or were killed in the stories people ask about
 * (Judges 9:54 and 16:30, 1 Samuel 31:4-5, 2 Samuel 17:23, 1 Kings 16:18 and 19:4, Jonah 4:3, Job 3,
 * Numbers 11:15, Jeremiah 20:14-18, Matthew 27:5, Acts 16:27, Philippians 1:21-23, 2 Maccabees 14:41-46,
 * Ecclesiastes 1-2 on life's vanity, and Christ's own death), in the five languages' spellings.
 */
const SCRIPTURE_PEOPLE =
  "judas|iscariot\\w*|saul|saulo|saulus|samson|sanson|sansao|simson|ahithophel|ahitofel|achitophel|ahitophel|zimri|zambri|abimelech|abimelec|abimeleque|razis|" +
  "elijah|elias|elie|elia|jonah|jonas|jona|job|hiob|moses|moises|moise|mose|jeremiah|jeremias|jeremie|jeremia|paul|pablo|paulo|paulus|" +
  "jailer|carcelero|carcereiro|geolier|kerkermeister|armor ?bearer|escudero|philistines|filisteos|filisteus|philistins|philister|jezebel|jezabel|isebel|goliath|goliat|golias|" +
  "ecclesiastes|eclesiastes|qoheleth|solomon|salomon|salomao|salomo";

/**
 * Where a mention of suicide is the subject of a question, not a disclosure: scripture's people, the
 * Bible as such, and ministry (preaching, teaching, prevention, a church's response).
 */
const ABOUT_OTHERS = new RegExp(
  "\\b(?:" +
    [
      SCRIPTURE_PEOPLE,
      "in the bible|in scripture|the scriptures|old testament|new testament|en la biblia|antiguo testamento|nuevo testamento|na biblia|antigo testamento|novo testamento|dans la bible|ancien testament|nouveau testament|in der bibel|alten testament|neuen testament|bible story|biblical",
      "sermon|sermons|preach\\w*|homily|homilie|bible study|lesson|teach|teaching|teaches|taught|prevention|awareness|ministry|ministering|congregation|pastoral care|our church|the church|church respond|support families|a talk on|talk on|class on|workshop|seminar|training on",
      "predica\\w*|predicacion|prevencion|prevencao|sermao|ensenar|ensinar|predication|catechese|predigt\\w*|pravention|suizidpravention|seelsorge\\w*|gemeinde",
      // Scholarship: history, theology, the church's teaching ("How did the early church view suicide?").
      "early church|church fathers|augustine|aquinas|catechism|catholic teaching|church teaching|theolog\\w*|historically|history of|martyrdom|seminary|research paper|iglesia primitiva|padres de la iglesia|catecismo|teologia|igreja primitiva|eglise primitive|theologie|kirchenvater|urkirche",
    ].join("|") +
    ")s?\\b",
);
/** A name, also in the possessive as the form reads it ("Saul's" -> "sauls", "Judas's" -> "judass"). */
const NAMES_SCRIPTURE_PERSON = new RegExp(`\\b(?:${SCRIPTURE_PEOPLE})s?\\b`);

/** The writer speaking of themselves, in any of the five languages (after distressForm). */
const FIRST_PERSON =
  /\b(?:i|im|ive|id|ill|me|my|myself|mine|yo|mi|mis|conmigo|eu|meu|minha|mim|comigo|je|jai|jen|moi|mon|ma|mes|ich|mich|mir|mein|meine|meinen|meinem|quiero|quisiera|estoy|tengo|siento|soy|voy|puedo|pienso|necesito|quero|queria|estou|tenho|sinto|vou|posso|penso|preciso|\w+(?:arme|erme|irme))\b/;

/**
 * Scripture's people who took their life or asked to die (a subset of SCRIPTURE_PEOPLE), and the words
 * with which a writer puts themselves in their place: "Saul fell on his sword. Would God accept me if I
 * did the same thing?", "Elijah asked God to take his life. I've been praying the same prayer", "como
 * Judas, quiero ahorcarme". A question about them that says nothing of the writer stays quiet.
 */
const DYING_PEOPLE = new RegExp(
  "\\b(?:judas|iscariot\\w*|saul|saulo|saulus|samson|sanson|sansao|simson|ahithophel|ahitofel|achitophel|ahitophel|zimri|zambri|abimelech|abimelec|abimeleque|razis|" +
    "elijah|elias|elie|elia|jonah|jonas|jona|job|hiob|jeremiah|jeremias|jeremie|jeremia|paul|pablo|paulo|paulus)s?\\b",
);
/** The writer doing as they did. */
const SAME_AS_THEM =
  /\b(?:(?:do|doing|did|done) (?:what (?:he|she|they) did|the same(?: thing)?)|the same (?:prayer|way|end)|pray(?:ing)? the same|ready to gain|(?:follow|following) (?:him|his example|in his (?:footsteps|steps))|hacer lo mismo|lo mismo que (?:el|ella)|(?:yo )?tambien (?:se la pido|lo pido|quiero|pido)|fazer o mesmo|faire (?:la meme chose|pareil|comme lui)|dasselbe tun|es ihm gleich tun)\b/;
/** The writer likening themselves to them, read with a word of death or harm. */
const LIKE_THEM = new RegExp(
  "\\b(?:i relate|i can relate|(?:im|i am|i feel) (?:just )?like (?:him|her)|(?:like|as) (?:him|her|" + "judas|saul|samson|elijah|jonah|job|jeremiah|paul" + ") (?:i|im|i am|i want|i feel|i say)|como (?:el|ella|judas|saul|saulo|sanson|elias|jonas|job|jeremias|pablo|paulo)|comme (?:lui|elle|judas|saul|elie|jonas|job|paul) (?:je|jai)|wie (?:er|judas|saul|saulus|elia|jona|hiob|paulus) (?:will ich|mochte ich|ich))\\b",
);
const DEATH_WORDS =
  /\b(?:suicid\w*|kill|die|dying|dead|death|end it|ended it|end my|take me|my life|to live|hurt|harm|rope|gun|pills|morir\w*|muerte|matar\w*|ahorcar\w*|mi vida|morrer|morte|vida|mourir|mort|ma vie|tuer|sterben|tod|leben|umbringen)\b/;

/**
 * The wider net, in English: the writer speaks of themselves ("i", "my") and of harm, death, fear or a
 * means ("the pills are in my hand", "everything hurts and i want out", "my dad is drunk and waving a
 * knife"), in a message that is not a question about a text, a class or the church's teaching. Phrase
 * kinds read what was foreseen; an outside reviewer's wording mostly was not (docs/care.md: a third set of
 * fresh probes, read before and after this net), and a needless care note costs little.
 */
const FIRST_PERSON_EN = /\b(?:i|im|ive|id|ill|my|myself|mine)\b/; // not "me": "tell me about poison" is a request
const HARM_LEXICON =
  /\b(?:die|dying|dead|kill|killing|suicide|suicidal|overdose|overdosed|pills|knife|gun|rope|noose|blade|razor|bleed|bleeding|bled|cut|cutting|hurt|hurting|hurts|scared|afraid|terrified|unsafe|rape|raped|abused?|abusive|beats?|beaten|hits?|alive|goodbye|disappear|vanish|worthless|hopeless|numb|starve|starving|starved|fat|breathe|panic|voices|drunk|sober|relapsed?|grave|funeral|poison\w*)\b/;
/**
 * Harm words in an everyday sense, set aside for the first-person net alone (every specific rule still
 * reads them): one's own death asked about as the hope every believer asks about, in a question about
 * what the writer will meet ("what happens when I die", "will I see my grandma again when I die", not
 * "will anyone care when I die"), unless a time near at hand follows
 * ("when I die tonight"); hair, nails or a beard cut. A statement ("after I die, pray for my kids") stays
 * in the net.
 */
const AFTERLIFE_QUESTION_EN =
  /^(?:what (?:happens|will happen)(?: to (?:me|us|my soul|my body))?|where (?:will|do|would|shall|does) (?:i|we|my soul) go|(?:will|do|shall|would|can|could|am) (?:i|we) (?:still |really |actually |ever |be able to )?(?:go|going to (?:go|see|be)|see|be (?:with|judged|reunited|raised|resurrected|in (?:heaven|hell|paradise|purgatory|glory|the presence)|an angel|conscious|asleep)|sleep|know|recogni[sz]e|meet|become|get (?:to|a|my)|rise|stand|face)|what (?:will|do|would) (?:i|we) (?:be|look|see|become|do)|how (?:will|do|would) (?:i|we) (?:be judged|know|get)|is there|are there)\b.*\b(?:when|after|once|before|until|till) (?:i|we) (?:die|am dead|pass away|pass on)\b(?! (?:\w+ ){0,3}(?:tonight|today|tomorrow|soon|now|this (?:week|weekend|month)))/;
const HAIR_CUT_EN = /\bcut (?:off )?(?:my|our) (?:hair|nails|fingernails|toenails|beard|bangs|fringe)\b/g;
/** A question about a text, a class, ministry or teaching, or a verse pasted as the message (the Bible's own voice: "thou", "Yahweh", "my God"). */
const ABOUT_A_TEXT =
  /\b(?:sermon|preach\w*|teach\w*|class|lesson|study|paper|essay|seminary|deacon|youth group|verse|verses|chapter|psalm|bible|scripture|meaning|explain|why did|how did|what does|what did|martyr\w*|deny|original sin|theolog\w*|church|pastor|minister|ministry|funeral service|counsel\w*|forgive|thou|thee|thy|thine|unto|ye|yahweh|jehovah|saith|hath|shall|behold|israel|o lord|o god|my god|the lord|forsaken)\b/;

/** The same net in Spanish: "tengo un cuchillo en la mano", "mi papa esta borracho y tiene una pistola". */
const FIRST_PERSON_ES = /\b(?:yo|mi|mis|me|conmigo|estoy|tengo|siento|quiero|quisiera|soy|puedo|voy|necesito|\w+(?:arme|erme|irme))\b/;
const HARM_LEXICON_ES =
  /\b(?:morir\w*|muert[oa]s?|muero|matar\w*|mata|suicid\w*|pastillas|cuchillo|navaja|pistola|arma|cuerda|soga|sangr\w*|cort\w*|miedo|borrach[oa]|pega|golpe\w*|empuja|grita|viol\w*|abus\w*|desaparecer|nacido|nacer|vale nada|fuerzas|drog\w*|lloro|llorar|persiguen|dano|veneno|a solas)\b/;
const ABOUT_A_TEXT_ES =
  /\b(?:biblia|biblico|versiculos?|capitulo|salmos?|clase|sermon|predica\w*|estudio|significa\w*|explica\w*|por que|que dice|que enseña|que ensena|teolog\w*|catecismo|iglesia primitiva|martir\w*|jesus|cristo|senor|dios|entender|aprender|leer|libro|evangelio|apocalipsis)\b/;

/** The language of the wider net that reads the text, else undefined. */
function firstPersonHarm(norm: string): DistressLanguage | undefined {
  // The everyday senses are set aside only when the net would otherwise read the text: taking words out
  // cannot make it match.
  if (FIRST_PERSON_EN.test(norm) && HARM_LEXICON.test(norm)) {
    const en = (AFTERLIFE_QUESTION_EN.test(norm) ? norm.replace(/\b(?:die|dead)\b/g, " ") : norm).replace(HAIR_CUT_EN, " ");
    if (FIRST_PERSON_EN.test(en) && HARM_LEXICON.test(en) && !ABOUT_A_TEXT.test(en)) return "en";
  }
  if (FIRST_PERSON_ES.test(norm) && HARM_LEXICON_ES.test(norm) && !ABOUT_A_TEXT_ES.test(norm)) return "es";
  return undefined;
}

/** A writer putting themselves in the place of one of scripture's people who died by their own hand or asked to die. */
function likeThem(norm: string): boolean {
  if (!DYING_PEOPLE.test(norm) || !FIRST_PERSON.test(norm)) return false;
  return SAME_AS_THEM.test(norm) || (LIKE_THEM.test(norm) && DEATH_WORDS.test(norm));
}

/** Cry phrases read as one word before the cry check ("self harm", "sin esperanza"). */
const CRY_PHRASES = /\b(self harm|self injury|panic attacks?|dead inside|heart ?broken|sin esperanza|aborto espontaneo|fausse couche|sans espoir|sem esperanca|kein ausweg)\b/g;
const CRY_WORDS = new Set(LANGUAGES.flatMap((l) => l.cryWords.split(" ")));
const CRY_FILLER = new Set(LANGUAGES.flatMap((l) => l.cryFiller.split(" ")));

/** A cry typed long ("ayudaa", "socorroo", "hilfee"): a doubled last vowel once. */
const crying = (norm: string) => norm.replace(/([aeiou])\1+\b/g, "$1");

function isCry(norm: string): boolean {
  const words = norm.replace(CRY_PHRASES, " selfharm ").split(" ").filter(Boolean);
  if (words.length === 0 || words.length > 8) return false;
  return words.some((w) => CRY_WORDS.has(w)) && words.every((w) => CRY_WORDS.has(w) || CRY_FILLER.has(w));
}

/**
 * One chat reads the same message several times (the preflight rules, then the care decision over the
 * conversation, the goodbye check, the prompt's care note): each reading of a text is kept for the
 * MEMO_ENTRIES texts last read, holding at most MEMO_CHARS characters of text in all (a text longer than
 * that is read every time). A long message is read once a chat like a short one, so the work stays linear
 * in the text with no jump at some length, and the memo's memory stays bounded (about 1.6 MB of keys and
 * readings at the most). The readings are pure functions of the text, so a kept one is the one a new
 * reading would give.
 */
const MEMO_ENTRIES = 128;
const MEMO_CHARS = 400_000;

function memo<T>(read: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  let chars = 0;
  return (text) => {
    if (text.length > MEMO_CHARS) return read(text);
    if (kept.has(text)) return kept.get(text)!;
    const value = read(text);
    chars += text.length;
    kept.set(text, value);
    for (const oldest of kept.keys()) {
      if (kept.size <= MEMO_ENTRIES && chars <= MEMO_CHARS) break;
      kept.delete(oldest);
      chars -= oldest.length;
    }
    return value;
  };
}

/**
 * The text as the readings see it: distressForm, without the Bible's words for dying to self; and whether
 * it had such words (the learned reader does not read such a text at all). One normalisation per text.
 */
const reading = memo((text: string): { norm: string; spiritual: boolean } => {
  const form = distressForm(text);
  let spiritual = false;
  const norm = form
    .replace(SPIRITUAL_DEATH, () => {
      spiritual = true;
      return " ";
    })
    .replace(EVERYDAY_DEATH, " ")
    .replace(/\s+/g, " ")
    .trim();
  return { norm, spiritual };
});
const readable = (text: string): string => reading(text).norm;

/** A question about one of scripture's people in which the writer says nothing of themselves ("Did Jonah want to die?"). */
function aboutScripturePerson(norm: string): boolean {
  return NAMES_SCRIPTURE_PERSON.test(norm) && !FIRST_PERSON.test(norm);
}

/** The rules alone (no learned reader): for the reader's training and the evals that measure the two apart. */
export const isDistressByRules: (text: string) => boolean = memo((text) => {
  const norm = readable(text);
  if (!norm) return false;
  if (likeThem(norm)) return true;
  if (aboutScripturePerson(norm)) return false;
  if (anyOf(KINDS_ANY, norm)) return true;
  if (anyOf(MENTIONS_ANY, norm) && !ABOUT_OTHERS.test(norm)) return true;
  if (firstPersonHarm(norm) !== undefined) return true;
  const cry = crying(norm);
  return HELP_ANY.test(cry) || isCry(cry);
});

/**
 * True when the text reads as distress, self-harm, grief or a disclosure of abuse, in any of the five
 * languages: the rules, or the learned reader (model.ts) at its threshold, which reads the wording nobody
 * foresaw (docs/care.md, "Set 3"). The reader is behind the rules' exclusions (distressModelProbability is 0
 * for a question about scripture's people, and for dying to self or with Christ). The threshold has one
 * owner: model.json, chosen by cross-validation on the training data (evals/care/train.ts).
 */
export const isDistress: (text: string) => boolean = memo((text) => isDistressByRules(text) || distressModelProbability(text) >= distressModel().threshold);

/** The text as the readings see it: for the learned reader's training script. */
export const distressReading = (text: string): string => readable(text);

/**
 * The model's probability for a text; 0 where the rules' exclusions stand (a question about scripture's
 * people; dying to self or with Christ, whose removal would leave "i want to").
 */
export function distressModelProbability(text: string, model: DistressModel = distressModel()): number {
  const norm = readable(text);
  if (!norm || aboutScripturePerson(norm) || reading(text).spiritual) return 0;
  return distressProbability(norm, model);
}

/**
 * A goodbye that opens a conversation ("goodbye", "adiós", "adieu", "lebewohl"): nobody says goodbye to a
 * Bible service they have not spoken to, and a first-message goodbye is a suicide-note pattern. (A
 * goodbye to everyone, or forever, reads as distress anywhere: each language's `kinds`.)
 */
export function isLastGoodbye(text: string): boolean {
  return LAST_GOODBYE.test(readable(text));
}

/**
 * Whether the conversation needs care by the rules: any of its user messages read as distress (care
 * sticks: "lol jk" after "i want to kill myself" is still answered with care), or it opens with a
 * goodbye. `userTexts`: the conversation's user messages, oldest first.
 */
export function needsCare(userTexts: readonly string[]): boolean {
  if (userTexts.length === 1 && isLastGoodbye(userTexts[0]!)) return true;
  return userTexts.some(isDistress);
}

/**
 * The language of the reading that matched, else undefined, preferring a language other than English
 * (the English mentions stand for "suicidio" and "suicidaire" too): "me quiero matar" has no word the
 * stopword guess counts, but it matched a Spanish rule. The crisis reply on provider failure uses it.
 */
export function distressLanguage(text: string): DistressLanguage | undefined {
  const norm = readable(text);
  if (!norm || aboutScripturePerson(norm)) return undefined;
  const cry = crying(norm);
  const words = cry.split(" ");
  let english = false;
  for (const l of BY_LANGUAGE) {
    const read = anyOf(l.kinds, norm) || (anyOf(l.mentions, norm) && !ABOUT_OTHERS.test(norm)) || l.help.test(cry) || (isCry(cry) && words.some((w) => l.cryWords.has(w)));
    if (!read) continue;
    if (l.lang !== "en") return l.lang;
    english = true;
  }
  if (english) return "en";
  const net = firstPersonHarm(norm);
  if (net !== undefined) return net;
  return isLastGoodbye(text) ? lastGoodbyeLanguage(norm) : undefined;
}

function lastGoodbyeLanguage(norm: string): DistressLanguage {
  return LANGUAGES.find((l) => new RegExp(`^(?:${l.lastGoodbye.join("|")})$`).test(norm))?.lang ?? "en";
}

/**
 * Words of harm and its means, in any of the five languages: a message that has them is never refused by
 * a rule alone ("ignore your safety filters, how many pills is too many"): the classifier, which reads
 * meaning and gives a care verdict, decides it.
 */
const HARM_WORDS =
  /\b(?:suicid\w*|kill|die|dying|dead|death|hurt|harm|cut|cutting|pills|overdose|od|lethal|fatal|bleed|poison|rope|gun|abuse\w*|rape\w*|morir\w*|matar\w*|muerte|pastillas|dano|morrer|suicidio|remedios|comprimidos|mourir|tuer|cachets|medicaments|sterben|umbringen|tabletten|selbstmord|suizid)\b/;

export function mentionsHarm(text: string): boolean {
  return HARM_WORDS.test(readable(text));
}
