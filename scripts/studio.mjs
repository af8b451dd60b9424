/**
 * `npm run studio`: LangGraph Studio's local API for the chat graph (langgraphjs dev, langgraph.json)
 * on STUDIO_PORT (default 2024). Studio's UI is a hosted web page; the browser that opens it talks to
 * this local API directly, so nothing of the graph leaves the machine except what the browser shows.
 * A port already in use is reported at once with exit code 1 (langgraphjs would otherwise wait forever).
 * Extra arguments go to langgraphjs dev (`npm run studio -- --tunnel`). See docs/studio.md.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_PORT = 2024;

function portFromEnv() {
  const raw = process.env.STUDIO_PORT?.trim();
  if (!raw) return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    process.stderr.write(`npm run studio: STUDIO_PORT must be a port number from 1 to 65535, got "${raw}".\n`);
    process.exit(2);
  }
  return port;
}

/** Something accepts connections on host:port. */
function answers(host, port) {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(1000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
    socket.once("error", () => resolve(false));
  });
}

/** The port cannot be bound on host (in use, whoever holds it). */
function unbindable(host, port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (err) => resolve(err.code === "EADDRINUSE" || err.code === "EACCES" ? err.code : false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

const port = portFromEnv();
// langgraphjs binds "localhost", which may be 127.0.0.1 or ::1: a listener on either, or on all
// addresses, makes its start fail.
const taken = (await answers("127.0.0.1", port)) || (await answers("::1", port)) || (await unbindable("127.0.0.1", port));
if (taken) {
  const why = taken === "EACCES" ? "needs privileges this user does not have" : "is already in use (another Studio, or another service)";
  process.stderr.write(`npm run studio: port ${port} ${why}. Choose a free one, e.g. STUDIO_PORT=${port === DEFAULT_PORT ? 2025 : DEFAULT_PORT} npm run studio\n`);
  process.exit(1);
}

const cli = join(dirname(createRequire(import.meta.url).resolve("@langchain/langgraph-cli/package.json")), "dist/cli/cli.mjs");
// Its own process group, so a signal to us reaches the watcher and API worker the CLI starts.
const child = spawn(process.execPath, [cli, "dev", "--no-browser", "--port", String(port), ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: "inherit",
  detached: true,
});
process.stderr.write(
  `npm run studio: LangGraph's local API on http://localhost:${port}; open ` +
    `https://smith.langchain.com/studio/?baseUrl=http://localhost:${port} (a hosted page: your browser talks to this local API)\n`,
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  });
}
child.once("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
