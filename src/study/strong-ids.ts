/**
 * Strong's numbers as callers and modules spell them ("G25", "g0025", "H07965", "strong:G0025") and
 * the one form this service uses everywhere: a capital G or H and the number without leading zeros
 * ("G25", "H7965"). Some Hebrew numbers carry a letter for a sub-entry in the modules ("H1254a"); the
 * dictionaries have one entry per number, so the letter is dropped.
 */
export type StrongLanguage = "greek" | "hebrew";

const ID = /^(?:strong:)?([GH])0*(\d{1,5})[a-z]?$/i;

/** The canonical id, or undefined when the text is not a Strong's number. */
export function normalizeStrongId(text: string): string | undefined {
  const match = ID.exec(text.trim());
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  const n = Number(match[2]);
  if (n === 0) return undefined;
  return `${match[1].toUpperCase()}${n}`;
}

export function strongLanguage(id: string): StrongLanguage {
  return id.startsWith("G") ? "greek" : "hebrew";
}
