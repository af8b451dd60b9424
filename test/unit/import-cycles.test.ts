import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The project's own import graph has no circles: a module that needs a piece of another that needs it
 * back gets that piece moved down into a module both import. Type-only imports count (madge counts them
 * too): a type shared both ways is still a piece in the wrong place.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const FOLDERS = ["src", "graphs", "ingest", "evals", "bench", "scripts", "test"];
const SOURCE = /\.(?:ts|mts|mjs|js)$/;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The file a relative specifier names: "./x.js" is x.ts in the sources. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(?:js|mjs|ts)$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.mjs`, `${stem}.js`, join(base, "index.ts")];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the import graph", () => {
  it("when a circle is built on purpose, then the check finds it (and only it)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
      ["e", ["e"]],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c"], ["e"]]);
  });

  it("when every module of the project is read, then no two modules import each other, directly or round about", () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    const graph = importGraph(files);
    expect(graph.size).toBeGreaterThan(300);
    // The two circles the issue named are edges the walk must see.
    expect(graph.get(join(ROOT, "graphs/chat/contract.ts"))).toContain(join(ROOT, "graphs/chat/providers.ts"));
    expect(graph.get(join(ROOT, "ingest/study-commentary.ts"))?.length).toBeGreaterThan(0);
    const named = circles(graph).map((component) => component.map((file) => relative(ROOT, file)));
    expect(named).toEqual([]);
  });
});
