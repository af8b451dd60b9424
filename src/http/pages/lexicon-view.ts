import type { Lexicon, LexiconEntry } from "../../study/lexicon.js";
import { normalizeStrongId } from "../../study/strong-ids.js";
import { TRANSLATIONS } from "../../scripture/translations.js";
import { esc, layout, type PageAssets } from "./html.js";

/** The KJV's tags are the concordance, so its verses open in the KJV. */
const CONCORDANCE_BIBLE = "eng-kjv";
/** Enough verses to see how a word is used; the JSON endpoint and the reader hold the rest. */
const SHOWN_VERSES = 24;

export type LexiconPage = { kind: "page"; entry: LexiconEntry } | { kind: "redirect"; location: string } | { kind: "not-found"; message: string };

/** `/lexicon/g0025` redirects to `/lexicon/G25`, the one form links use; an unknown number is a 404 page. */
export function resolveLexiconPage(lexicon: Pick<Lexicon, "get">, raw: string): LexiconPage {
  const id = normalizeStrongId(raw);
  if (id === undefined) return { kind: "not-found", message: `"${raw.slice(0, 40)}" is not a Strong's number (they look like G25 or H7965).` };
  if (id !== raw) return { kind: "redirect", location: lexiconHref(id) };
  const entry = lexicon.get(id);
  return entry ? { kind: "page", entry } : { kind: "not-found", message: `Strong's dictionary has no entry ${id}.` };
}

export const lexiconHref = (id: string) => `/lexicon/${encodeURIComponent(id)}`;

const translationName = (id: string) => TRANSLATIONS.find((t) => t.id === id)?.name ?? id;

/** A Strong's entry as a page people read: the word, its sense, where the KJV uses it; the JSON is one link away. */
export function renderLexiconEntry(assets: PageAssets, entry: LexiconEntry, lexicon: Pick<Lexicon, "references" | "verses">): string {
  const lang = entry.language === "greek" ? "grc" : "hbo";
  const field = (label: string, value: string) => (value.trim() ? `<dt>${esc(label)}</dt><dd>${esc(value)}</dd>` : "");
  const seeAlso = entry.see_also.length
    ? `<dt>See also</dt><dd>${entry.see_also.map((id) => `<a href="${esc(lexiconHref(id))}">${esc(id)}</a>`).join(", ")}</dd>`
    : "";
  const counts = Object.entries(entry.occurrences)
    .map(([bible, n]) => `<li>${esc(translationName(bible))}: ${n.words} ${n.words === 1 ? "word" : "words"} in ${n.verses} ${n.verses === 1 ? "verse" : "verses"}</li>`)
    .join("");
  const total = lexicon.verses(entry.id).length;
  const refs = lexicon.references(entry.id, SHOWN_VERSES, { bibleId: CONCORDANCE_BIBLE });
  const verses = refs.length
    ? `<h2>Where the King James Version uses it</h2>
<ul class="lexicon-refs">${refs.map((r) => `<li><a href="${esc(r.url)}">${esc(r.reference)}</a></li>`).join("")}</ul>
${total > refs.length ? `<p class="edition">The first ${refs.length} of ${total} verses.</p>` : ""}`
    : "";
  const body = `<header class="bar"><a class="brand" href="/read/GEN/1">Bible reader</a><span class="here">Strong's ${esc(entry.language === "greek" ? "Greek" : "Hebrew")} dictionary</span></header>
<main class="lexicon">
<h1><span class="lemma" lang="${lang}">${esc(entry.lemma)}</span> <span class="sid">${esc(entry.id)}</span></h1>
<p class="edition"><span class="translit">${esc(entry.transliteration)}</span>${entry.pronunciation ? ` · ${esc(entry.pronunciation)}` : ""}</p>
<dl>
${field("Definition", entry.definition)}
${field("Derivation", entry.derivation)}
${field("In the King James Version", entry.kjv_usage)}
${seeAlso}
</dl>
${counts ? `<h2>Tagged words</h2><ul>${counts}</ul>` : ""}
${verses}
<p class="edition">From Strong's dictionary (public domain). The same entry as data: <a href="/v1/lexicon/${esc(entry.id)}">/v1/lexicon/${esc(entry.id)}</a>.</p>
</main>`;
  return layout(assets, { title: `${entry.id} ${entry.transliteration} · Strong's dictionary`, body });
}
