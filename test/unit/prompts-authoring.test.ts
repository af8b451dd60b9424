import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SCENARIOS_DIR } from "../../evals/answers/scenario.js";
import { checkPrompts } from "../../src/prompts/check.js";
import { listingLanguage } from "../../src/prompts/language.js";
import { AUTHORING_RULES } from "../../src/prompts/authoring.js";
import { frontMatterFields } from "../../src/prompts/front-matter.js";
import { DEFAULT_PROMPTS_DIR, listTheologies, loadPrompts } from "../../src/prompts/loader.js";

let root: string;
let prompts: string;
let scenarios: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "authoring-"));
  prompts = join(root, "prompts");
  scenarios = join(root, "scenarios");
  cpSync(DEFAULT_PROMPTS_DIR, prompts, { recursive: true });
  cpSync(SCENARIOS_DIR, scenarios, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A new theology made the way the author's guide says: copy a neighbour, change the front matter. */
function addQuaker(edit: (text: string) => string = (t) => t): string {
  const text = readFileSync(join(prompts, "theologies", "baptist.md"), "utf8")
    .replace("slug: baptist", "slug: quaker")
    .replace(/^name: .*$/m, "name: Quaker")
    .replace(/^name_es: .*$/m, 'name_es: "Cuáquera"')
    .replace(/^order: .*$/m, "order: 95");
  const path = join(prompts, "theologies", "quaker.md");
  writeFileSync(path, edit(text));
  return path;
}

function addQuakerScenarios(n = 3): void {
  const items = Array.from({ length: n }, (_, i) => `  - id: quaker-${i}\n    question: What do Friends mean by the Inward Light (${i})?\n`).join("");
  writeFileSync(join(scenarios, "theology-quaker.yaml"), `defaults:\n  theology: quaker\nscenarios:\n${items}`);
}

const problems = () => checkPrompts(prompts, scenarios).lines;

describe("prompts:check holds every authoring rule", () => {
  it("when a theology is added as one file with its scenarios, then prompts:check passes and the listing shows it", () => {
    addQuaker();
    addQuakerScenarios();
    expect(checkPrompts(prompts, scenarios).ok).toBe(true);
    const listed = listTheologies(loadPrompts(prompts));
    expect(listed.map((t) => t.slug)).toContain("quaker");
    expect(listTheologies(loadPrompts(prompts), "es").find((t) => t.slug === "quaker")?.name).toBe("Cuáquera");
  });

  it("when the new theology has too few scenarios, then prompts:check names the file and the slug line", () => {
    const path = addQuaker();
    addQuakerScenarios(1);
    expect(problems()).toContain(`${path}:2: 1 eval scenario(s) in evals/scenarios use this theology; add at least 3`);
  });

  it("when the new theology is too short, then prompts:check says how many words and the range", () => {
    // Every section kept, each cut to one sentence.
    const path = addQuaker((t) => t.replace(/(## [^\n]+\n)(?:(?!## )[\s\S])*?(?=## |$)/g, (_, heading: string) => `${heading}\n<!-- Sources: none -->\nShort.\n\n`));
    addQuakerScenarios();
    expect(problems().some((l) => l.startsWith(`${path}:`) && /\d+ words: keep a theology between 230 and 1100 words/.test(l))).toBe(true);
  });

  it("when a section, the Spanish name or the sources comment is missing, then each is its own file:line problem", () => {
    const path = addQuaker((t) =>
      t
        .replace("## Other traditions", "## Others")
        .replace(/^name_es: .*\n/m, "")
        .replace(/^description_es: .*\n/m, "")
        .replace(/<!-- Sources:[^\n]*-->\n/, ""),
    );
    addQuakerScenarios();
    const lines = problems();
    expect(lines).toContain(`${path}:9: missing section "## Other traditions" (see prompts/README.md, "Writing well here")`);
    expect(lines).toContain(`${path}:4: missing name_es and description_es: the listings serve them with ?lang=es`);
    expect(lines.some((l) => l.startsWith(`${path}:`) && l.includes("Sources:"))).toBe(true);
    expect(checkPrompts(prompts, scenarios).ok).toBe(false);
  });

  it("when a profile is added without scenarios, then the rule for profiles (two) applies", () => {
    const text = readFileSync(join(prompts, "profiles", "scholar.md"), "utf8").replace("slug: scholar", "slug: pastor").replace(/^order: .*$/m, "order: 99");
    const path = join(prompts, "profiles", "pastor.md");
    writeFileSync(path, text);
    expect(problems()).toContain(`${path}:2: 0 eval scenario(s) in evals/scenarios use this profile; add at least 2`);
  });
});

describe("the author's guide (prompts/README.md)", () => {
  const guide = readFileSync(join(DEFAULT_PROMPTS_DIR, "README.md"), "utf8");

  it("when a theology or profile field is allowed, then the guide documents it", () => {
    for (const kind of ["theology", "profile"] as const) {
      for (const field of frontMatterFields(kind)) expect(guide, `${kind} field ${field}`).toContain(field);
    }
    expect(guide).toMatch(/`commentaries` \(theologies only/);
  });

  it("when the guide's steps for a new theology are followed in order, then the scenarios come before the check that counts them", () => {
    const steps = guide.split(/^## Adding a theology or profile$/m)[1]?.split(/^## /m)[0] ?? "";
    const scenarios = steps.indexOf("evals/scenarios");
    const check = steps.indexOf("npm run prompts:check");
    expect(scenarios).toBeGreaterThan(-1);
    expect(check).toBeGreaterThan(scenarios);
    const words = ["zero", "one", "two", "three", "four", "five"];
    const rule = new RegExp(`at least ${words[AUTHORING_RULES.theology.scenarios]} that name a new theology,\\s+${words[AUTHORING_RULES.profile.scenarios]}\\s+that name a new profile`);
    expect(steps).toMatch(rule);
  });
});

describe("author comments", () => {
  it("when a body holds <!-- comments -->, then the model never sees them and the text around them stays", () => {
    const registry = loadPrompts(DEFAULT_PROMPTS_DIR);
    const raw = readFileSync(join(DEFAULT_PROMPTS_DIR, "theologies", "catholic.md"), "utf8");
    expect(raw).toMatch(/<!-- Sources: [^\n]*Catechism of the Catholic Church/);
    const body = registry.theology("catholic")!.body;
    expect(body).not.toContain("<!--");
    expect(body).not.toContain("Sources:");
    expect(body).toContain("## Moral questions\n\nMarriage is a covenant");
    expect(registry.guardrails.body).not.toContain("<!--");
  });

  it("when a comment is never closed, then the loader names the line", () => {
    const path = join(prompts, "theologies", "baptist.md");
    const text = readFileSync(path, "utf8");
    const lines = text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("## Emphases"));
    lines.splice(at, 0, "<!-- a note for reviewers");
    writeFileSync(path, lines.join("\n"));
    expect(problems()).toContain(`${path}:${at + 1}: comment "<!--" is never closed with "-->"`);
  });

  it("when a placeholder sits inside a comment, then it is not checked or sent", () => {
    const path = join(prompts, "theologies", "baptist.md");
    writeFileSync(path, readFileSync(path, "utf8").replace("## Emphases", "<!-- {{not_a_placeholder}} -->\n## Emphases"));
    expect(checkPrompts(prompts).ok).toBe(true);
  });
});

describe("listing language", () => {
  it.each([
    ["es", undefined, "es"],
    ["ES", undefined, "es"],
    ["es-MX", undefined, "es"],
    ["fr", undefined, "en"],
    [undefined, "es-ES,es;q=0.9,en;q=0.8", "es"],
    [undefined, "en-US,en;q=0.9,es;q=0.8", "en"],
    [undefined, "fr-FR,fr;q=0.9,es;q=0.5", "es"],
    [undefined, "es;q=0,en", "en"],
    [undefined, "de", "en"],
    ["en", "es", "en"],
    [undefined, undefined, "en"],
  ] as const)("when lang=%s and Accept-Language=%s, then the listing is in %s", (lang, header, expected) => {
    expect(listingLanguage(lang, header)).toBe(expected);
  });
});
