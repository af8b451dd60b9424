import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseFrontMatter, splitFrontMatter, type FrontMatter } from "./front-matter.js";
import { ALLOWED_PLACEHOLDERS, PER_REQUEST_PLACEHOLDERS, PLACEHOLDERS, isPlaceholderName, scanTags, type PlaceholderName, type Tag } from "./placeholders.js";
import { displayPath, readPromptDir, type RawFile } from "./read-dir.js";
import { buildRegistry, type PromptRegistry } from "./registry.js";
import { CANNED_KINDS, CRISIS_LANGUAGES, LANGUAGES, PromptValidationError, SERVICE_PARTIALS, cannedLanguages, type CannedKind, type PromptDoc, type PromptKind, type PromptProblem } from "./types.js";

export { PromptValidationError } from "./types.js";
export type { PromptDoc, PromptProblem, CannedKind, Language, ServicePartial } from "./types.js";
export type { PromptRegistry, PromptVersion } from "./registry.js";
export { listTheologies, listProfiles } from "./registry.js";
export { render, PLACEHOLDERS, type PromptVars, type PlaceholderName } from "./placeholders.js";

/** The repository's prompts/ folder, independent of the working directory. */
export const DEFAULT_PROMPTS_DIR = fileURLToPath(new URL("../../prompts/", import.meta.url));

/** The author's note opening every body; it is for people, so it never reaches the model. */
const CONTROLS_LINE = /^>\s*Controls:\s*\S/i;

/**
 * Author comments: `<!-- ... -->` anywhere in a body (one line or several). They are for reviewers (for
 * example the standard text a claim was checked against), so the loader removes them like the Controls line.
 */
const COMMENT = /<!--[\s\S]*?-->/g;

/** The body with comments blanked out (newlines kept, so problems still point at the right line). */
function blankComments(body: string): string {
  return body.replace(COMMENT, (m) => "\n".repeat((m.match(/\n/g) ?? []).length));
}

/** Offset of a `<!--` with no `-->` before the next `<!--` (or the end), else -1. */
function unclosedComment(body: string): number {
  let at = body.indexOf("<!--");
  while (at >= 0) {
    const close = body.indexOf("-->", at + 4);
    const next = body.indexOf("<!--", at + 4);
    if (close < 0 || (next >= 0 && next < close)) return at;
    at = body.indexOf("<!--", close + 3);
  }
  return -1;
}

/** The text the model receives: comments gone, and no run of blank lines left where they stood. */
function withoutComments(body: string): string {
  return blankComments(body)
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Front-matter key lines per document, so cross-file problems can point at the right line. */
const docKeyLines = new WeakMap<PromptDoc, Map<string, number>>();

interface ParsedFile {
  raw: RawFile;
  /** Absent when the front matter has problems (already reported); the body is still checked. */
  fm?: FrontMatter;
  keyLines: Map<string, number>;
  body: string;
  bodyLine: number;
  tags: Tag[];
}

/**
 * Reads and validates every prompt file under dir. Throws PromptValidationError listing every
 * problem found (not only the first), each as `path:line: message`.
 */
export function loadPrompts(dir: string = DEFAULT_PROMPTS_DIR): PromptRegistry {
  const { root, files, problems } = readPromptDir(dir);
  const parsed = files.map((f) => parseFile(f, problems)).filter((f): f is ParsedFile => f !== undefined);
  const partials = new Map(parsed.filter((f) => f.raw.kind === "partial").map((f) => [f.raw.stem, f]));
  const docs: PromptDoc[] = [];
  for (const file of parsed) {
    const doc = toDoc(file, partials, problems);
    if (doc) docs.push(doc);
  }
  checkCollection(root, docs, problems);
  if (problems.length > 0) {
    problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
    throw new PromptValidationError(problems);
  }
  return buildRegistry(dir, docs);
}

function parseFile(raw: RawFile, problems: PromptProblem[]): ParsedFile | undefined {
  const { path, kind, stem } = raw;
  const text = raw.text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const split = splitFrontMatter(text);
  if (typeof split === "string") {
    problems.push({ path, line: 1, message: split });
    return undefined;
  }
  const { data, keyLines, problems: fmProblems } = parseFrontMatter(split, kind, path);
  problems.push(...fmProblems);

  if ((kind === "theology" || kind === "profile") && data?.slug !== undefined && data.slug !== stem) {
    problems.push({ path, line: keyLines.get("slug") ?? 1, message: `slug "${data.slug}" does not match the file name "${stem}.md"` });
  }
  if (kind === "canned") {
    const [cannedKind, lang, extra] = stem.split(".");
    if (!CANNED_KINDS.includes(cannedKind as never) || !cannedLanguages(cannedKind as CannedKind).includes(lang ?? "") || extra !== undefined) {
      problems.push({
        path,
        line: 1,
        message: `canned reply files are named <kind>.<lang>.md with kind one of ${CANNED_KINDS.join(", ")} and lang one of ${LANGUAGES.join(", ")} (crisis also ${CRISIS_LANGUAGES.filter((l) => !(LANGUAGES as readonly string[]).includes(l)).join(", ")})`,
      });
    }
  }
  if (kind === "partial" && !/^[a-z][a-z0-9_-]*$/.test(stem)) {
    problems.push({ path, line: 1, message: "partial names are lower-case letters, digits, - and _ (they are included as {{> name}})" });
  }

  const lines = split.body.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
  if (i >= lines.length || !CONTROLS_LINE.test(lines[i] ?? "")) {
    problems.push({
      path,
      line: split.bodyLine + Math.min(i, lines.length - 1),
      message: 'body must open with a "> Controls: ..." line telling authors what this file controls',
    });
    return undefined;
  }
  const controlsLine = split.bodyLine + i;
  i++;
  while (i < lines.length && (lines[i] ?? "").trim() === "") i++;
  const body = lines.slice(i).join("\n").trimEnd();
  const bodyLine = split.bodyLine + i;
  if (body.trim() === "") {
    problems.push({ path, line: controlsLine, message: "body is empty: write the text the model should receive below the Controls line" });
    return undefined;
  }
  const open = unclosedComment(body);
  if (open >= 0) {
    problems.push({ path, line: bodyLine + (body.slice(0, open).match(/\n/g) ?? []).length, message: 'comment "<!--" is never closed with "-->"' });
    return undefined;
  }
  if (withoutComments(body) === "") {
    problems.push({ path, line: controlsLine, message: "body is empty: write the text the model should receive below the Controls line" });
    return undefined;
  }
  // A front-matter problem does not stop the body's checks: prompts:check prints every problem at once.
  return { raw, ...(data ? { fm: data } : {}), keyLines, body, bodyLine, tags: scanTags(blankComments(body), bodyLine) };
}

/** Why a name cannot be used in a kind of file, with the way out for the per-request values. */
function notAvailable(what: string, name: PlaceholderName, kind: PromptKind, allowed: readonly PlaceholderName[]): string {
  if (PER_REQUEST_PLACEHOLDERS.includes(name) && (kind === "guardrails" || kind === "theology" || kind === "profile")) {
    return (
      `${what} is not available in ${kind} files: it changes from request to request, and the guardrails, theology and ` +
      `profile must stay identical across requests so providers can cache them. Refer to "the word limit" instead; ` +
      `the service states the request's values after them (_partials/request-length.md)`
    );
  }
  return `${what} is not available in ${kind} files (allowed: ${allowed.join(", ") || "none"})`;
}

function toDoc(file: ParsedFile, partials: Map<string, ParsedFile>, problems: PromptProblem[]): PromptDoc | undefined {
  const { raw, fm } = file;
  const allowed = ALLOWED_PLACEHOLDERS[raw.kind];
  const hash = createHash("sha256").update(raw.text);
  const included = new Set<string>();
  let ok = true;
  const report = (line: number, message: string) => {
    problems.push({ path: raw.path, line, message });
    ok = false;
  };

  for (const tag of file.tags) {
    if (tag.type === "malformed") {
      report(tag.line, `malformed placeholder ${tag.raw}: write {{name}} with a known name, or {{> partial}}`);
    } else if (tag.type === "var") {
      if (!isPlaceholderName(tag.name)) report(tag.line, `unknown placeholder {{${tag.name}}} (known: ${Object.keys(PLACEHOLDERS).join(", ")})`);
      else if (!allowed.includes(tag.name)) report(tag.line, notAvailable(`placeholder {{${tag.name}}}`, tag.name, raw.kind, allowed));
    } else if (raw.kind === "partial") {
      report(tag.line, "a partial cannot include another partial");
    } else {
      const partial = partials.get(tag.name);
      if (!partial) {
        report(tag.line, `unknown partial {{> ${tag.name}}} (no file _partials/${tag.name}.md)`);
        continue;
      }
      for (const inner of partial.tags) {
        if (inner.type === "var" && isPlaceholderName(inner.name) && !allowed.includes(inner.name)) {
          report(tag.line, notAvailable(`partial "${tag.name}" uses {{${inner.name}}}, which`, inner.name, raw.kind, allowed));
        }
      }
      if (!included.has(tag.name)) {
        included.add(tag.name);
        hash.update("\0").update(partial.raw.text);
      }
    }
  }
  if (!ok || !fm) return undefined;

  const body = withoutComments(file.body).replace(/\{\{\s*>\s*([a-z][a-z0-9_-]*)\s*\}\}/g, (_, name: string) => withoutComments(partials.get(name)?.body ?? ""));
  const slug = fm.slug ?? raw.stem;
  const doc: PromptDoc = {
    kind: raw.kind,
    slug,
    name: fm.name ?? slug,
    description: fm.description ?? "",
    version: fm.version ?? "",
    hash: hash.digest("hex").slice(0, 12),
    isDefault: fm.is_default ?? false,
    ...(fm.experience_level !== undefined ? { experienceLevel: fm.experience_level } : {}),
    ...(fm.order !== undefined ? { order: fm.order } : {}),
    ...(fm.commentaries !== undefined ? { commentaries: { prefer: fm.commentaries.prefer ?? [], avoid: fm.commentaries.avoid ?? [] } } : {}),
    ...(raw.kind === "theology" ? { canon: fm.canon ?? "protestant" } : {}),
    ...(fm.name_es !== undefined || fm.description_es !== undefined
      ? { localized: { es: { name: fm.name_es ?? fm.name ?? slug, description: fm.description_es ?? fm.description ?? "" } } }
      : {}),
    body,
    path: raw.path,
  };
  docKeyLines.set(doc, file.keyLines);
  return doc;
}

/** Rules that span files: one default each, unique slugs, every canned reply in every language. */
function checkCollection(root: string, docs: PromptDoc[], problems: PromptProblem[]): void {
  const at = (rel: string) => displayPath(join(root, rel));
  for (const kind of ["theology", "profile"] as const) {
    const ofKind = docs.filter((d) => d.kind === kind);
    const seen = new Map<string, PromptDoc>();
    for (const d of ofKind) {
      const first = seen.get(d.slug);
      if (first) problems.push({ path: d.path, line: docKeyLines.get(d)?.get("slug") ?? 1, message: `duplicate ${kind} slug "${d.slug}" (also in ${first.path})` });
      else seen.set(d.slug, d);
    }
    const defaults = ofKind.filter((d) => d.isDefault);
    const dir = kind === "theology" ? "theologies" : "profiles";
    // A file that failed to parse may be the missing default; its own problem says enough.
    const dirHasProblems = problems.some((p) => p.path.includes(`${dir}/`));
    if (ofKind.length === 0 && !dirHasProblems) {
      problems.push({ path: at(dir), line: 1, message: `no ${kind} files: add at least one ${dir}/<slug>.md` });
    } else if (defaults.length === 0 && ofKind.length > 0 && !dirHasProblems) {
      problems.push({ path: at(dir), line: 1, message: `no default ${kind}: set is_default: true in exactly one ${dir}/ file` });
    }
    for (const extra of defaults.slice(1)) {
      problems.push({ path: extra.path, line: docKeyLines.get(extra)?.get("is_default") ?? 1, message: `second default ${kind}: ${defaults[0]!.path} is already is_default: true` });
    }
  }
  const partials = new Set(docs.filter((d) => d.kind === "partial").map((d) => d.slug));
  for (const name of SERVICE_PARTIALS) {
    if (!partials.has(name) && !problems.some((p) => p.path.endsWith(`_partials/${name}.md`))) {
      problems.push({ path: at(`_partials/${name}.md`), line: 1, message: `missing partial ${name}: the service adds it to a prompt itself` });
    }
  }
  const canned = new Set(docs.filter((d) => d.kind === "canned").map((d) => d.slug));
  for (const kind of CANNED_KINDS) {
    for (const lang of cannedLanguages(kind)) {
      if (!canned.has(`${kind}.${lang}`) && !problems.some((p) => p.path.endsWith(`canned/${kind}.${lang}.md`))) {
        problems.push({ path: at(`canned/${kind}.${lang}.md`), line: 1, message: `missing canned reply ${kind} in language ${lang}` });
      }
    }
  }
}
