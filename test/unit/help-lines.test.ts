import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * Issue 28: every number in the help lines carries its source. The Controls line of
 * prompts/_partials/help-lines.md names, for each number, the page that shows it; a number in the
 * list that the sources do not name was written from memory.
 */
const file = readFileSync(new URL("../../prompts/_partials/help-lines.md", import.meta.url), "utf8");
const [controls = "", ...rest] = file.replace(/^---[\s\S]*?---\n+/, "").split(/\n(?=- )/);
const list = rest.join("\n");
const digits = (s: string) => s.replace(/\D/g, "");
/** Phone numbers and short codes as written: digit groups joined by single spaces or hyphens. */
const numbers = (s: string) => [...s.matchAll(/\d+(?:[ -]\d+)*/g)].map((m) => m[0]).filter((n) => digits(n).length >= 3);

describe("help lines from sources", () => {
  it("the list has lines for every language we detect", () => {
    for (const lang of ["English", "Español", "Português", "Français", "Deutsch"]) expect(list).toContain(`- ${lang}`);
  });

  it.each(numbers(list))("when the list gives %j, then the sources name the page that shows it", (n) => {
    expect(digits(controls).length).toBeGreaterThan(0);
    const known = numbers(controls).map(digits);
    expect(known, `${n} has no source`).toContain(digits(n));
  });

  const canned = new URL("../../prompts/canned/", import.meta.url);
  const crisisNumbers = readdirSync(canned)
    .filter((f) => f.startsWith("crisis."))
    .flatMap((f) => numbers(readFileSync(new URL(f, canned), "utf8").replace(/^---[\s\S]*?---\n+> Controls:.*\n/, "")).map((n) => [f, n] as const));
  it.each(crisisNumbers)("when the crisis reply %s gives %j first, then it is a number the sourced list has", (_file, n) => {
    expect(numbers(list).map(digits)).toContain(digits(n));
  });
});
