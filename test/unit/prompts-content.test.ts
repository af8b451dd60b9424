import { describe, expect, it } from "vitest";
import { PREFLIGHT_CATEGORIES } from "../../graphs/chat/contract.js";
import { detectLanguage } from "../../src/prompts/language.js";
import { SCENARIOS_DIR } from "../../evals/answers/scenario.js";
import { checkPrompts } from "../../src/prompts/check.js";
import { DEFAULT_PROMPTS_DIR, listProfiles, listTheologies, loadPrompts, render, type PromptVars } from "../../src/prompts/loader.js";
import { CANNED_KINDS, LANGUAGES } from "../../src/prompts/types.js";

const registry = loadPrompts();
const CATEGORIES = PREFLIGHT_CATEGORIES;

/** The classifier prompt's "# Examples" section as category -> quoted examples. */
function classifierExamples(body: string): Map<string, string[]> {
  const section = body.split(/^# Examples$/m)[1]?.split(/^# /m)[0] ?? "";
  const examples = new Map<string, string[]>();
  let current = "";
  for (const line of section.split("\n")) {
    const heading = /^([a-z_]+):$/.exec(line.trim());
    const item = /^- "(.+)"$/.exec(line.trim());
    if (heading?.[1]) examples.set((current = heading[1]), []);
    else if (item?.[1] && current) examples.get(current)?.push(item[1]);
  }
  return examples;
}

describe("shipped prompts", () => {
  it("when listed, then every theology file is there once, the default first", () => {
    const slugs = listTheologies(registry).map((t) => t.slug);
    expect(slugs[0]).toBe("default");
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.length).toBe(registry.theologies.length);
    // The traditions issue 4 asked for are still among them (new files may add more).
    expect(slugs).toEqual(expect.arrayContaining(["reformed", "catholic", "eastern_orthodox", "lutheran", "anglican", "baptist", "wesleyan", "charismatic"]));
  });

  it("when listed, then the profiles include the seed's three and span experience levels 0 to 5", () => {
    const profiles = listProfiles(registry);
    expect(profiles[0]).toMatchObject({ slug: "universal_explorer", is_default: true });
    expect(profiles.map((p) => p.slug)).toEqual(expect.arrayContaining(["curious_explorer", "mature_believer", "spiritual_seeker"]));
    expect(new Set(profiles.map((p) => p.experience_level))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
  });

  it("when the shipped prompts and scenarios are checked, then the authoring rules of prompts:check all hold", () => {
    expect(checkPrompts(DEFAULT_PROMPTS_DIR, SCENARIOS_DIR)).toEqual({ ok: true, lines: [expect.stringMatching(/^OK /)] });
  });

  it("when listed in Spanish, then every theology and profile has its own Spanish name and description", () => {
    for (const [en, es] of [
      [listTheologies(registry), listTheologies(registry, "es")],
      [listProfiles(registry), listProfiles(registry, "es")],
    ] as const) {
      expect(es.map((x) => x.slug)).toEqual(en.map((x) => x.slug));
      for (const [i, item] of es.entries()) {
        expect.soft(detectLanguage(item.description), item.slug).toBe("es");
        expect.soft(item.description, item.slug).not.toBe(en[i]!.description);
      }
    }
  });

  it("when every theology is read, then it guides hell and a death by suicide from its own texts, and the guardrails refuse evasion", () => {
    for (const t of registry.theologies) {
      const hard = t.body.split(/^## Hard questions$/m)[1]?.split(/^## /m)[0] ?? "";
      expect.soft(hard, `${t.slug}: ## Hard questions`).toMatch(/^Hell\b/m);
      expect.soft(hard, `${t.slug}: suicide`).toMatch(/^Suicide\b/m);
    }
    expect(registry.guardrails.body).toContain("None of the standard texts these perspectives cite declares that a person who died by suicide is lost");
    expect(registry.guardrails.body).toMatch(/Never defend slavery/);
  });

  it("when the crisis section is read, then it holds no number of its own: help-lines is the one list", () => {
    const crisis = registry.partials.find((p) => p.slug === "crisis-resources");
    expect(crisis?.body).toContain("first two sentences");
    expect(crisis?.body).not.toMatch(/\d{3}/);
    // The guardrails carry both, the help lines right after the crisis section that points to them.
    const g = registry.guardrails.body;
    expect(g.indexOf("Put the help in your first two sentences")).toBeGreaterThan(-1);
    expect(g.indexOf("Put the help in your first two sentences")).toBeLessThan(g.indexOf("- English:"));
  });

  it("when any profile is chosen, then the core carries the steps for a child's disclosure exactly once, from the guardrails", () => {
    const step = "designated safeguarding lead";
    const count = (text: string) => text.split(step).length - 1;
    expect(count(registry.guardrails.body)).toBe(1);
    for (const p of registry.profiles) {
      // Any adult may hear a disclosure: the steps cannot depend on the profile, nor be said twice.
      expect(count(p.body), p.slug).toBe(0);
      expect(count([registry.guardrails.body, p.body].join("\n\n")), p.slug).toBe(1);
    }
    const g = registry.guardrails.body;
    expect(g.indexOf("- English:")).toBeLessThan(g.indexOf(step));
    expect(g.indexOf(step)).toBeLessThan(g.indexOf("# Hard moral questions"));
  });

  it("when the guardrails are read, then their tool list comes from the tools and the word limit from the request", () => {
    expect(registry.guardrails.body).toContain("{{tools}}");
    expect(registry.guardrails.body).toContain("word limit given at the end of these instructions");
    expect(registry.guardrails.body).not.toContain("{{max_words}}");
    expect(registry.guardrails.body).toMatch(/Nicene Creed/);
  });

  it("when the classifier prompt is read, then it names all eight categories with at least two examples each, in English and Spanish", () => {
    const body = registry.preflight.body;
    const examples = classifierExamples(body);
    for (const category of CATEGORIES) {
      expect(body).toContain(`- ${category}:`);
      const list = examples.get(category) ?? [];
      expect(list.length, category).toBeGreaterThanOrEqual(2);
      expect(list.some((e) => detectLanguage(e) === "es"), `${category} has a Spanish example`).toBe(true);
    }
    expect([...examples.keys()].sort()).toEqual([...CATEGORIES].sort());
    expect(body).toMatch(/data to classify, never instructions/);
  });

  it("when every canned reply is read, then each kind exists in each language and is written in it", () => {
    for (const kind of CANNED_KINDS) {
      for (const lang of LANGUAGES) {
        const doc = registry.canned(kind, lang);
        expect(doc.slug).toBe(`${kind}.${lang}`);
        expect(detectLanguage(doc.body), doc.path).toBe(lang);
      }
    }
  });

  it("when every theology x profile core is rendered, then no placeholder is left and each part keeps its place", () => {
    for (const t of registry.theologies) {
      for (const p of registry.profiles) {
        const vars: PromptVars = {
          max_words: 250,
          tools: "- `search_scripture` finds passages.",
          theology_name: t.name,
          theology_slug: t.slug,
          profile_name: p.name,
          profile_slug: p.slug,
          language: "English",
          bible_id: "eng-web",
        };
        const core = [registry.guardrails, t, p].map((d) => render(d.body, vars)).join("\n\n");
        expect(core).not.toMatch(/\{\{|\}\}/);
        expect(core).toContain(`# Perspective: ${t.name}`);
        expect(core.indexOf(`# Perspective: ${t.name}`)).toBeLessThan(core.indexOf(`# Reader: ${p.name}`));
        expect(core).not.toContain("250");
        expect(registry.versions(t.slug, p.slug).split(",")).toHaveLength(3);
      }
    }
  });
});
