/**
 * A copy of the minimal prompt folder (test/fixtures/prompts/minimal) that a test may break, and what
 * the loader says of it. Call removePromptFixtures in afterEach.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { loadPrompts, PromptValidationError } from "../../src/prompts/loader.js";

const FIXTURE = join(import.meta.dirname, "../fixtures/prompts/minimal");
const temps: string[] = [];

export function copyPromptFixture(): string {
  const base = mkdtempSync(join(tmpdir(), "prompts-"));
  temps.push(base);
  const dir = join(base, "prompts");
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

export function removePromptFixtures(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Replaces `from` by `to` in one file of the copy; a `from` that is not there is a broken test. */
export function editPromptFile(dir: string, rel: string, from: string | RegExp, to: string): void {
  const file = join(dir, rel);
  const text = readFileSync(file, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`test setup: ${String(from)} not found in ${rel}`);
  writeFileSync(file, next);
}

/** The loader's validation message for the folder (the test fails when it loads). */
export function promptProblems(dir: string): string {
  try {
    loadPrompts(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(PromptValidationError);
    return (err as Error).message;
  }
  throw new Error("expected loadPrompts to throw");
}
