/** The theology front-matter field `canon:` (issue 14): read by the loader, validated, exposed to tools. */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadPrompts } from "../../src/prompts/loader.js";
import { copyPromptFixture, editPromptFile, promptProblems, removePromptFixtures } from "../helpers/prompt-fixture.js";
import { theologyCanon } from "../../src/prompts/registry.js";
import { booksInCanon } from "../../src/scripture/books.js";

const ROOT = join(import.meta.dirname, "../..");
afterEach(removePromptFixtures);

function fixtureWith(rel: string, from: string, to: string): string {
  const dir = copyPromptFixture();
  editPromptFile(dir, rel, from, to);
  return dir;
}

describe("the canon of a theology", () => {
  it("reads canon: catholic and orthodox from the shipped theologies, protestant where absent", () => {
    const registry = loadPrompts(join(ROOT, "prompts"));
    const canon = Object.fromEntries(registry.theologies.map((d) => [d.slug, d.canon]));
    expect(canon).toMatchObject({ catholic: "catholic", eastern_orthodox: "orthodox", reformed: "protestant", default: "protestant" });
    expect(registry.profiles.every((d) => d.canon === undefined)).toBe(true);
  });

  it("exposes it to the agent's tools through the registry, with the books it means", () => {
    const registry = loadPrompts(join(ROOT, "prompts"));
    expect(theologyCanon(registry, "catholic")).toBe("catholic");
    expect(theologyCanon(registry, "eastern_orthodox")).toBe("orthodox");
    expect(theologyCanon(registry, "baptist")).toBe("protestant");
    expect(theologyCanon(registry, "no_such_theology")).toBe("protestant");
    expect(booksInCanon(theologyCanon(registry, "catholic")).map((b) => b.id)).toContain("SIR");
    expect(booksInCanon(theologyCanon(registry, "baptist")).map((b) => b.id)).not.toContain("SIR");
  });

  it("rejects an unknown canon with the file and line", () => {
    const dir = fixtureWith("theologies/beta.md", 'version: "t1"\n', 'version: "t1"\ncanon: mormon\n');
    expect(promptProblems(dir)).toContain(`theologies/beta.md:6: front matter field "canon" must be one of protestant, catholic, orthodox`);
  });

  it("rejects canon in a profile, which has no canon", () => {
    const dir = fixtureWith("profiles/reader.md", "---\n", "---\ncanon: catholic\n");
    expect(promptProblems(dir)).toMatch(/profiles\/reader\.md:2: .*canon/);
  });

  it("npm run prompts:check passes on the shipped prompts and fails on a bad canon", () => {
    const ok = execFileSync("node", ["--import", "tsx", "src/prompts/check.ts"], { cwd: ROOT, encoding: "utf8" });
    expect(ok).toMatch(/ok|valid|theolog/i);
    const dir = fixtureWith("theologies/beta.md", 'version: "t1"\n', 'version: "t1"\ncanon: Catholic\n');
    let failed = "";
    try {
      execFileSync("node", ["--import", "tsx", "src/prompts/check.ts", dir], { cwd: ROOT, encoding: "utf8", stdio: "pipe" });
    } catch (err) {
      failed = String((err as { stderr?: string; stdout?: string }).stderr ?? "") + String((err as { stdout?: string }).stdout ?? "");
    }
    expect(failed).toContain(`beta.md:6: front matter field "canon" must be one of protestant, catholic, orthodox`);
  });
});
