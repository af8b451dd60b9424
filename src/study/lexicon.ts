/** Strong's Greek and Hebrew dictionaries and the KJV concordance (data/study, see docs/study.md). */
import type { LinkOptions } from "../scripture/links.js";
import { lazy, readGzipJson } from "./data.js";
import { compactItem, type RefItem } from "./passage-refs.js";
import { strongLanguage, type StrongLanguage } from "./strong-ids.js";

/** One entry of data/study's lexicon files, as ingest/study-lexicon.ts writes it. */
export interface LexiconFileEntry {
  lemma: string;
  transliteration: string;
  pronunciation: string;
  derivation: string;
  definition: string;
  kjv_usage: string;
  see_also: string[];
  occurrences?: Record<string, { words: number; verses: number }>;
}

export interface LexiconEntry extends Omit<LexiconFileEntry, "occurrences"> {
  id: string;
  language: StrongLanguage;
  /** Tagged words and verses per translation (bible_id -> counts); {} when no verse is tagged with it. */
  occurrences: Record<string, { words: number; verses: number }>;
}

export interface Lexicon {
  get(id: string): LexiconEntry | undefined;
  /** Verses of the KJV tagged with the id (the concordance), in canonical order. */
  verses(id: string): string[];
  /** The first `limit` of them as reference items. */
  references(id: string, limit: number, link?: LinkOptions): RefItem[];
}

/**
 * The entries as read, each kept as its JSON text in one UTF-8 buffer (outside the V8 heap) and parsed when
 * looked up (microseconds): parsed whole, the 14,000 entries held 7.7 MB of heap in small objects.
 */
class Entries {
  private readonly at = new Map<string, number>();
  private readonly json: Buffer;
  private readonly offsets: Int32Array;

  constructor(file: Record<string, LexiconFileEntry>) {
    const texts = Object.entries(file).map(([id, entry], i) => (this.at.set(id, i), JSON.stringify(entry)));
    this.offsets = new Int32Array(texts.length + 1);
    texts.forEach((t, i) => (this.offsets[i + 1] = this.offsets[i]! + Buffer.byteLength(t, "utf8")));
    this.json = Buffer.allocUnsafeSlow(this.offsets[texts.length]!);
    texts.forEach((t, i) => this.json.write(t, this.offsets[i]!, "utf8"));
  }

  get(id: string): LexiconFileEntry | undefined {
    const i = this.at.get(id);
    return i === undefined ? undefined : (JSON.parse(this.json.toString("utf8", this.offsets[i]!, this.offsets[i + 1]!)) as LexiconFileEntry);
  }
}

export function createLexicon(dir: string): Lexicon {
  const entries = lazy(() => new Entries(readGzipJson<Record<string, LexiconFileEntry>>(dir, "lexicon.json.gz") ?? {}));
  const concordance = lazy(() => readGzipJson<Record<string, string>>(dir, "concordance-eng-kjv.json.gz") ?? {});
  const verses = (id: string) => concordance()[id]?.split(" ") ?? [];
  return {
    get(id) {
      const entry = entries().get(id);
      if (entry === undefined) return undefined;
      const { occurrences, ...fields } = entry;
      return { id, language: strongLanguage(id), ...fields, occurrences: occurrences ?? {} };
    },
    verses,
    references: (id, limit, link = {}) =>
      verses(id)
        .slice(0, limit)
        .map((v) => compactItem(v, link))
        .filter((r): r is RefItem => r !== undefined),
  };
}
