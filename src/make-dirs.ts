import { mkdirSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Creates `path` and any missing parents, like `mkdir -p`, in at most one step per missing level.
 *
 * Node's own `mkdirSync(path, { recursive: true })` never returns when the file system answers ENOENT
 * for a directory whose parent exists (any path under /proc does): it retries the same `mkdir` for
 * ever and blocks the event loop. Here each missing level is created once, from the top down, and the
 * first refusal is thrown with the path and the system's code, so a DATA_DIR the service cannot use
 * reads as a clear error rather than a stalled process.
 */
export function makeDirs(path: string): void {
  const target = resolve(path);
  const missing: string[] = [];
  for (let dir = target; ; ) {
    let isDir: boolean | undefined;
    try {
      isDir = statSync(dir).isDirectory();
    } catch (err) {
      const code = codeOf(err);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw err; // ENOTDIR: a file further up, named below
    }
    if (isDir === false) {
      throw Object.assign(new Error(`cannot create the directory ${target}: ${dir} is not a directory`), { code: "ENOTDIR", path: dir });
    }
    if (isDir) break;
    missing.push(dir);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    const dir = missing[i]!;
    try {
      mkdirSync(dir);
    } catch (err) {
      const code = codeOf(err);
      if (code === "EEXIST" && statSync(dir).isDirectory()) continue; // made meanwhile by another process
      throw Object.assign(new Error(`cannot create the directory ${target}: mkdir ${dir} failed with ${code ?? String(err)}`), { code, path: dir });
    }
  }
}
