import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeDirs } from "../../src/make-dirs.js";

const dir = mkdtempSync(join(tmpdir(), "bc-make-dirs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const moduleUrl = new URL("../../src/make-dirs.ts", import.meta.url).href;

describe("makeDirs creates a data directory or says why it cannot", () => {
  it("when levels are missing, then each is created; an existing directory is left as it is", () => {
    const deep = join(dir, "a", "b", "c");
    makeDirs(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    writeFileSync(join(deep, "keep"), "x");
    makeDirs(deep);
    makeDirs(join(dir, "a"));
    expect(existsSync(join(deep, "keep"))).toBe(true);
  });

  it("when a file stands where a directory must be, then the error names it", () => {
    writeFileSync(join(dir, "file"), "x");
    expect(() => makeDirs(join(dir, "file", "sub"))).toThrow(/file is not a directory/);
  });

  // Node's mkdirSync(..., { recursive: true }) spins for ever here (ENOENT with the parent present), and
  // a spin would block this worker too: the call runs in a child process with a time limit.
  it("when the file system refuses a level with ENOENT although its parent exists (/proc), then it throws at once instead of spinning", () => {
    const script = `import(${JSON.stringify(moduleUrl)}).then((m) => { try { m.makeDirs("/proc/biblical-chat-test/data"); console.log("created"); } catch (e) { console.log("threw " + e.code + ": " + e.message); } });`;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("../..", import.meta.url)),
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.signal).toBeNull();
    expect(run.stdout).toMatch(/^threw \w+: cannot create the directory \/proc\/biblical-chat-test\/data: mkdir \/proc\/biblical-chat-test failed/);
  });
});
