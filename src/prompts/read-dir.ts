import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { join, relative, sep, isAbsolute } from "node:path";
import type { PromptKind, PromptProblem } from "./types.js";
import { wordTable } from "../word-table.js";

/** Large enough for the longest prompt we ship (the classifier, ~8 KB) with room; a bigger file is usually a paste accident. */
export const MAX_FILE_BYTES = 20_000;

export interface RawFile {
  kind: PromptKind;
  /** Name from the file name: the slug, partial name, or "<kind>.<lang>" for canned replies. */
  stem: string;
  path: string;
  text: string;
}

const SUBDIRS: Readonly<Record<string, PromptKind>> = wordTable({
  theologies: "theology",
  profiles: "profile",
  canned: "canned",
  _partials: "partial",
});
const TOP_FILES: Readonly<Record<string, PromptKind>> = wordTable({ "guardrails.md": "guardrails", "preflight.md": "preflight" });
const IGNORED = new Set(["README.md"]);

/** Shown paths are relative to the working directory when possible, so `file:line` is clickable in a terminal. */
export function displayPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
}

/**
 * Reads every prompt file under root. Nothing outside root is ever read: symlinks that resolve
 * elsewhere are reported instead of followed, and names come only from directory listings.
 */
export function readPromptDir(dir: string): { root: string; files: RawFile[]; problems: PromptProblem[] } {
  const problems: PromptProblem[] = [];
  const files: RawFile[] = [];
  let root: string;
  try {
    root = realpathSync(dir);
    if (!statSync(root).isDirectory()) throw new Error("not a directory");
  } catch {
    return { root: dir, files, problems: [{ path: displayPath(dir), line: 1, message: "prompts directory not found" }] };
  }

  const read = (abs: string, kind: PromptKind, stem: string) => {
    const path = displayPath(abs);
    const text = readContained(root, abs, path, problems);
    if (text !== undefined) files.push({ kind, stem, path, text });
  };

  for (const entry of readdirSync(root, { withFileTypes: true }).sort(byName)) {
    if (entry.name.startsWith(".") || IGNORED.has(entry.name)) continue;
    const abs = join(root, entry.name);
    const topKind = TOP_FILES[entry.name];
    const subKind = SUBDIRS[entry.name];
    if (topKind) {
      read(abs, topKind, entry.name.slice(0, -3));
    } else if (subKind && entry.isDirectory()) {
      for (const child of readdirSync(abs, { withFileTypes: true }).sort(byName)) {
        if (child.name.startsWith(".")) continue;
        const childAbs = join(abs, child.name);
        if (!child.name.endsWith(".md") || child.isDirectory()) {
          problems.push({ path: displayPath(childAbs), line: 1, message: `unexpected entry in ${entry.name}/: only .md files belong here` });
          continue;
        }
        read(childAbs, subKind, child.name.slice(0, -3));
      }
    } else {
      problems.push({
        path: displayPath(abs),
        line: 1,
        message: "unexpected entry: prompt files are guardrails.md, preflight.md, theologies/, profiles/, canned/ and _partials/",
      });
    }
  }
  for (const [name, kind] of Object.entries(TOP_FILES)) {
    if (!files.some((f) => f.kind === kind)) problems.push({ path: displayPath(join(root, name)), line: 1, message: `missing ${name}` });
  }
  return { root, files, problems };
}

function readContained(root: string, abs: string, path: string, problems: PromptProblem[]): string | undefined {
  let target = abs;
  if (lstatSync(abs).isSymbolicLink()) {
    try {
      target = realpathSync(abs);
    } catch {
      problems.push({ path, line: 1, message: "symlink points to nothing" });
      return undefined;
    }
    if (!target.startsWith(root + sep)) {
      problems.push({ path, line: 1, message: "symlink points outside the prompts directory; it was not read" });
      return undefined;
    }
  }
  const stat = statSync(target);
  if (!stat.isFile()) {
    problems.push({ path, line: 1, message: "not a regular file" });
    return undefined;
  }
  if (stat.size > MAX_FILE_BYTES) {
    problems.push({ path, line: 1, message: `file is ${stat.size} bytes; the limit is ${MAX_FILE_BYTES} (split it or move shared text to a partial)` });
    return undefined;
  }
  return readFileSync(target, "utf8");
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
