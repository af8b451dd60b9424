import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../fakes/index.js";
import { childProcesses } from "../helpers/processes.js";

/**
 * Stopping what you started stops everything: the launcher, the service and the embedded Chroma, for
 * each way the service is started (npm start as documented, the Dockerfile's CMD, Ctrl-C in a terminal)
 * and when the launcher dies without passing anything on.
 */
const ROOT = new URL("../../", import.meta.url).pathname;

let provider: FakeProvider;
const dirs: string[] = [];
const procs: number[] = [];
beforeAll(async () => {
  provider = await startFakeProvider();
  // What `npm start` does first; built here once so each start below only checks that dist/ is current.
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], { cwd: ROOT, stdio: "ignore" });
}, 120_000);
afterAll(async () => {
  for (const pid of procs) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await provider.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});


/** Running, not a zombie (a reparented child may wait a moment to be reaped). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function allStopped(pids: number[], withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  while (pids.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(running);
}

interface Started {
  launcher: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  service: number;
  chroma: number;
}

/** Runs `command` in the repository as a user would, waits until /readyz is 200, finds its processes. */
async function start(command: string[], options: { detached?: boolean } = {}): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), "bc-stop-"));
  dirs.push(dataDir);
  cpSync(inject("indexDataDir"), dataDir, { recursive: true });
  const launcher = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    detached: options.detached ?? false,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, OPENAI_BASE_URL: provider.baseURL, LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  procs.push(launcher.pid!);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    launcher.once("exit", (code, signal) => r({ code, signal })),
  );
  // Every line joins the suite's key-leak scan.
  const logFile = join(inject("captureDir"), `log-stop-${launcher.pid}.txt`);
  launcher.stderr!.on("data", (c: Buffer) => appendFileSync(logFile, c));
  const lines = createInterface({ input: launcher.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then(({ code }) => reject(new Error(`${command.join(" ")} exited early (${code})`)));
    lines.on("line", (line) => {
      appendFileSync(logFile, `${line}\n`);
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(line);
      if (m) resolve(m[1]!);
    });
  });
  const deadline = Date.now() + 60_000;
  // /readyz answers 200 as soon as chat can; its body says when search (and its Chroma) is up.
  while (!(await searchReady(url))) {
    if (Date.now() > deadline) throw new Error("never became ready");
    await new Promise((r) => setTimeout(r, 200));
  }
  // The launcher execs into the service (sh -> exec node) or runs it as its only child (npm).
  const service = command[0] === "npm" ? childProcesses(launcher.pid!).find((c) => c.args.includes("dist/src/main.js"))?.pid : launcher.pid;
  expect(service, "the service process").toBeGreaterThan(0);
  const chroma = childProcesses(service!).find((c) => c.args.includes("chromadb"))?.pid;
  expect(chroma, "the embedded Chroma process").toBeGreaterThan(0);
  procs.push(service!, chroma!);
  return { launcher, exited, service: service!, chroma: chroma! };
}

/** The Dockerfile's exec-form CMD, as the image runs it. */
function dockerCmd(): string[] {
  const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(readFileSync(join(ROOT, "Dockerfile"), "utf8"))?.[1];
  expect(cmd, "the Dockerfile has an exec-form CMD").toBeDefined();
  return JSON.parse(cmd!) as string[];
}

describe("when what was started is stopped", () => {
  it("then SIGTERM to the `npm start` process stops npm, the service and its embedded Chroma, exit 0", async () => {
    const s = await start(["npm", "start"]);
    expect(s.service).not.toBe(s.launcher.pid);
    s.launcher.kill("SIGTERM");
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(await allStopped([s.service, s.chroma], 10_000)).toEqual([]);
  }, 120_000);

  it("then Ctrl-C in a terminal (SIGINT to the whole process group of `npm start`) stops everything", async () => {
    const s = await start(["npm", "start"], { detached: true });
    process.kill(-s.launcher.pid!, "SIGINT");
    const { code, signal } = await s.exited;
    expect(code === 0 || code === 130 || signal === "SIGINT", `npm ended with ${code ?? signal}`).toBe(true);
    expect(await allStopped([s.service, s.chroma], 10_000)).toEqual([]);
  }, 120_000);

  it("then SIGTERM to the Dockerfile's CMD (what the container's init forwards) stops the service and Chroma, exit 0", async () => {
    const cmd = dockerCmd();
    expect(cmd[0]).not.toBe("npm"); // the image runs Node without npm in between (one process less)
    const s = await start(cmd);
    s.launcher.kill("SIGTERM");
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(await allStopped([s.chroma], 10_000)).toEqual([]);
  }, 120_000);

  it("then a launcher killed outright (SIGKILL to npm, nothing passed on) still leaves nothing running", async () => {
    const s = await start(["npm", "start"]);
    s.launcher.kill("SIGKILL");
    await s.exited;
    // The service notices it was re-parented (checked every second) and shuts down as on SIGTERM.
    expect(await allStopped([s.service, s.chroma], 15_000)).toEqual([]);
  }, 120_000);
});

async function searchReady(url: string): Promise<boolean> {
  const res = await fetch(`${url}/readyz`).catch(() => undefined);
  return res?.status === 200 && ((await res.json()) as { search?: { ready?: boolean } }).search?.ready === true;
}
