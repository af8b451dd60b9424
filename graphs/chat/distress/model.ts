import { readFileSync } from "node:fs";
import { TEXT_LIMITS } from "../../../src/limits.js";

/**
 * A small learned reader of distress beside the phrase rules (rules.ts): logistic regression over
 * hashed features of the text as the rules read it (distressForm, dying-to-self taken out): word
 * unigrams and bigrams, and character 3- to 5-grams within words (for typos: "suicdal", "kil myslef").
 * Each feature is hashed (FNV-1a) into one of BUCKETS weights; the counts are scaled to unit length, so a
 * long message weighs like a short one. Phrase rules read what was foreseen; this reads wording near what
 * the dev data and tuning probes say, and was measured on the held-out halves and the probes never
 * trained on (docs/care.md, "A learned reader").
 *
 * Trained by evals/care/train.ts (`npm run train:care`, deterministic), which writes model.json beside this
 * file: the weights as base64 of an Int16Array (weight = value * scale), the bias, and the threshold
 * chosen by cross-validation on the dev data.
 */

export const BUCKETS = 1 << 16;
/** The model reads at most a chat message's worth of text (the shared cap): linear, and bounded. */
export const MODEL_CHARS = TEXT_LIMITS.message;

const WORD_TAG = "w:";
const BIGRAM_TAG = "b:";
const CHAR_TAG = "c:";

/** FNV-1a over the UTF-16 code units of text[from, to), continuing from the hash state h (32 bits). */
function fnv(h: number, text: string, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

const FNV_OFFSET = 0x811c9dc5;
/** The hash states after each tag: a feature's bucket is the FNV-1a of tag + text, without building the string. */
const WORD_STATE = fnv(FNV_OFFSET, WORD_TAG);
const BIGRAM_STATE = fnv(FNV_OFFSET, BIGRAM_TAG);
const CHAR_STATE = fnv(FNV_OFFSET, CHAR_TAG);
const toBucket = (h: number) => (h >>> 0) & (BUCKETS - 1);

/**
 * The text's features as bucket -> count, scaled to unit length (L2). `norm` is distressForm text (lower
 * case, single spaces). Linear in the text: each word gives one unigram, one bigram and at most 3 * (its
 * length + 2) character grams, and words longer than 24 letters give no character grams (no word is).
 */
export function features(norm: string, classFeatures = true): Map<number, number> {
  const counts = new Map<number, number>();
  const add = (h: number) => {
    const b = toBucket(h);
    counts.set(b, (counts.get(b) ?? 0) + 1);
  };
  const words = norm.slice(0, MODEL_CHARS).split(" ").filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    add(fnv(WORD_STATE, w));
    add(fnv(fnv(BIGRAM_STATE, i === 0 ? "^ " : `${words[i - 1]!} `), w));
    if (w.length > 24) continue;
    const marked = `<${w}>`;
    // Each start's 3-, 4- and 5-gram share their first characters: one running hash per start.
    for (let s = 0; s + 3 <= marked.length; s++) {
      let h = fnv(CHAR_STATE, marked, s, s + 3);
      add(h);
      for (let n = 4; n <= 5 && s + n <= marked.length; n++) {
        h = fnv(h, marked, s + n - 1, s + n);
        add(h);
      }
    }
  }
  if (words.length > 0) add(fnv(BIGRAM_STATE, `${words.at(-1)!} $`));
  if (classFeatures) {
    const cls = words.map((w) => CLASS_OF.get(w));
    for (let i = 0; i < cls.length; i++) {
      const c = cls[i];
      const prev = i === 0 ? "^" : (cls[i - 1] ?? "_");
      if (c) add(fnv(CLASS_STATE, c));
      if (c || prev !== "_") add(fnv(fnv(CLASS_STATE, `${prev} `), c ?? "_"));
      if (!c) continue;
      for (let j = Math.max(0, i - CLASS_WINDOW); j < i; j++) {
        const d = cls[j];
        if (d && d !== c) add(fnv(fnv(CLASS_STATE, `${d}~`), c));
      }
    }
  }
  let sq = 0;
  for (const c of counts.values()) sq += c * c;
  const scale = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (const [b, c] of counts) counts.set(b, c * scale);
  return counts;
}

/**
 * Word classes the reader also sees, so that wording no training line used still shares features with
 * one that did: "i wanna die", "me quiero morir" and "ich will nicht mehr leben" all give SELF, WANT and
 * DEATH. Each class is a handful of fixed words per language (distressForm spelling); the features are the
 * class of each word, the class bigram of each pair of neighbours, and the pairs of classes met within
 * CLASS_WINDOW words of each other ("SELF~DEATH": the writer and a word of death in one clause). Only the
 * first CLASS_WINDOW words before a word are looked at: linear.
 */
const CLASSES: Readonly<Record<string, readonly string[]>> = {
  SELF: ["i", "im", "ive", "id", "ill", "me", "my", "myself", "mine", "yo", "mi", "mis", "conmigo", "eu", "meu", "minha", "comigo", "je", "jai", "moi", "mon", "ma", "mes", "ich", "mich", "mir", "mein", "meine", "meinen", "meinem"],
  DEATH: ["die", "died", "dying", "dead", "death", "suicide", "suicidal", "kill", "killing", "unalive", "kms", "kys", "ctb", "overdose", "od", "funeral", "grave", "morir", "morirme", "muerto", "muerta", "muerte", "matarme", "suicidio", "morrer", "morto", "morta", "morte", "matar", "suicidio", "mourir", "mort", "morte", "tuer", "suicide", "sterben", "tot", "tod", "umbringen", "selbstmord", "suizid"],
  END: ["end", "ending", "over", "gone", "disappear", "vanish", "exist", "existing", "alive", "living", "wake", "awake", "goodbye", "bye", "farewell", "last", "anymore", "acabar", "desaparecer", "despertar", "adios", "sumir", "acordar", "acabar", "adeus", "tchau", "disparaitre", "finir", "reveiller", "adieu", "verschwinden", "aufwachen", "leben", "mehr"],
  MEANS: ["pills", "pill", "tablets", "meds", "medication", "bottle", "rope", "noose", "gun", "knife", "blade", "razor", "bridge", "jump", "roof", "train", "tylenol", "ibuprofen", "insulin", "bleach", "pastillas", "cuerda", "puente", "cuchillo", "remedios", "comprimidos", "corda", "ponte", "faca", "cachets", "medicaments", "corde", "pont", "couteau", "tabletten", "seil", "brucke", "messer"],
  HARM: ["cut", "cutting", "cuts", "hurt", "hurting", "burn", "burned", "bleed", "bleeding", "hit", "hits", "beat", "beats", "choke", "choked", "touch", "touches", "rape", "raped", "abuse", "abused", "starve", "purge", "throw", "corto", "cortarme", "pega", "golpea", "toca", "corto", "bate", "espanca", "toca", "coupe", "frappe", "bat", "touche", "ritze", "schneide", "schlagt", "fasst"],
  WANT: ["want", "wanna", "wish", "hope", "ready", "going", "gonna", "plan", "planning", "decided", "quiero", "quisiera", "ojala", "voy", "quero", "vou", "veux", "voudrais", "vais", "will", "mochte", "werde"],
  NOT: ["no", "not", "dont", "cant", "never", "nothing", "nobody", "noone", "nadie", "nada", "nunca", "nao", "ninguem", "nunca", "ne", "pas", "personne", "rien", "jamais", "nicht", "kein", "keine", "niemand", "nie", "nichts"],
  BURDEN: ["burden", "better", "without", "tired", "done", "point", "pointless", "hopeless", "worthless", "carga", "mejor", "sin", "cansada", "cansado", "peso", "melhor", "sem", "fardeau", "mieux", "sans", "fatigue", "last", "besser", "ohne", "mude"],
  GOD: ["god", "lord", "jesus", "heaven", "home", "dios", "senor", "cielo", "deus", "senhor", "ceu", "dieu", "seigneur", "ciel", "gott", "herr", "himmel"],
  NOW: ["tonight", "now", "today", "tomorrow", "soon", "noche", "hoy", "ahora", "manana", "hoje", "agora", "noite", "amanha", "soir", "nuit", "maintenant", "demain", "heute", "nacht", "jetzt", "morgen"],
  ASK: ["what", "why", "how", "who", "which", "where", "explain", "mean", "meaning", "verse", "verses", "bible", "psalm", "chapter", "sermon", "study", "que", "por", "como", "cual", "biblia", "versiculo", "o", "porque", "quais", "quoi", "pourquoi", "comment", "verset", "bible", "was", "warum", "wie", "vers", "bibel"],
};
const CLASS_OF = new Map<string, string>();
for (const [name, words] of Object.entries(CLASSES)) for (const w of words) if (!CLASS_OF.has(w)) CLASS_OF.set(w, name);
export const CLASS_WINDOW = 6;
const CLASS_TAG = "k:";
const CLASS_STATE = fnv(FNV_OFFSET, CLASS_TAG);

export interface DistressModel {
  weights: Float32Array;
  bias: number;
  /** Distress when the probability is at least this (chosen on the dev data by cross-validation). */
  threshold: number;
}

/** The file the training script writes. */
export interface ModelFile {
  buckets: number;
  bias: number;
  threshold: number;
  /** Each weight is its Int16 value times this. */
  scale: number;
  /** Base64 of the Int16Array of weights, little-endian. */
  weights: string;
  /** The training data's hash and counts, as the script saw them (the test checks the data still hashes to it). */
  data: { sha256: string; positives: number; negatives: number };
  options: Record<string, number>;
}

export const MODEL_FILE = new URL("./model.json", import.meta.url);

export function decodeModel(file: ModelFile): DistressModel {
  if (file.buckets !== BUCKETS) throw new Error(`distress model: ${file.buckets} buckets, this reader hashes into ${BUCKETS}`);
  const bytes = Buffer.from(file.weights, "base64");
  if (bytes.length !== BUCKETS * 2) throw new Error(`distress model: ${bytes.length} bytes of weights, expected ${BUCKETS * 2}`);
  const weights = new Float32Array(BUCKETS);
  for (let i = 0; i < BUCKETS; i++) weights[i] = bytes.readInt16LE(i * 2) * file.scale;
  return { weights, bias: file.bias, threshold: file.threshold };
}

let loaded: DistressModel | undefined;

/** The shipped model, read once on first use. */
export function distressModel(): DistressModel {
  loaded ??= decodeModel(JSON.parse(readFileSync(MODEL_FILE, "utf8")) as ModelFile);
  return loaded;
}

/** The model's probability that `norm` (distressForm text) is distress. */
export function distressProbability(norm: string, model: DistressModel = distressModel()): number {
  let z = model.bias;
  for (const [b, x] of features(norm)) z += model.weights[b]! * x;
  return 1 / (1 + Math.exp(-z));
}
