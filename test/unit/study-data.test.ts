import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { BOOKS } from "../../src/scripture/books.js";
import { DEFAULT_STUDY_DIR, readGzipJson } from "../../src/study/data.js";
import { createStudyLibrary } from "../../src/study/library.js";
import { normalizeStrongId } from "../../src/study/strong-ids.js";

const study = createStudyLibrary();
const bibles = loadBibleLibrary({ ids: ["eng-web", "eng-kjv"] });

describe("Strong's ids", () => {
  it.each([
    ["G25", "G25"], ["g0025", "G25"], ["G00025", "G25"], ["strong:H07965", "H7965"], ["H1254a", "H1254"], [" h1 ", "H1"],
  ])("when %s is given, then it reads as %s", (input, id) => expect(normalizeStrongId(input)).toBe(id));
  it.each(["", "G", "G0", "X25", "25", "G123456", "G25 G26", "love"])("when %j is given, then it is not an id", (input) => expect(normalizeStrongId(input)).toBeUndefined());
});

describe("the word tags sidecar", () => {
  it.each(["eng-web", "eng-kjv"])("when every tagged verse of %s is joined, then it is exactly the verse text of data/bibles", (bibleId) => {
    const bible = bibles.get(bibleId)!;
    let tagged = 0;
    let words = 0;
    const misaligned: string[] = [];
    const badIds: string[] = [];
    for (const book of BOOKS) {
      for (let c = 1; c <= book.verseCounts.length; c++) {
        for (const { verse, text } of bible.chapter(book.id, c)?.verses ?? []) {
          const w = study.tags.words(bibleId, book.id, c, verse);
          if (w === undefined) continue;
          tagged += 1;
          if (w.map((x) => x.text).join("") !== text) misaligned.push(`${book.id} ${c}:${verse}`);
          for (const x of w) {
            words += x.strong.length;
            for (const id of x.strong) if (normalizeStrongId(id) !== id) badIds.push(id);
          }
        }
      }
    }
    expect(misaligned).toEqual([]);
    expect(badIds).toEqual([]);
    // Nearly every verse carries tags (the WEB's 4 footnote-only verses and a few untagged ones do not).
    expect(tagged).toBeGreaterThan(30_900);
    // The KJV's 348,884 hand-made tags; the WEB keeps those its realignment finds a word for (300,884 of them).
    expect(words).toBeGreaterThan(bibleId === "eng-kjv" ? 340_000 : 290_000);
  });

  it("when a tagged word's id is looked up, then the lexicon has it (all but a handful of module typos)", () => {
    const missing = new Set<string>();
    const bible = bibles.get("eng-kjv")!;
    for (const book of BOOKS.slice(39)) {
      for (let c = 1; c <= book.verseCounts.length; c++) {
        for (const { verse } of bible.chapter(book.id, c)?.verses ?? []) {
          for (const w of study.tags.words("eng-kjv", book.id, c, verse) ?? []) for (const id of w.strong) if (!study.lexicon.get(id)) missing.add(id);
        }
      }
    }
    expect(missing.size).toBeLessThan(10);
  });
});

describe("the commentaries", () => {
  it.each(["mhcc", "tdavid", "scofield"])("when every section of %s is read, then it is plain text with no markup left", (id) => {
    const files = readdirSync(join(DEFAULT_STUDY_DIR, "commentaries", id));
    let sections = 0;
    for (const file of files) {
      for (const [chapter, from, to, title, text] of readGzipJson<[number, number, number, string | null, string][]>(DEFAULT_STUDY_DIR, `commentaries/${id}/${file}`)!) {
        sections += 1;
        const where = `${id} ${file} ${chapter}:${from}-${to}`;
        expect(text, where).not.toMatch(/<\/?[a-zA-Z]|&(?:amp|lt|gt|quot|apos|#\d+);|\u0001|\uE000/);
        expect(text, where).not.toMatch(/ {2,}|\n{3,}|^\s|\s$/);
        expect(from <= to || to === 0, where).toBe(true);
        if (title !== null) expect(title.trim()).toBe(title);
      }
    }
    expect(sections).toBeGreaterThan(3000);
  });
});

describe("Nave's topics", () => {
  it("when every topic is read, then names, notes and references are clean and every reference resolves", () => {
    const rows = readGzipJson<{ id: string; name: string; refs: [string, number][]; notes: string[]; see: string[] }[]>(DEFAULT_STUDY_DIR, "naves.json.gz")!;
    expect(rows).toHaveLength(5322);
    const ids = new Set(rows.map((r) => r.id));
    expect(ids.size).toBe(rows.length);
    const problems: string[] = [];
    for (const row of rows) {
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(row.id)) problems.push(`id ${row.id}`);
      for (const note of row.notes) if (/<|>|&(?:[a-z]+|#\d+);|^[\s,;:.]|[\s,;:]$| {2}/.test(note)) problems.push(`${row.id} note ${note}`);
      if (study.topics.get(row.id, 0) === undefined) problems.push(`${row.id} not found by id`);
      for (const [ref, note] of row.refs) {
        if (!/^[1-4]?[A-Z]{2,3}\d+(?::\d+(?:-(?:\d+:)?\d+)?)?$/.test(ref)) problems.push(`${row.id} ref ${ref}`);
        if (note >= row.notes.length) problems.push(`${row.id} note index ${note}`);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
