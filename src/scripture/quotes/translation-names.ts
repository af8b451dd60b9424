/**
 * Translations an answer names beside a quotation ("the KJV reads", "the NIV has", "(John 3:16, ESV)"):
 * a quotation given in a named translation is checked against that translation when we ship it, and
 * left as written when we do not.
 */

export interface NamedTranslation {
  /** As the answer names it: "KJV", "NIV", "Reina-Valera 1909". */
  name: string;
  /** The shipped translation it is (data/bibles), or undefined for one we do not hold. */
  id?: string;
}

// The shipped ones, by the names and abbreviations answers use. "Reina-Valera 1960" is another
// translation than the 1909 we ship, so a bare "Reina-Valera" names none of ours.
const SHIPPED: [RegExp, string][] = [
  [/^(?:KJV|AV|KJB|King James(?: Version| Bible)?|Authori[sz]ed Version)$/i, "eng-kjv"],
  [/^(?:WEB|World English Bible)$/, "eng-web"],
  [/^(?:RV ?1909|Reina[- ]Valera(?: de)? 1909)$/i, "spa-rv1909"],
];

const NAMES = new RegExp(
  "(?<![\\p{L}\\p{N}])(?:" +
    [
      "King James(?: Version| Bible)?", "Authori[sz]ed Version", "World English Bible", "Reina[- ]Valera(?: de)? \\d{4}",
      "New International Version", "English Standard Version", "New American Standard(?: Bible)?", "New King James(?: Version)?",
      "New Living Translation", "(?:New )?Revised Standard Version", "Christian Standard Bible", "The Message", "Douay[- ]Rheims",
      "KJV", "AV", "KJB", "WEB", "NIV", "ESV", "NASB\\d*", "NKJV", "NLT", "RSV", "NRSVU?E?", "CSB", "HCSB", "AMPC?", "MSG",
      "ASV", "NET", "CEV", "GNT", "NABRE", "NAB", "NJB", "YLT", "RV ?\\d{4}", "RVR ?\\d{2,4}", "RVC", "NVI", "NTV", "LBLA", "DHH", "BLPH?", "TLA",
    ].join("|") +
    ")(?![\\p{L}\\p{N}])",
  "gu",
);

/** The translation named last in the text (the one nearest a quotation that follows it), if any. */
export function lastNamedTranslation(text: string): NamedTranslation | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(NAMES)) last = match[0];
  if (last === undefined) return undefined;
  const id = SHIPPED.find(([pattern]) => pattern.test(last as string))?.[1];
  return id === undefined ? { name: last } : { name: last, id };
}

/** The translation named first in the text (inside a parenthesis after a quotation), if any. */
export function firstNamedTranslation(text: string): NamedTranslation | undefined {
  const match = new RegExp(NAMES.source, "u").exec(text);
  return match === null ? undefined : lastNamedTranslation(match[0]);
}
