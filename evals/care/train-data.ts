/**
 * The distress model's training data (graphs/chat/distress/model.ts, evals/care/train.ts), and only it:
 * the dev halves of the care sets (distress-dev, distress2-dev, ordinary-dev, ordinary2-dev) and set 5's
 * and set 6's training files (distress5/6-train, ordinary5/6-train; never a *-heldout file), the probes
 * read while tuning (tuned-*.txt distress, ordinary-1/2/3.txt ordinary), and as more ordinary questions the
 * search eval sets' dev halves (every set but care-*.jsonl, whose queries are distress messages). Never a
 * held-out half, never an untuned-* probe: those are the measure (docs/care.md).
 *
 * A conversation of the care sets is one example, its user turns joined (its distress may be in any turn);
 * an ordinary conversation gives each turn. A search query the rules already read as distress ("I feel so
 * lonely, nobody cares about me" in the everyday set) is left out: the search sets did not label care,
 * and the service answers it with care either way.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");

export interface Example {
  text: string;
  /** 1 distress, 0 ordinary. */
  label: 0 | 1;
  source: string;
}

const lines = (path: string) => readFileSync(path, "utf8").split("\n").filter((l) => l.trim() && !l.startsWith("#"));
const tsvTurns = (path: string) => lines(path).map((l) => (l.split("\t")[1] ?? "").split(" || ").map((t) => t.trim()));

/**
 * Set 5's and set 6's training files (distress5/6-train, ordinary5/6-train) are dev only: each written after its blind set was
 * committed, in other words. The 8a to 8d files were written beside blind set 8 by four other writers who never read it
 * (young voices, adult voices, es/pt/fr/de, others in danger and quiet signals; evals/care/README.md). 19c (es/pt/fr/de)
 * was written beside blind set 9 the same way; its three English siblings (19a, 19b, 19d) are not trained on: left
 * out one writer at a time, they read no more of the other writers' distress (docs/care.md, "Set 9"). Their misses
 * gave the rules kinds.
 */
export const CARE_DEV = {
  distress: ["distress-dev.tsv", "distress2-dev.tsv", "distress5-train.tsv", "distress6-train.tsv", "distress8a-train.tsv", "distress8b-train.tsv", "distress8c-train.tsv", "distress8d-train.tsv", "distress19c-train.tsv"],
  ordinary: ["ordinary-dev.tsv", "ordinary2-dev.tsv", "ordinary5-train.tsv", "ordinary6-train.tsv", "ordinary8a-train.tsv", "ordinary8b-train.tsv", "ordinary8c-train.tsv", "ordinary8d-train.tsv", "ordinary19c-train.tsv"],
};
/**
 * Ordinary statements, not questions: set 3's dev half (thanks, "tell me more", testimonies, joyful words that
 * look like harm) and set 4 (dev only: touch, family limits, closings, written after the first retraining).
 */
export const STATEMENTS_DEV = ["ordinary3-dev.tsv", "ordinary4-dev.tsv"];
export const PROBES = { distress: ["tuned-1.txt", "tuned-2.txt", "tuned-3.txt", "tuned-es.txt"], ordinary: ["ordinary-1.txt", "ordinary-2.txt", "ordinary-3.txt"] };
export const SEARCH_DEV = ["everyday-dev.jsonl", "everyday-blind-dev.jsonl", "topics-dev.jsonl", "typed-dev.jsonl", "queries.jsonl"];

/**
 * Verses pasted as the whole message. Each Bible's books split in two halves by their place in the canon:
 * the books at even places (Genesis, Leviticus, Deuteronomy...) may be trained on, the books at odd places
 * (Exodus, Numbers, Joshua...) are the measure. Split by book, not by verse: neighbouring verses share
 * their words.
 */
export const VERSE_FILES = ["eng-web.json", "eng-kjv.json", "spa-rv1909.json"];

/** Every VERSE_EVERY-th verse of the training half is an ordinary example... */
export const VERSE_EVERY = 20;
/**
 * ...except in the books whose speakers ask to die or curse their birth (Job 3, Ecclesiastes 2:17,
 * Lamentations 3, Jeremiah 20:14-18, Jonah 4:3 and 4:8): pasted alone, such a verse may be a cry, and is
 * no negative example. (Verses the rules read as distress are left out too, as search queries are.)
 */
export const LAMENT_BOOKS = new Set(["JOB", "ECC", "LAM", "JER", "JON"]);

export function verses(file: string, half: "train" | "measure" | "all"): string[] {
  const bible = JSON.parse(readFileSync(join(root, "data", "bibles", file), "utf8")) as { books: Record<string, (string | null)[][]> };
  const out: string[] = [];
  Object.entries(bible.books).forEach(([name, chapters], book) => {
    if (half !== "all" && (book % 2 === 0) !== (half === "train")) return;
    if (half === "train" && LAMENT_BOOKS.has(name)) return;
    for (const ch of chapters) for (const v of ch.slice(1)) if (v) out.push(v);
  });
  return out;
}

/** `readByRules`: the rules' reading, to leave out the search queries they already call care. */
export function trainingExamples(readByRules: (text: string) => boolean): Example[] {
  const out: Example[] = [];
  for (const f of CARE_DEV.distress) for (const turns of tsvTurns(join(here, f))) out.push({ text: turns.join("\n"), label: 1, source: f });
  for (const f of CARE_DEV.ordinary) for (const turns of tsvTurns(join(here, f))) for (const t of turns) out.push({ text: t, label: 0, source: f });
  for (const f of STATEMENTS_DEV) for (const turns of tsvTurns(join(here, f))) for (const t of turns) out.push({ text: t, label: 0, source: f });
  for (const f of PROBES.distress) for (const l of lines(join(here, "probes", f))) out.push({ text: l.trim(), label: 1, source: f });
  for (const f of PROBES.ordinary) for (const l of lines(join(here, "probes", f))) out.push({ text: l.trim(), label: 0, source: f });
  for (const f of SEARCH_DEV) {
    for (const l of lines(join(root, "evals", "search", f))) {
      const row = JSON.parse(l) as { query: string; split?: string };
      if (row.split !== undefined && row.split !== "dev") continue;
      if (readByRules(row.query)) continue;
      out.push({ text: row.query, label: 0, source: f });
    }
  }
  for (const f of VERSE_FILES) {
    verses(f, "train").forEach((v, i) => {
      if (i % VERSE_EVERY === 0 && !readByRules(v)) out.push({ text: v, label: 0, source: f });
    });
  }
  return out;
}

/**
 * The hash of the files the examples are read from (name and bytes, in order): a change to any of them
 * means the shipped weights are stale. (The rules' reading that leaves search queries out is not in it:
 * a rule change need not retrain.)
 */
export function dataHash(): string {
  const h = createHash("sha256");
  const files = [
    ...[...CARE_DEV.distress, ...CARE_DEV.ordinary, ...STATEMENTS_DEV].map((f) => join(here, f)),
    ...[...PROBES.distress, ...PROBES.ordinary].map((f) => join(here, "probes", f)),
    ...SEARCH_DEV.map((f) => join(root, "evals", "search", f)),
    ...VERSE_FILES.map((f) => join(root, "data", "bibles", f)),
  ];
  for (const f of files) h.update(`${f.slice(root.length + 1)}\n`).update(readFileSync(f));
  return h.digest("hex");
}
