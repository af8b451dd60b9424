import { foldMarks } from "../../../src/unicode.js";
/**
 * The form every distress pattern reads (distress/rules.ts): lower case, accents and apostrophes removed
 * ("I'm" -> "im", "j'ai" -> "jai", "n'en" -> "nen"), other punctuation a space, letters typed three or
 * more times once ("ayudaaa" -> "ayuda", "hilfeee" -> "hilfe"), and the text-speak people in crisis type
 * spelled out ("q ganas d morirme" -> "que ganas de morirme", "chuis" -> "je suis"). Written for how people
 * type when they are struggling: on a phone, fast, without care for spelling.
 */

/**
 * Text-speak and clipped spellings, word for word, in the languages we detect. Only words that are not
 * also ordinary words in another of them ("to" is Portuguese "estou" but English "to": left out).
 */
const TEXT_SPEAK: Readonly<Record<string, string>> = {
  // English
  u: "you", ur: "your", r: "are", rn: "right now", ima: "im going to", imma: "im going to", cuz: "because", bc: "because",
  wanna: "want to", wana: "want to", gonna: "going to", gona: "going to", gotta: "have to", idk: "i dont know",
  noone: "no one", tmrw: "tomorrow", tmr: "tomorrow", "2nite": "tonight", tonite: "tonight", pls: "please", plz: "please",
  // Texting spellings from writers unlike the rules' (set 6's training file, docs/care.md): clipped words and
  // abbreviations that are no word of their own in the five languages.
  abt: "about", prolly: "probably", shud: "should", shld: "should", wud: "would", wld: "would", cud: "could",
  ppl: "people", ppls: "people", rly: "really", srsly: "seriously", nothin: "nothing", nuthin: "nothing", somethin: "something",
  tryna: "trying to", finna: "going to", b4: "before", "2day": "today", "2morrow": "tomorrow", nite: "night", kno: "know",
  sum1: "someone", some1: "someone", no1: "no one", any1: "anyone", every1: "everyone", evry1: "everyone", evryone: "everyone",
  ngl: "not going to lie", tbh: "to be honest", lyf: "life", lyfe: "life", nemore: "anymore", anymre: "anymore", cnt: "cant",
  // Spanish
  q: "que", ke: "que", d: "de", x: "por", xq: "porque", xk: "porque", pq: "porque", kiero: "quiero", qiero: "quiero",
  tmb: "tambien", tb: "tambien", toy: "estoy", ta: "esta", nd: "nada", aiuda: "ayuda",
  // Portuguese
  vc: "voce", n: "nao", naum: "nao", pra: "para", tou: "estou", mt: "muito", mto: "muito", ngm: "ninguem",
  // French
  jveux: "je veux", jvais: "je vais", chuis: "je suis", jsuis: "je suis", jpeux: "je peux", jsais: "je sais", jpense: "je pense",
  chui: "je suis", ptn: "putain", stp: "sil te plait", svp: "sil vous plait", pk: "pourquoi",
  // German
  nich: "nicht", ned: "nicht", hab: "habe", bissl: "bisschen",
  // Misspellings of the words the rules turn on, typed fast on a phone ("i wnat to kil myslef", "sucide",
  // "my lfe"): only spellings that are no word of their own in the five languages.
  myslef: "myself", mysefl: "myself", myelf: "myself", mysef: "myself", myseld: "myself", mysle: "myself", msyelf: "myself", myselfe: "myself",
  kil: "kill", kll: "kill",
  sucide: "suicide", suicde: "suicide", sucidie: "suicide", suiside: "suicide", suicied: "suicide", suecide: "suicide", sucicide: "suicide", siucide: "suicide", suicidle: "suicide",
  sucidal: "suicidal", suicidial: "suicidal", sucicidal: "suicidal", suisidal: "suicidal",
  lfe: "life", lif: "life", liffe: "life", wnat: "want", wnt: "want", watn: "want",
  dieing: "dying", anymor: "anymore", anymoe: "anymore", enymore: "anymore", nomore: "no more",
  evry: "every", evrything: "everything", everythin: "everything", alot: "a lot", becuase: "because", beacuse: "because",
  hurtt: "hurt", myselff: "myself", sefl: "self", slef: "self", urself: "yourself", ded: "dead", tierd: "tired", tird: "tired",
};

const SQUEEZE = /(\p{L})\1{2,}/gu;

export function distressForm(text: string): string {
  const plain = foldMarks(text)
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/['’‘`´ʼ]/g, "")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .replace(SQUEEZE, "$1")
    .replace(/\s+/g, " ")
    .trim();
  if (!plain) return plain;
  return plain
    .split(" ")
    .map((w) => (Object.hasOwn(TEXT_SPEAK, w) ? TEXT_SPEAK[w]! : w))
    .join(" ");
}
