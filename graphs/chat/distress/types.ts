export type DistressLanguage = "en" | "es" | "pt" | "fr" | "de";

/**
 * One language's distress rules, by kind of meaning (each a list of pattern sources joined into one
 * expression on whole words of distressForm text). Every pattern is linear: alternations of fixed
 * words, optional words, `\w+` for one free word; never a quantified group that can match the same
 * text two ways.
 */
export interface LanguageRules {
  lang: DistressLanguage;
  /** Kinds of meaning that read as distress wherever they stand: "took all my pills", "kms", "mon beau-père vient dans ma chambre la nuit". */
  kinds: Readonly<Record<string, readonly string[]>>;
  /**
   * Words that name suicide or self-harm without saying whose ("suicide", "killed himself"): distress
   * unless the message asks about scripture's people or about ministry (rules.ts ABOUT_OTHERS).
   */
  mentions: readonly string[];
  /** A whole message that is a cry for help ("ayuda", "hilfe bitte"), read with a doubled last vowel once ("ayudaa"). */
  help: readonly string[];
  /** Words that are themselves a cry when the message is little else ("raped", "duelo", "einsam"). */
  cryWords: string;
  /** The little words around a cry ("im so", "me siento", "je suis"). */
  cryFiller: string;
  /** A goodbye that reads as a last one when it opens a conversation ("goodbye everyone", "adieu"). */
  lastGoodbye: readonly string[];
}
