import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkPrompts } from "../../src/prompts/check.js";
import { DEFAULT_PROMPTS_DIR, listProfiles, listTheologies, loadPrompts, render } from "../../src/prompts/loader.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/prompts/minimal");
const ROOT = join(import.meta.dirname, "../..");
const base = mkdtempSync(join(tmpdir(), "prompts-registry-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const newTheology = `---
slug: quaker
name: Quaker
description: The Religious Society of Friends, attentive to the Inward Light.
version: "2026-11-22.1"
is_default: false
order: 1
---
> Controls: the theological voice for the Quaker tradition.

You answer as a member of the {{theology_name}} tradition ({{theology_slug}}), valuing silence and the Inward Light.
`;

describe("prompt registry", () => {
  it("when prompts:check runs on the shipped prompts/, then it reports OK", () => {
    const result = checkPrompts(DEFAULT_PROMPTS_DIR);
    expect(result.lines.join("\n")).toMatch(/^OK /);
    expect(result.ok).toBe(true);
  });

  it("when a new theology file is dropped into a copy of prompts/, then it is listed and used with no code change", () => {
    const dir = join(base, "dropped");
    cpSync(DEFAULT_PROMPTS_DIR, dir, { recursive: true });
    writeFileSync(join(dir, "theologies/quaker.md"), newTheology);
    const registry = loadPrompts(dir);
    const listing = listTheologies(registry);
    expect(listing[0]?.is_default).toBe(true);
    // order: 1 puts it right after the default, ahead of files without an order.
    expect(listing[1]).toEqual({
      slug: "quaker",
      name: "Quaker",
      description: "The Religious Society of Friends, attentive to the Inward Light.",
      is_default: false,
    });
    const doc = registry.theology("quaker");
    expect(doc && render(doc.body, { theology_name: doc.name, theology_slug: doc.slug })).toBe(
      "You answer as a member of the Quaker tradition (quaker), valuing silence and the Inward Light.",
    );
    expect(registry.versions("quaker", registry.defaultProfile.slug)).toMatch(
      /^guardrails@[0-9a-f]{12},theology:quaker@[0-9a-f]{12},profile:universal_explorer@[0-9a-f]{12}$/,
    );
  });

  it("when listing, then the fields are exactly the spec's and the default comes first", () => {
    const registry = loadPrompts(FIXTURE);
    expect(listTheologies(registry)).toEqual([
      { slug: "alpha", name: "Alpha", description: "The default fixture theology.", is_default: true },
      { slug: "beta", name: "Beta", description: "A second fixture theology.", is_default: false },
    ]);
    expect(listProfiles(registry)).toEqual([
      { slug: "reader", name: "Reader", description: "The default fixture profile.", experience_level: 2, is_default: true },
      { slug: "expert", name: "Expert", description: "A fixture profile for experts.", experience_level: 5, is_default: false },
    ]);
  });

  it("when a partial is included, then its text replaces the tag and the Controls line never reaches the model", () => {
    const registry = loadPrompts(FIXTURE);
    expect(registry.guardrails.body).toBe("Rules for {{theology_name}}. Your tools:\n{{tools}}\n\nCare for people in distress.");
    expect(registry.theologies.every((t) => !t.body.includes("Controls:"))).toBe(true);
  });

  it("when a partial changes, then the hash of every file including it changes and the others stay", () => {
    const dir = join(base, "hash");
    cpSync(FIXTURE, dir, { recursive: true });
    const before = loadPrompts(dir);
    const care = join(dir, "_partials/care.md");
    writeFileSync(care, readFileSync(care, "utf8").replace("distress", "trouble"));
    const after = loadPrompts(dir);
    expect(after.guardrails.hash).not.toBe(before.guardrails.hash);
    expect(after.theology("alpha")?.hash).toBe(before.theology("alpha")?.hash);
    expect(after.versions("beta", "expert")).not.toBe(before.versions("beta", "expert"));
    expect(before.guardrails.version).toBe("g1");
  });

  it("when asked for versions, then the header names guardrails, theology and profile with 12-hex hashes", () => {
    const registry = loadPrompts(FIXTURE);
    const g = registry.guardrails.hash;
    expect(registry.versions("beta", "expert")).toBe(
      `guardrails@${g},theology:beta@${registry.theology("beta")?.hash},profile:expert@${registry.profile("expert")?.hash}`,
    );
    expect(registry.versionEntries("alpha", "reader").map((e) => `${e.part}=${e.version}`)).toEqual([
      "guardrails=g1",
      "theology:alpha=t1",
      "profile:reader=r1",
    ]);
    expect(() => registry.versions("nope", "reader")).toThrow(/unknown theology/);
  });

  it("when a canned reply is asked in a language without a file, then English is used", () => {
    const registry = loadPrompts(FIXTURE);
    expect(registry.canned("greeting", "es").body).toBe("Canned greeting es.");
    expect(registry.canned("content_filter", "fr").body).toBe("Canned content_filter en.");
    expect(registry.theology("missing")).toBeUndefined();
  });

  it("when rendering, then known placeholders fill and a missing value throws", () => {
    expect(render("At most {{max_words}} words for {{ profile_name }}.", { max_words: 120, profile_name: "Scholar" })).toBe(
      "At most 120 words for Scholar.",
    );
    expect(() => render("{{max_words}}", {})).toThrow(/no value given for \{\{max_words\}\}/);
    expect(() => render("{{colour}}", {})).toThrow(/unknown placeholder/);
  });

  it("when the CLI runs, then it prints OK and exits 0, or prints file:line problems and exits 1", () => {
    const ok = spawnSync(process.execPath, ["--import", "tsx", "src/prompts/check.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(ok.stdout).toMatch(/^OK prompts: \d+ theologies, \d+ profiles, 17 canned replies/);
    expect(ok.status).toBe(0);

    const dir = join(base, "cli-broken");
    cpSync(FIXTURE, dir, { recursive: true });
    const beta = join(dir, "theologies/beta.md");
    writeFileSync(beta, readFileSync(beta, "utf8").replace("is_default: false", "is_default: true"));
    const bad = spawnSync(process.execPath, ["--import", "tsx", "src/prompts/check.ts", dir], { cwd: ROOT, encoding: "utf8" });
    expect(bad.stderr).toContain(`${dir}/theologies/beta.md:6: second default theology`);
    expect(bad.stderr).toContain("1 problem(s)");
    expect(bad.status).toBe(1);
  });
});
