import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_PROMPTS_DIR, loadPrompts } from "../../src/prompts/loader.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of prompts/ whose default theology carries `field` (YAML lines) in its front matter. */
function withField(field: string): string {
  const dir = mkdtempSync(join(tmpdir(), "study-fm-"));
  dirs.push(dir);
  cpSync(DEFAULT_PROMPTS_DIR, dir, { recursive: true });
  const file = join(dir, "theologies", "default.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("is_default: true\n", `is_default: true\n${field}`));
  return dir;
}

describe("theology front matter: commentaries", () => {
  it("when a theology prefers and avoids commentaries, then the loaded theology carries both lists", () => {
    const registry = loadPrompts(withField("commentaries:\n  prefer: [tdavid, scofield]\n  avoid: [mhcc]\n"));
    expect(registry.theology("default")?.commentaries).toEqual({ prefer: ["tdavid", "scofield"], avoid: ["mhcc"] });
    expect(registry.theology("catholic")?.commentaries).toBeUndefined();
  });

  it("when a profile sets commentaries, then start-up fails: only a theology steers the commentary tool", () => {
    const dir = withField("");
    const file = join(dir, "profiles", "universal_explorer.md");
    writeFileSync(file, readFileSync(file, "utf8").replace(/^---\n/, "---\ncommentaries:\n  prefer: [mhcc]\n"));
    expect(() => loadPrompts(dir)).toThrow(/universal_explorer\.md:2: unknown front matter field "commentaries"/);
  });

  it.each([
    ["commentaries:\n  prefer: [barnes]\n", /theologies\/default\.md:\d+: front matter field "commentaries" .*mhcc, tdavid, scofield/],
    ["commentaries:\n  favour: [mhcc]\n", /theologies\/default\.md:\d+: front matter field "commentaries"/],
    ["commentaries: mhcc\n", /theologies\/default\.md:\d+: front matter field "commentaries" must be a map/],
  ])("when the field is %j, then start-up fails with the file and line", (field, message) => {
    expect(() => loadPrompts(withField(field))).toThrow(message);
  });
});
