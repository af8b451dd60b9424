import { BOOKS } from "../../src/scripture/books.js";
import type { PreflightCategory } from "./contract.js";
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

/**
 * Distress, self-harm and abuse, in the languages the service hears most (English, Spanish,
 * Portuguese, French, German). These run before every other rule: such a message always reaches the
 * agent, whose guardrails carry the crisis guidance, with the care-first note. A false positive costs a
 * note the model did not need (the agent's rules still hold); a miss can cost a life. The patterns are
 * written for how people in crisis type: lower case, no apostrophes ("im", "dont", "cant"), typos
 * ("wanna", "kil myself"), one word alone ("raped", "duelo").
 *
 * Every pattern runs on distressForm(text): accents and apostrophes removed ("don't" -> "dont", "j'ai"
 * -> "jai", "m'a" -> "ma"), other punctuation a space, lower case. There is no cheaper pre-filter in
 * front of them: a stem list once drifted from the patterns and let "I want to end it all" through.
 */

export type DistressLanguage = "en" | "es" | "pt" | "fr" | "de";

/** "I am / I'm / im / I've been / I was / I got": the first person as people type it (after distressForm). */
const I_AM = "(?:i am|im|i m|iam|i was|ive been|i have been|i had been|i got|i get|i keep getting|i keep being|i am being)";
/** The people who hurt someone, as a disclosure names them ("my uncle", "the youth pastor", "our priest"). */
const ROLE =
  "(?:youth pastor|youth leader|youth minister|step ?dad|step ?father|step ?mom|step ?mother|step ?brother|(?:grand ?)?(?:father|dad|daddy|mother|mom|mum|pa|ma)|uncle|aunt|brother|sister|cousin|husband|wife|spouse|partner|boyfriend|girlfriend|ex|fiance|teacher|coach|pastor|priest|minister|deacon|elder|bishop|leader|boss|neighbou?r|babysitter|nanny|tutor|doctor|counsel?lor|parents?|guardian|foster (?:dad|father|mom|mother|parent))";
/** Who a disclosure says did it: a pronoun, "my <anyone>", or a role ("the pastor"), never any noun ("the psalm hit me"). */
const DOER = `(?:he|she|they|someone|somebody|my \\w+(?: \\w+)?|(?:the|a|an|our|his|her|their) ${ROLE})`;
/** Abuse verbs that need no qualifier once a person does them to "me". */
const HARM_VERBS =
  "(?:beats|beat|beating|hits|hit|hitting|hurts|hurt|hurting|chokes|choked|choking|strangles|strangled|slaps|slapped|punches|punched|kicks|kicked|rapes|raped|raping|molests|molested|molesting|abuses|abused|abusing|grabs|grabbed|threatens|threatened|forces|forced)";
/** Touching is a disclosure from "my uncle" or "the pastor"; from "he" or "someone" only with more ("He touched me" is a hymn, Luke 8:46 "Someone touched me"). */
const TOUCH = "(?:touches|touched|touching|touch|fondles|fondled|gropes|groped|feels me up|felt me up)";
const TOUCH_MORE =
  "(?:there|down there|inappropriately|sexually|in my|on my|under|at night|when i|while i|since i|without|and (?:told|said|made|i)|every|again|where|in places|in private|in a bad way|in the wrong|private)";
const VICTIM = "(?:me|my (?:daughter|son|child|kids|children|baby|sister|brother|wife|mom|mother|little \\w+))";

const DISTRESS: [DistressLanguage, RegExp][] = [
  // English: suicide and self-harm ("suicid..." also stands for suicidio, suicídio, suicidaire).
  ["en", new RegExp(
    [
      "suicid\\w*",
      "self ?harm\\w*",
      "self ?injur\\w*",
      "unaliv\\w*",
      "(?:want to|wanna|gonna|going to|about to) kms",
      "kill?(?:ing|ed)? my ?self",
      "kill(?:ed|ing)? (?:himself|herself|themselves|themself)",
      "(?:end|ending|ended|take|taking|took|takes) (?:my|his|her|their) (?:own )?life",
      "end(?:ing)? it all",
      "(?:want to|wanna|going to|gonna|gona|will|might|thinking (?:about|of)|think about|plan to|planning to|ready to) end (?:it|everything|my life|things)",
      // "I want to die", not "I want to die to self" (Romans 6, Galatians 2:20).
      "(?:want|wanted|wanting|wanna|wana|wish|wishing|ready|going|gonna|deserve|just want) (?:to |too |2 )?die(?! (?:to|unto) (?:self|my ?self|sin|the (?:flesh|world|old)|my (?:flesh|old|sin|ego|pride|will)|our ?selves|ourselves))",
      "(?:wish|wished) i (?:was|were|could be) dead",
      "(?:wish|wished) i (?:had never|hadnt|was never|wasnt|were never) (?:been )?born",
      "better off (?:dead|without me)",
      "(?:dont|do not|no longer|never|dont really|doesnt|do not really) (?:want|wanna|wish) (?:to )?(?:live|be alive|be here|exist|wake up|go on|keep going|keep living)",
      "no (?:reason|point|purpose) (?:to|in|of) (?:live|living|go on|going on|being alive|life|keep going)",
      "(?:whats|what is) the point (?:of|in) (?:living|life|going on|being alive)",
      "nothing (?:left )?to live for",
      "(?:tired|sick) of (?:living|life|being alive)",
      "give up on life",
      "(?:cant|cannot|can not|couldnt) (?:go on|take (?:it|this|any ?more)|do this any ?more|keep going|live like this|handle (?:it|this|life) any ?more|breathe any ?more)",
      "(?:hurt|hurting|harm|harming|cut|cutting|burn|burning|starve|starving) (?:my ?self|my (?:arms?|wrists?|legs?|skin|thighs?))",
      "overdos\\w*",
      "(?:hang|hanging|drown|drowning|shoot|shooting|poison|poisoning) my ?self",
      "jump(?:ing)? (?:off (?:a |the |of )?(?:bridge|building|roof|cliff|balcony)|in front of)",
      "(?:took|swallowed|take|swallow) (?:all|a bunch of|too many|a lot of) (?:my |the |of my )?(?:pills|meds|tablets)",
    ].join("|"),
  )],
  // English: feelings in the first person, loss and grief.
  ["en", new RegExp(
    [
      `${I_AM} (?:so |really |very |just |feeling |completely |totally |been |always |still |deeply )*(?:depressed|hopeless|suicidal|worthless|desperate|in despair|grieving|heartbroken|devastated|broken inside|dead inside|numb|empty inside|falling apart|not ok|not okay)`,
      "i (?:feel|felt|am feeling|m feeling|have felt|ve felt) (?:so |really |very |completely |totally |just )*(?:hopeless|worthless|empty|numb|alone|lonely|dead inside|like dying|like giving up|like a burden|like ending|abandoned by god|suicidal|depressed)",
      "(?:i|we) (?:had|have had|just had|suffered) a (?:miscarriage|stillbirth|stillborn)",
      "(?:lost|losing) (?:my|our) (?:baby|pregnancy|unborn)",
      "(?:my|our) (?:baby|son|daughter) (?:was|is) stillborn",
      "(?:my|our) (?:\\w+ )?(?:baby|son|daughter|child|husband|wife|mom|mother|dad|father|brother|sister|friend|boyfriend|girlfriend|fiance) (?:just |recently )?(?:died|passed away|was killed|is dead)",
    ].join("|"),
  )],
  // English: abuse disclosed in the first person, also by a church leader, and a child's words.
  ["en", new RegExp(
    [
      `${I_AM} (?:being |getting |been )?(?:sexually |physically |emotionally |verbally |repeatedly |spiritually )?(?:abused|molested|raped|assaulted|groomed|beaten|hit|trafficked|touched inappropriately|sexually assaulted)`,
      "(?:abused|molested|raped|groomed|trafficked|assaulted) by (?:my|a|an|the|our|his|her|their|someone|somebody|him|her|them|\\w+ (?:pastor|priest|leader|teacher|coach|uncle|father|dad))",
      "beaten by (?:my|someone|somebody|him|her|them)",
      `(?:abuses|abused|abusing|molests|molested|molesting|rapes|raped|raping|assaulted|assaults|grooming|grooms|groomed|trafficked|beats|beat|beating) ${VICTIM}`,
      `${DOER} (?:keeps |kept |always |still |sometimes |often |would |used to |has |had )?${HARM_VERBS} ${VICTIM}(?! up)`,
      `(?:my \\w+(?: \\w+)?|(?:the|a|an|our|his|her|their) ${ROLE}) (?:keeps |kept |always |still |sometimes |would |used to )?${TOUCH} (?:me|my)`,
      `(?:he|she|they|someone|somebody) (?:keeps |kept |always |still |sometimes |would |used to )?${TOUCH} me ${TOUCH_MORE}`,
      `${TOUCH} me (?:inappropriately|sexually|down there|in my private|in private places)`,
      "inappropriate(?:ly)? touch\\w*",
      "bad touch",
      "(?:forces|forced|forcing|makes|made|making|pressures|pressured|coerces|coerced|pushes|pushed) me (?:to |into )?(?:have sex|having sex|sleep with|sex|do sexual|do things|perform|send nudes)",
      "forced (?:himself|herself) on me",
      "(?:marital|date|spousal) rape",
      "(?:didnt|did not|never|couldnt) consent",
      "without my consent",
      "against my will",
      "(?:domestic|sexual|family|intimate partner|child|clergy) (?:violence|abuse|assault)",
      `(?:afraid|scared|terrified) (?:of|of what) my ${ROLE}`,
      `my ${ROLE} (?:is |was |has been |gets |can be )?(?:abusive|violent)`,
      "abusive (?:husband|wife|marriage|relationship|father|dad|mother|mom|home|parents?|partner|boyfriend|pastor)",
      // Someone else's disclosure passed on (a teacher, a parent, a friend): "a girl in my class says her
      // stepdad hurts her", "my friend's dad touches her", "I think my student is being abused". Bible
      // stories name their people ("Amnon raped Tamar") and stay quiet.
      `(?:her|his|their|my friends?|my \\w+s|a \\w+s) ${ROLE} (?:keeps |still |sometimes |often |has been |is |was )?(?:hurts|hurting|hits|hitting|beats|beating|touches|touching|touched|abuses|abusing|abused|molests|molesting|molested|rapes|raping|raped|chokes|choked) (?:her|him|them)`,
      "(?:child|kid|student|pupil|girl|boy|friend|classmate|daughter|son|niece|nephew|grandchild|granddaughter|grandson|teen|teenager) (?:is being|was being|has been|had been|is getting|got|was) (?:sexually |physically )?(?:abused|molested|raped|groomed|beaten|touched inappropriately)",
      "(?:she|he|they) (?:is|was|has been|are|were|had been) being (?:sexually |physically )?(?:abused|molested|raped|groomed|beaten|hurt|hit|touched)",
      "(?:disclosed|reported|confided|told me about) (?:sexual |physical )?(?:abuse|being abused|being touched|being hurt|a rape)",
      "(?:not|never) safe at home",
      "unsafe at home",
      "(?:scared|afraid|terrified) to go home",
    ].join("|"),
  )],
  ["en", /^(?:please |pls |plz |someone |somebody )?(?:help|help me|help me please|help pls|help plz|i need help|need help|i need help please|please help me|sos|save me)$/],
  // Spanish.
  ["es", new RegExp(
    [
      "matarme",
      "(?:me )?(?:quiero|voy a|pienso|quisiera|deseo) (?:matar(?:me)?|suicidar(?:me)?)",
      "quitarme la vida",
      "(?:se|me) (?:quito|quite) la vida",
      "se mato",
      "(?:acabar|terminar) con (?:mi vida|todo|esto)",
      "(?:quiero|quisiera|deseo|prefiero) (?:morir\\w*|estar muert[oa]|desaparecer|dejar de existir)",
      "me quiero morir",
      "ganas de morir",
      "(?:no|ya no) quiero (?:vivir|seguir viviendo|seguir|despertar|estar aqui|existir)",
      "no tengo (?:razones|motivos|ganas|razon) (?:para|de) (?:vivir|seguir)",
      "(?:hacerme|me hago) dano",
      "autolesi\\w*",
      "(?:cortarme|me corto|me estoy cortando)",
      "no (?:puedo|aguanto|soporto) mas",
      "mejor (?:muert[oa]|sin mi)",
      "estarian mejor sin mi",
      `(?:estoy|me siento|ando) (?:muy |tan |tanto |super |bien |demasiado )*(?:deprimid[oa]|desesperad[oa]|sin esperanza|vaci[oa]|destrozad[oa]|sol[oa] y|con ganas de morir)`,
      "(?:perdi|perdimos|tuve|he tenido) (?:a mi bebe|a nuestro bebe|un aborto|el bebe|mi embarazo)",
      "(?:mi|nuestro) (?:hij[oa]|bebe|espos[oa]|marido|padre|madre|papa|mama|herman[oa]) (?:murio|fallecio|se fue|nacio muert[oa])",
    ].join("|"),
  )],
  ["es", new RegExp(
    [
      "me (?:abuso|abusa|abusaron|abusan|abusaba|violo|violaron|viola|violaba|pega|pegan|pegaba|golpea|golpean|golpeaba|maltrata|maltratan|maltrataba|lastima|lastimaba|amenaza|ahorca)",
      "(?:abuso|abusaron|abusa|abusaba) (?:sexualmente )?de mi",
      "(?:fui|he sido|soy|estoy siendo|sigo siendo) (?:abusad[oa]|violad[oa]|maltratad[oa]|golpead[oa]|agredid[oa])",
      "(?:abusad[oa]|violad[oa]) (?:sexualmente )?por",
      "violencia (?:domestica|sexual|intrafamiliar|de genero)",
      "(?:tengo|le tengo) miedo (?:de|a) mi (?:esposo|marido|padre|papa|madre|mama|padrastro|pareja|novio|pastor|sacerdote|tio|herman[oa])",
      "mi \\w+(?: \\w+)? me (?:toca|tocaba|toco|manosea|manoseaba)",
      "me (?:toca|tocaba|toco|manosea|manoseaba) (?:sin|cuando|en mis|mis partes|las partes|de noche|a escondidas|donde no)",
      "me (?:obliga|obligo|obligaba|fuerza|forzo|forzaba) a (?:tener (?:sexo|relaciones)|acostarme|hacer cosas)",
      "no estoy a salvo en (?:mi )?casa",
      "miedo de (?:volver|ir) a casa",
    ].join("|"),
  )],
  ["es", /^(?:por favor )?(?:ayuda|ayudame|ayudenme|auxilio|socorro|necesito ayuda|ayuda por favor|ayudame por favor)$/],
  // Portuguese.
  ["pt", new RegExp(
    [
      "(?:me|vou me|quero me) matar",
      "se matou",
      "tirar (?:a )?minha (?:propria )?vida",
      "(?:quero|vou) morrer",
      "(?:nao|ja nao) quero (?:mais )?(?:viver|existir|acordar)",
      "me (?:machucar|cortar|ferir)",
      "automutila\\w*",
      "(?:abusou|abusaram|abusa) de mim",
      "(?:fui|sou|estou sendo) (?:abusad[oa]|estuprad[oa]|violentad[oa]|espancad[oa])",
      "me (?:estuprou|estupra|bate|batia|espanca|violentou)",
      "violencia domestica",
      "me obriga a (?:ter relac\\w*|fazer sexo|transar)",
      "(?:estou|me sinto) (?:muito |tao )*(?:deprimid[oa]|desesperad[oa]|sem esperanca)",
    ].join("|"),
  )],
  // French.
  ["fr", new RegExp(
    [
      "me tuer",
      "(?:je veux|jai envie de|envie de) (?:mourir|en finir|disparaitre)",
      "en finir avec (?:la vie|tout|ma vie)",
      "mettre fin a (?:mes jours|ma vie)",
      "me faire du mal",
      "je ne veux plus (?:vivre|exister|me reveiller)",
      "(?:il|elle|on) me (?:frappe|bat|viole|force|menace|etrangle)",
      "(?:il|elle|on) me touche (?:la nuit|sans|quand|partout|encore|la ou)",
      "(?:il|elle|on) ma (?:viole\\w*|agresse\\w*|frappe\\w*|battu\\w*|force\\w*)",
      "jai ete (?:violee?|abusee?|agressee?|battue?|frappee?)(?: sexuellement)?",
      "(?:a|ont) abuse de moi",
      "abuse de moi",
      "violences? conjugales?",
      "(?:je suis|je me sens) (?:tellement |si |tres )*(?:deprime\\w*|desespere\\w*|sans espoir)",
      "jai fait une fausse couche",
    ].join("|"),
  )],
  // German.
  ["de", new RegExp(
    [
      "selbstmord\\w*",
      "suizid\\w*",
      "mich umbringen",
      "(?:will|mochte|moechte|werde) (?:nicht mehr leben|sterben|mich umbringen|mich toten)",
      "nicht mehr leben",
      "lebensmude",
      "(?:mich|mir) (?:ritzen|ritze|etwas antun|was antun)",
      "missbraucht",
      "vergewaltigt",
      "(?:schlagt|schlaegt|verprugelt|misshandelt) mich",
      "hausliche gewalt",
      "ich bin (?:so |sehr )*(?:deprimiert|verzweifelt|hoffnungslos)",
    ].join("|"),
  )],
];

/** Each DISTRESS pattern on whole words, by its language, and all of them in one expression. */
const DISTRESS_WORDS: [DistressLanguage, RegExp][] = DISTRESS.map(([lang, re]) => [lang, new RegExp(`\\b(?:${re.source})\\b`)]);
const DISTRESS_ANY = new RegExp(DISTRESS_WORDS.map(([, re]) => `(?:${re.source})`).join("|"));

/**
 * One word, or a few, that is itself a cry ("raped", "grief", "duelo", "Suizid", "cortarme"): the whole
 * message is these words and the little words around them ("im so depressed", "me siento sola"). A
 * longer message that only mentions grief ("What does the Bible say about grief?") is a topic question.
 */
const SPANISH_CRY_WORDS = new Set(
  (
    "duelo luto abuso abusada abusado violacion violada violado deprimida deprimido depresion desesperada desesperado desesperanza " +
    "triste tristeza sola solo soledad miedo panico ansiedad angustia angustiada angustiado sufrimiento dolor suicidio cortarme " +
    "autolesion maltrato maltratada golpeada aborto perdida destrozada destrozado"
  ).split(" "),
);
const CRY_WORDS = new Set(
  (
    // English
    "rape raped raping abuse abused abusive molested molestation assaulted assault incest trafficked grooming groomed " +
    "grief grieving bereaved bereavement mourning widowed widow depressed depression hopeless hopelessness helpless worthless " +
    "suicidal suicide despair despairing desperate miscarriage miscarried stillborn stillbirth lonely loneliness alone heartbroken " +
    "devastated broken numb empty anxious anxiety panic panicking scared terrified afraid frightened trauma traumatized traumatised " +
    "ptsd crying sad sadness cutting overdose overdosed dying lost suffering pain hurting hurt selfharm unalive exhausted " +
    // Spanish: SPANISH_CRY_WORDS, added below
    // Portuguese
    "estuprada estuprado abusada deprimida sozinha sozinho desesperada automutilacao tristeza " +
    // French
    "viol violee abusee deuil deprime deprimee desespere desesperee seule detresse " +
    // German
    "suizid selbstmord vergewaltigt missbraucht trauer deprimiert hoffnungslos fehlgeburt totgeburt einsam verzweifelt ritzen angst"
  )
    .split(" ")
    .concat([...SPANISH_CRY_WORDS]),
);
const CRY_PHRASES = /\b(self harm|self injury|panic attacks?|dead inside|heart ?broken|sin esperanza|aborto espontaneo|fausse couche|sans espoir|sem esperanca|kein ausweg)\b/g;
const CRY_FILLER = new Set(
  (
    "i im m iam am was been being feel feeling felt so very really just too much totally completely and or help me please pls plz my " +
    "a lot of in such still always ive got get getting keep today tonight now right anymore again all the time god oh " +
    "estoy me siento muy tan tanto tanta fui soy yo y ayuda ayudame por favor mucho mucha en de un una hoy ahora todavia siempre dios " +
    "estou eu sinto muito tao sou e socorro " +
    "je suis sens tres si tellement jai ete et aide moi " +
    "ich bin fuhle mich sehr wurde und hilfe habe"
  ).split(" "),
);

function isCry(norm: string): boolean {
  const words = norm.replace(CRY_PHRASES, " selfharm ").split(" ").filter(Boolean);
  if (words.length === 0 || words.length > 8) return false;
  return words.some((w) => CRY_WORDS.has(w)) && words.every((w) => CRY_WORDS.has(w) || CRY_FILLER.has(w));
}

/** Lower case, accents and apostrophes removed ("I'm" -> "im", "j'ai" -> "jai"), other punctuation a space. */
function distressForm(text: string): string {
  return foldMarks(text)
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/['’‘`´ʼ]/g, "")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The language of the first DISTRESS pattern the text matches, else undefined: "me quiero matar" has no
 * word the stopword guess (detectLanguage) counts, but it matched a Spanish pattern. The crisis reply
 * on provider failure uses it; nothing on the hot path does.
 */
export function distressLanguage(text: string): DistressLanguage | undefined {
  const norm = distressForm(text);
  if (!norm) return undefined;
  // "suicid..." is in the English list only, so a match in another language's list is the more telling one.
  let english = false;
  for (const [lang, re] of DISTRESS_WORDS) {
    if (!re.test(norm)) continue;
    if (lang !== "en") return lang;
    english = true;
  }
  if (isCry(norm) && norm.split(" ").some((w) => SPANISH_CRY_WORDS.has(w))) return "es";
  return english || isCry(norm) ? "en" : undefined;
}

/** True when the text reads as distress, self-harm, grief or a disclosure of abuse (see DISTRESS and CRY_WORDS). */
export function isDistress(text: string): boolean {
  const norm = distressForm(text);
  if (!norm) return false;
  return DISTRESS_ANY.test(norm) || isCry(norm);
}

/**
 * A message that closes or waves off a conversation: thanks, a goodbye, "never mind", "I'm fine",
 * "I have to go", in a short message that asks nothing. After a message that read as distress, such a
 * message is a known warning sign (the goodbye after a suicidal disclosure), so it goes to the agent
 * with the care note instead of a canned reply (needsCare).
 */
const CLOSING = new RegExp(
  `\\b(${[
    "thanks?", "thank (?:you|u)", "thx", "ty", "tysm", "bye", "goodbye", "good ?bye", "bye bye", "good ?night", "farewell", "see (?:you|ya)",
    "take care", "god bless(?: you)?", "cheers", "never ?mind", "nvm", "forget (?:it|about it|i said anything|i asked|everything)",
    "(?:it )?doesnt matter(?: anymore)?", "whatever", "(?:im|i am|ill be|i will be) (?:fine|ok|okay|alright|good)", "its (?:fine|ok|okay|alright)",
    "ok", "okay", "k", "fine", "alright", "(?:i )?(?:have|need|got|gotta) (?:to )?go", "im (?:going|leaving|done|out)", "thats (?:all|it)",
    "last message", "for everything", "for listening", "for trying", "(?:this is|its) (?:my )?(?:goodbye|the end)",
    "gracias", "adios", "chao", "chau", "hasta (?:luego|pronto|nunca|siempre|manana)", "nos vemos", "buenas noches", "(?:ya )?no importa",
    "olvidalo", "da igual", "estoy bien", "me (?:tengo que ir|voy)", "cuidate", "dios te bendiga", "bendiciones", "por todo",
    "obrigad[oa]", "adeus", "tchau", "merci", "au revoir", "adieu", "danke", "tschuss", "auf wiedersehen", "lebewohl",
  ].join("|")})\\b`,
);

export function isClosing(text: string): boolean {
  if (text.includes("?") || text.includes("¿")) return false;
  const norm = distressForm(text);
  if (!norm || norm.split(" ").length > 25) return false;
  return CLOSING.test(norm) || isGreeting(text);
}

/**
 * Whether the agent's answer needs the care-first note: the last user message reads as distress, or it
 * closes a conversation in which an earlier user message did. `userTexts`: the conversation's user
 * messages, oldest first.
 */
export function needsCare(userTexts: readonly string[]): boolean {
  const last = userTexts.at(-1) ?? "";
  if (isDistress(last)) return true;
  return distressBefore(last, userTexts.slice(0, -1));
}

/** The last message closes a conversation in which an earlier user message read as distress. */
function distressBefore(last: string, earlier: readonly string[]): boolean {
  return earlier.length > 0 && isClosing(last) && earlier.some(isDistress);
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
  /** The conversation's earlier user messages, oldest first: a farewell after distress goes to the agent (needsCare). */
  earlierUserTexts?: readonly string[];
}

/**
 * The category when a rule settles it, else null. `isPassage` says whether the whole text is one
 * scripture reference ("John 3:16"), which needs no classifier to be a passage request. Distress comes
 * first, before any filter, so that "I want to die" or "help" always reaches the agent; so does a
 * farewell in a conversation that had distress in it.
 */
export function classifyByRules(text: string, isPassage: (t: string) => boolean, options: RuleOptions = {}): PreflightCategory | null {
  const trimmed = text.trim();
  if (trimmed === "") return "incomplete_input";
  if (isDistress(trimmed)) return "biblical_question";
  if (INJECTION.some((re) => re.test(trimmed))) return "hacker_activity";
  if (options.earlierUserTexts && distressBefore(trimmed, options.earlierUserTexts)) return "biblical_question";
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
