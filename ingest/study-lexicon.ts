/**
 * Strong's Greek (`StrongsGreek`, TEI) and Hebrew (`StrongsHebrew`, Grebner's "Real Hebrew") entries as
 * plain fields. The two modules mark entries up differently; both end up in LexiconFileEntry.
 */
import { parseImp } from "./imp.js";
import { plainLine } from "./study-markup.js";
import type { LexiconFileEntry } from "../src/study/lexicon.js";
import { normalizeStrongId } from "../src/study/strong-ids.js";

const first = (re: RegExp, text: string) => re.exec(text)?.[1] ?? "";

/** Repeated forms ("shâlôm  shâlôm", "{shaw-lome'} shaw-lome'") once each. */
function uniqueForms(text: string): string {
  const forms = text.replace(/[{}]/g, " ").trim().split(/\s{2,}|\s(?=\S*$)/).map((f) => f.trim()).filter(Boolean);
  const unique = [...new Set(forms)];
  return unique.length === 1 ? unique[0]! : unique.join(", ");
}

// Grebner's Hebrew text marks some words with braces and a stray "6" where a comma stood before a line break.
function tidyHebrew(markup: string): string {
  return markup.replace(/6<lb\/>/g, ",<lb/>").replace(/[{}]/g, "");
}

function tidy(text: string): string {
  return text
    .replace(/\s+([,.;:)\]])/g, "$1")
    .replace(/([(\[])\s+/g, "$1")
    .replace(/\s{2,}/g, " ")
    .trim();
}

function seeAlso(markup: string, self: string): string[] {
  const ids = [...markup.matchAll(/<ref\b[^>]*>([^<]*)<\/ref>/g)].map((m) => normalizeStrongId(m[1] ?? ""));
  return [...new Set(ids.filter((id): id is string => id !== undefined && id !== self))];
}

function splitUsage(text: string, separator: RegExp): { definition: string; usage: string } {
  const match = separator.exec(text);
  if (match === null) return { definition: tidy(text), usage: "" };
  return { definition: tidy(text.slice(0, match.index).replace(/[:;,]\s*$/, "")), usage: tidy(text.slice(match.index + match[0].length)) };
}

function greekEntry(id: string, body: string): LexiconFileEntry {
  const noBeta = body.replace(/<orth\b[^>]*type="writing"[^>]*>[^<]*<\/orth>/g, "");
  const lemma = first(/<orth>([^<]*)<\/orth>/, noBeta);
  const transliteration = first(/<orth\b[^>]*type="trans"[^>]*>([^<]*)<\/orth>/, noBeta);
  const pronunciation = first(/<pron\b[^>]*>([^<]*)<\/pron>/, noBeta);
  const afterPron = noBeta.slice(noBeta.search(/<\/pron>/) + "</pron>".length);
  const defStart = afterPron.search(/<def>/);
  const before = defStart >= 0 ? afterPron.slice(0, defStart) : afterPron;
  const def = first(/<def>([\s\S]*?)<\/def>/, afterPron);
  const orig = first(/<orig>([\s\S]*?)<\/orig>/, def);
  const derivation = tidy([plainLine(before), plainLine(orig)].filter(Boolean).join(" ").replace(/[;:,]\s*$/, ""));
  const { definition, usage } = splitUsage(plainLine(def.replace(/<orig>[\s\S]*?<\/orig>/, "")), /:?\s*--\s*/);
  return { lemma, transliteration, pronunciation, derivation, definition, kjv_usage: usage, see_also: seeAlso(body, id) };
}

function hebrewEntry(id: string, body: string): LexiconFileEntry {
  const lemma = uniqueForms(first(/<orth>([^<]*)<\/orth>/, body));
  const transliteration = uniqueForms(first(/<orth\b[^>]*type="trans"[^>]*>([^<]*)<\/orth>/, body));
  const pronunciation = uniqueForms(first(/<pron\b[^>]*>([^<]*)<\/pron>/, body));
  const def = plainLine(tidyHebrew(first(/<def>([\s\S]*?)<\/def>/, body)));
  // "From H7999; safe, i.e. ..." / "A primitive root; ...": the origin is the first clause.
  const semicolon = def.indexOf(";");
  const derivation = semicolon > 0 && semicolon < 160 ? tidy(def.slice(0, semicolon)) : "";
  const rest = semicolon > 0 && semicolon < 160 ? def.slice(semicolon + 1) : def;
  const { definition, usage } = splitUsage(rest, /:?\s+-\s+/);
  return { lemma, transliteration, pronunciation, derivation, definition, kjv_usage: usage, see_also: seeAlso(body, id) };
}

/** Entries by canonical id ("G25", "H7965"). */
export function parseLexicon(imp: string, prefix: "G" | "H"): Record<string, LexiconFileEntry> {
  const out: Record<string, LexiconFileEntry> = {};
  for (const { key, body } of parseImp(imp)) {
    const id = normalizeStrongId(`${prefix}${key}`);
    if (id === undefined || !body.includes("<entryFree")) continue;
    out[id] = prefix === "G" ? greekEntry(id, body) : hebrewEntry(id, body);
  }
  return out;
}
