import { cpSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadPrompts, PromptValidationError } from "../../src/prompts/loader.js";
import { copyPromptFixture, editPromptFile, promptProblems, removePromptFixtures } from "../helpers/prompt-fixture.js";

afterEach(removePromptFixtures);

// Each case breaks one thing in a valid prompt folder; the expected text is `relative-path:line: message start`.
const cases: { when: string; breakIt: (dir: string) => void; expected: string[] }[] = [
  {
    when: "a placeholder is not in the known list",
    breakIt: (d) => editPromptFile(d, "theologies/beta.md", "{{theology_name}}", "{{theology_nam}}"),
    expected: ["theologies/beta.md:10: unknown placeholder {{theology_nam}}"],
  },
  {
    when: "a canned reply uses a placeholder only core prompts may use",
    breakIt: (d) => editPromptFile(d, "canned/greeting.en.md", "Canned", "{{language}} Canned"),
    expected: ["canned/greeting.en.md:6: placeholder {{language}} is not available in canned files"],
  },
  {
    when: "a core file uses a value that changes per request",
    breakIt: (d) => {
      editPromptFile(d, "guardrails.md", "Rules for", "Stay within {{max_words}} words. Rules for");
      editPromptFile(d, "profiles/reader.md", "{{profile_name}}", "{{profile_name}} in {{language}}");
    },
    expected: [
      "guardrails.md:6: placeholder {{max_words}} is not available in guardrails files: it changes from request to request",
      "profiles/reader.md:11: placeholder {{language}} is not available in profile files: it changes from request to request",
    ],
  },
  {
    when: "a core file includes a partial that uses a per-request value",
    breakIt: (d) => editPromptFile(d, "_partials/care.md", "Care", "Within {{max_words}} words. Care"),
    expected: ['guardrails.md:9: partial "care" uses {{max_words}}, which is not available in guardrails files: it changes from request to request'],
  },
  {
    when: "a canned reply uses the tool list, which only the core may use",
    breakIt: (d) => editPromptFile(d, "canned/greeting.en.md", "Canned", "{{tools}} Canned"),
    expected: ["canned/greeting.en.md:6: placeholder {{tools}} is not available in canned files"],
  },
  {
    when: "a partial the service renders itself is missing",
    breakIt: (d) => unlinkSync(join(d, "_partials/request-length.md")),
    expected: ["_partials/request-length.md:1: missing partial request-length"],
  },
  {
    when: "the classifier's partial for earlier turns is missing",
    breakIt: (d) => unlinkSync(join(d, "_partials/preflight-conversation.md")),
    expected: ["_partials/preflight-conversation.md:1: missing partial preflight-conversation"],
  },
  {
    when: "a placeholder is malformed",
    breakIt: (d) => editPromptFile(d, "profiles/reader.md", "{{profile_name}}", "{{ profile name }} and {{max_words"),
    expected: ["profiles/reader.md:11: malformed placeholder {{ profile name }}", "profiles/reader.md:11: malformed placeholder {{:"],
  },
  {
    when: "a partial is included by a path that tries to leave the folder",
    breakIt: (d) => editPromptFile(d, "guardrails.md", "{{> care}}", "{{> ../../etc/passwd}}"),
    expected: ["guardrails.md:9: malformed placeholder {{> ../../etc/passwd}}"],
  },
  {
    when: "an included partial does not exist",
    breakIt: (d) => editPromptFile(d, "guardrails.md", "{{> care}}", "{{> kindness}}"),
    expected: ["guardrails.md:9: unknown partial {{> kindness}}"],
  },
  {
    when: "a partial includes another partial",
    breakIt: (d) => editPromptFile(d, "_partials/care.md", "Care", "{{> care}} Care"),
    expected: ["_partials/care.md:6: a partial cannot include another partial"],
  },
  {
    when: "two files declare the same slug",
    breakIt: (d) => cpSync(join(d, "theologies/beta.md"), join(d, "theologies/gamma.md")),
    expected: ['theologies/gamma.md:2: slug "beta" does not match the file name "gamma.md"', 'theologies/gamma.md:2: duplicate theology slug "beta"'],
  },
  {
    when: "the slug does not match the file name",
    breakIt: (d) => editPromptFile(d, "theologies/alpha.md", "slug: alpha", "slug: alfa"),
    expected: ['theologies/alpha.md:2: slug "alfa" does not match the file name "alpha.md"'],
  },
  {
    when: "no theology is the default",
    breakIt: (d) => editPromptFile(d, "theologies/alpha.md", "is_default: true", "is_default: false"),
    expected: ["theologies:1: no default theology"],
  },
  {
    when: "a second profile claims to be the default",
    breakIt: (d) => editPromptFile(d, "profiles/expert.md", "is_default: false", "is_default: true"),
    expected: ["profiles/reader.md:6: second default profile"],
  },
  {
    when: "front matter fields have the wrong types",
    breakIt: (d) => {
      editPromptFile(d, "profiles/expert.md", "experience_level: 5", 'experience_level: "high"');
      editPromptFile(d, "profiles/reader.md", "is_default: true", "is_default: yes");
      editPromptFile(d, "theologies/beta.md", 'version: "t1"', "version: 1.5");
    },
    expected: [
      'profiles/expert.md:7: front matter field "experience_level" must be an integer',
      'profiles/reader.md:6: front matter field "is_default" must be true or false',
      'theologies/beta.md:5: front matter field "version" must be a string',
    ],
  },
  {
    when: "experience_level is outside 0..5",
    breakIt: (d) => editPromptFile(d, "profiles/expert.md", "experience_level: 5", "experience_level: 7"),
    expected: ['profiles/expert.md:7: front matter field "experience_level" must be from 0 to 5'],
  },
  {
    when: "a required field is missing and an unknown one is present",
    breakIt: (d) => editPromptFile(d, "theologies/beta.md", "name: Beta", "colour: blue"),
    expected: ['theologies/beta.md:3: unknown front matter field "colour"', 'theologies/beta.md:2: front matter field "name" is missing'],
  },
  {
    when: "the front matter is not valid YAML",
    breakIt: (d) => editPromptFile(d, "theologies/beta.md", "name: Beta", "name: [Beta"),
    expected: ["theologies/beta.md:4: front matter is not valid YAML"],
  },
  {
    when: "a description holds an unquoted colon",
    breakIt: (d) => editPromptFile(d, "theologies/beta.md", /^description: .*$/m, "description: The Beta tradition: careful and kind."),
    expected: ['theologies/beta.md:4: the value of "description" contains ": ", which YAML reads as the start of another field: put the value in double quotes: description: "The Beta tradition: careful and kind."'],
  },
  {
    when: "the file has no front matter",
    breakIt: (d) => writeFileSync(join(d, "preflight.md"), "Classify the message.\n"),
    expected: ["preflight.md:1: file must start with YAML front matter"],
  },
  {
    when: "the body has no Controls line",
    breakIt: (d) => editPromptFile(d, "theologies/beta.md", /> Controls: .*\n/, ""),
    expected: ['theologies/beta.md:9: body must open with a "> Controls: ..." line'],
  },
  {
    when: "the body is empty",
    breakIt: (d) => editPromptFile(d, "profiles/expert.md", /Write for .*\n/, ""),
    expected: ["profiles/expert.md:9: body is empty"],
  },
  {
    when: "a file is larger than the limit",
    breakIt: (d) => editPromptFile(d, "theologies/beta.md", "You speak", `${"Long text. ".repeat(2000)}\nYou speak`),
    expected: ["theologies/beta.md:1: file is 22"],
  },
  {
    when: "a canned reply is missing in one language",
    breakIt: (d) => unlinkSync(join(d, "canned/greeting.es.md")),
    expected: ["canned/greeting.es.md:1: missing canned reply greeting in language es"],
  },
  {
    when: "a canned reply file name has an unknown language",
    breakIt: (d) => cpSync(join(d, "canned/greeting.en.md"), join(d, "canned/greeting.fr.md")),
    expected: ["canned/greeting.fr.md:1: canned reply files are named <kind>.<lang>.md"],
  },
  {
    when: "guardrails.md is missing",
    breakIt: (d) => unlinkSync(join(d, "guardrails.md")),
    expected: ["guardrails.md:1: missing guardrails.md"],
  },
  {
    when: "a file sits where no prompt belongs",
    breakIt: (d) => {
      mkdirSync(join(d, "theology"));
      writeFileSync(join(d, "theology/quaker.md"), "x");
    },
    expected: ["theology:1: unexpected entry"],
  },
];

describe("loadPrompts validation", () => {
  it("when the folder is valid, then it loads without problems", () => {
    const registry = loadPrompts(copyPromptFixture());
    expect(registry.theologies.map((t) => t.slug)).toEqual(["alpha", "beta"]);
  });

  for (const c of cases) {
    it(`when ${c.when}, then the error names file and line`, () => {
      const dir = copyPromptFixture();
      c.breakIt(dir);
      const message = promptProblems(dir);
      for (const expected of c.expected) expect(message).toContain(`${dir}/${expected}`);
    });
  }

  it("when a symlink points outside the folder, then it is reported and never read", () => {
    const dir = copyPromptFixture();
    const outside = join(dir, "..", "secret.md");
    writeFileSync(outside, readFileSync(join(dir, "theologies/beta.md"), "utf8").replace("beta", "secret"));
    symlinkSync(outside, join(dir, "theologies/secret.md"));
    expect(promptProblems(dir)).toContain(`${dir}/theologies/secret.md:1: symlink points outside the prompts directory`);
  });

  it("when a symlink stays inside the folder, then it loads like a file", () => {
    const dir = copyPromptFixture();
    symlinkSync(join(dir, "_partials/care.md"), join(dir, "_partials/care-link.md"));
    expect(loadPrompts(dir).partials.map((p) => p.slug).sort()).toEqual(["care", "care-link", "crisis-first", "preflight-conversation", "request-length"]);
  });

  it("when one file has both a front-matter error and placeholder errors, then all of them are listed", () => {
    const dir = copyPromptFixture();
    editPromptFile(dir, "theologies/beta.md", /^description: .*$/m, "description: Beta: a test tradition");
    editPromptFile(dir, "theologies/beta.md", "{{theology_name}}", "{{nope}} and {{max_words}}");
    const problems = promptProblems(dir)
      .split("\n")
      .filter((l) => l.includes("theologies/beta.md:"));
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/beta\.md:4: the value of "description" contains ": "/);
    expect(problems[1]).toMatch(/unknown placeholder \{\{nope\}\}/);
    expect(problems[2]).toMatch(/placeholder \{\{max_words\}\} is not available in theology files/);
  });

  it("when several files are broken, then every problem is listed, not only the first", () => {
    const dir = copyPromptFixture();
    editPromptFile(dir, "theologies/beta.md", "{{theology_name}}", "{{nope}}");
    editPromptFile(dir, "profiles/expert.md", "experience_level: 5", "experience_level: -1");
    unlinkSync(join(dir, "canned/content_filter.es.md"));
    try {
      loadPrompts(dir);
      expect.unreachable();
    } catch (err) {
      const problems = (err as PromptValidationError).problems;
      expect(problems).toHaveLength(3);
      expect((err as Error).message).toMatch(/^Prompt validation failed \(3 problems\):\n/);
    }
  });
});
