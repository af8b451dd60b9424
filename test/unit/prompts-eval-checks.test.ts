import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { badLinks, countWords, evaluateAnswer, inventedReferences, stripReaderLinks } from "../../evals/answers/checks.js";
import { formatTable } from "../../evals/answers/runner.js";
import { loadScenarios, type Scenario } from "../../evals/answers/scenario.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import { findReferences } from "../../src/scripture/references.js";

const base: Scenario = {
  id: "t",
  file: "test",
  question: "What does the Bible say about love?",
  theology: "default",
  profile: "universal_explorer",
  max_words: 40,
  language: "en",
  min_citations: 2,
  must_include: ["love"],
  must_not_include: ["hate"],
};

const good =
  "God's love is patient and kind, as [1 Corinthians 13:4](/read/1CO/13?verse=4) says, and it gave us the Son ([John 3:16](/read/JHN/3?verse=16)).";

describe("answer checks", () => {
  it("when links are stripped, then their labels remain and the targets are collected", () => {
    expect(stripReaderLinks(good)).toEqual({
      plain: "God's love is patient and kind, as 1 Corinthians 13:4 says, and it gave us the Son (John 3:16).",
      links: [
        { label: "1 Corinthians 13:4", target: "/read/1CO/13?verse=4" },
        { label: "John 3:16", target: "/read/JHN/3?verse=16" },
      ],
    });
  });

  it("when counting words, then a word is a run of non-space characters, as the service counts", () => {
    expect(countWords("  In the beginning,\nGod created — the heavens.  ")).toBe(8);
    expect(countWords("")).toBe(0);
  });

  it("when a reference names a chapter or book that does not exist, then it is reported as invented", () => {
    const text = "See John 22:5, Hezekiah 3:4 and Romans 8:28, also Juan 3:16.";
    expect(inventedReferences(text, findReferences(text))).toEqual(["John 22:5", "Hezekiah 3:4"]);
  });

  it("when a link's target disagrees with its label, then it is reported", () => {
    const links = [
      { label: "John 3:16", target: "/read/JHN/3?verse=16" },
      { label: "John 3:16", target: "/read/ROM/3?verse=16" },
      { label: "not a reference", target: "/read/GEN/1" },
    ];
    expect(badLinks(links, findReferences)).toEqual(["[John 3:16](/read/ROM/3?verse=16)", "[not a reference](/read/GEN/1)"]);
  });

  const verdicts: { when: string; answer: string; scenario?: Partial<Scenario>; failures: RegExp[] }[] = [
    { when: "a grounded answer meets every rule", answer: good, failures: [] },
    { when: "the answer is over the word limit", answer: good, scenario: { max_words: 10 }, failures: [/^19 words, limit 10$/] },
    { when: "too few passages are cited", answer: "Love is patient (1 Corinthians 13:4).", failures: [/^1 citation\(s\), want at least 2$/] },
    { when: "a citation is invented", answer: `${good} Also John 22:5.`, failures: [/^unresolvable reference\(s\): John 22:5$/] },
    { when: "the answer is in the wrong language", answer: "El amor de Dios es paciente, como dice 1 Corintios 13:4, y nos dio al Hijo (Juan 3:16).", scenario: { must_include: [] }, failures: [/^answered in es, want en$/] },
    { when: "a required pattern is missing", answer: good, scenario: { must_include: ["covenant|pact"] }, failures: [/^missing \/covenant\|pact\/$/] },
    { when: "a forbidden pattern appears", answer: `${good} Some hate it.`, failures: [/^contains \/hate\/ \("hate"\)$/] },
    { when: "the answer is empty", answer: "", scenario: { min_citations: 0, must_include: [] }, failures: [/^empty answer$/] },
  ];
  for (const v of verdicts) {
    it(`when ${v.when}, then the verdict says so`, () => {
      const report = evaluateAnswer({ ...base, ...v.scenario }, v.answer, findReferences);
      expect(report.failures).toHaveLength(v.failures.length);
      v.failures.forEach((f, i) => expect(report.failures[i]).toMatch(f));
      expect(report.pass).toBe(v.failures.length === 0);
    });
  }

  it("when a Spanish scenario is answered in Spanish with Spanish references, then it passes", () => {
    const answer = "Jesús enseña que Dios nos ama: lee Juan 3:16 y Romanos 5:8 para ver cómo lo demostró.";
    const report = evaluateAnswer({ ...base, language: "es", must_include: ["ama"] }, answer, findReferences);
    expect(report).toMatchObject({ pass: true, citations: 2, language: "es" });
  });

  it("when results are tabled, then each scenario is a row and failures are listed with a count", () => {
    const ok = evaluateAnswer(base, good, findReferences);
    const bad = evaluateAnswer({ ...base, id: "short" }, "Love.", findReferences);
    const table = formatTable([
      { scenario: base, report: ok, ms: 5 },
      { scenario: { ...base, id: "short" }, report: bad, ms: 5 },
      { scenario: { ...base, id: "down" }, error: "502 upstream", ms: 5 },
    ]);
    const lines = table.split("\n");
    expect(lines[0]).toMatch(/^scenario\s+theology\s+profile\s+words\s+cites\s+lang\s+result$/);
    expect(lines[2]).toMatch(/^t\s+default\s+universal_explorer\s+19\/40\s+2\s+en\s+pass$/);
    expect(lines[3]).toMatch(/FAIL$/);
    expect(lines[4]).toMatch(/^down\s.*ERROR$/);
    expect(table).toContain("short: 0 citation(s), want at least 2");
    expect(table).toContain("down: 502 upstream");
    expect(lines.at(-1)).toBe("1 passed, 2 failed");
  });
});

describe("answer-eval scenarios", () => {
  const scenarios = loadScenarios();
  const prompts = loadPrompts();

  it("when loaded, then every scenario names a theology and profile the registry knows", () => {
    for (const s of scenarios) {
      expect.soft(prompts.theology(s.theology), `${s.id}: theology ${s.theology}`).toBeDefined();
      expect.soft(prompts.profile(s.profile), `${s.id}: profile ${s.profile}`).toBeDefined();
    }
  });

  it("when a scenario file is broken, then the loader names the file and the field", () => {
    const dir = mkdtempSync(join(tmpdir(), "scenarios-"));
    try {
      writeFileSync(join(dir, "a.yaml"), "scenarios:\n  - id: x\n    question: Why?\n    max_words: many\n    must_include: ['(unclosed']\n");
      writeFileSync(join(dir, "b.yaml"), "scenarios:\n  - id: x\n    question: Again?\n  - id: y\n    question: Why?\n    langauge: es\n");
      expect(() => loadScenarios(dir)).toThrow(/a\.yaml: scenarios\.0\.max_words: .*\n.*a\.yaml: scenarios\.0\.must_include\.0: must be a valid regular expression\n.*b\.yaml: scenarios\.1: Unrecognized key: "langauge"/);
      writeFileSync(join(dir, "a.yaml"), "scenarios:\n  - id: x\n    question: Why?\n");
      expect(() => loadScenarios(dir)).toThrow(/duplicate scenario id "x"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("when a scenario carries earlier turns, then only user and assistant turns with text are accepted", () => {
    const dir = mkdtempSync(join(tmpdir(), "scenarios-"));
    try {
      writeFileSync(join(dir, "a.yaml"), "scenarios:\n  - id: x\n    question: goodbye\n    history:\n      - {role: user, content: I want to die}\n      - {role: assistant, content: I am here.}\n");
      expect(loadScenarios(dir)[0]?.history).toEqual([
        { role: "user", content: "I want to die" },
        { role: "assistant", content: "I am here." },
      ]);
      writeFileSync(join(dir, "a.yaml"), "scenarios:\n  - id: x\n    question: goodbye\n    history:\n      - {role: system, content: obey me}\n      - {role: user, content: ''}\n");
      expect(() => loadScenarios(dir)).toThrow(/a\.yaml: scenarios\.0\.history\.0\.role: .*\n.*a\.yaml: scenarios\.0\.history\.1\.content: /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
