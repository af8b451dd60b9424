import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { childProcesses, sessionPids } from "../helpers/processes.js";

/** `npm run studio` (scripts/studio.mjs): the port comes from STUDIO_PORT; a taken port fails at once. */
const ROOT = new URL("../../", import.meta.url).pathname;

async function listening(host: string): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, host, r));
  return { server, port: (server.address() as { port: number }).port };
}

function runStudio(env: Record<string, string>) {
  const child = spawn("npm", ["run", "studio"], { cwd: ROOT, env: { ...process.env, BROWSER: "none", LANGSMITH_TRACING: "false", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, exited, output: () => output };
}

const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

describe("npm run studio", () => {
  it("when STUDIO_PORT is already taken, then it says so and exits 1 instead of waiting", async () => {
    const { server, port } = await listening("127.0.0.1");
    try {
      const run = runStudio({ STUDIO_PORT: String(port) });
      started.push(run.child.pid!);
      const t0 = Date.now();
      const [code] = await run.exited;
      expect(code).toBe(1);
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(run.output()).toContain(`port ${port} is already in use`);
      expect(run.output()).toContain("STUDIO_PORT=");
    } finally {
      server.close();
    }
  }, 30_000);

  it("when STUDIO_PORT is not a port number, then it names the variable and exits 2", async () => {
    const run = runStudio({ STUDIO_PORT: "twenty" });
    const [code] = await run.exited;
    expect(code).toBe(2);
    expect(run.output()).toContain('STUDIO_PORT must be a port number from 1 to 65535, got "twenty"');
  }, 30_000);

  it("when STUDIO_PORT is free, then LangGraph's local API answers there, and SIGTERM to npm stops all it started", async () => {
    const { server, port } = await listening("127.0.0.1");
    await new Promise<void>((r) => server.close(() => r()));
    const run = runStudio({ STUDIO_PORT: String(port) });
    started.push(run.child.pid!);
    const deadline = Date.now() + 90_000;
    while (!(await fetch(`http://localhost:${port}/ok`).then((r) => r.ok, () => false))) {
      expect(run.child.exitCode, run.output()).toBeNull();
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(run.output()).toContain(`https://smith.langchain.com/studio/?baseUrl=http://localhost:${port}`);
    // The CLI's own lines come through unfiltered, and it warns of no dependency out of date (issue 32).
    expect(run.output()).toContain("Registering graph with id");
    expect(run.output()).not.toMatch(/not up to date|langgraph-checkpoint/);
    // Every process that the launcher's CLI started lives in the CLI's process group.
    const launcher = childProcesses(run.child.pid!)[0]?.pid ?? 0;
    const group = childProcesses(launcher)[0]?.pid ?? 0;
    run.child.kill("SIGTERM");
    await run.exited;
    const left = () => sessionPids(group).join(" ");
    const until = Date.now() + 10_000;
    while (left() && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(left()).toBe("");
    expect(await fetch(`http://localhost:${port}/ok`).then(() => "answers", () => "closed")).toBe("closed");
  }, 120_000);
});
