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

/**
 * The CLI's API server warns at every start that @langchain/langgraph-checkpoint 1.2.x is "not up to
 * date": @langchain/langgraph-api 2.0.0 (the newest) declares the range ~1.0.0 for it, while
 * @langchain/langgraph 1.7 requires ^1.2.2, so no install can satisfy both and a user can do nothing
 * about it (docs/studio.md). That one warning, naming that package alone, is left out; any other
 * out-of-date package is still reported. Everything else passes through unchanged.
 */
const ANSI = /\x1b\[[0-9;]*m/g;
const OUTDATED = /Some LangGraph\.js dependencies are not up to date/;
const ONLY_CHECKPOINT = /^\W*warn\W+\S*\s*\[\d+\]\s*\{\s*'@langchain\/langgraph-checkpoint': \{ version: '1\.\d+\.\d+', required: '[^']*' \}\s*\}\s*$/;

function withoutCheckpointWarning(from, to) {
  let partial = "";
  let held;
  let flush;
  const emit = (line) => to.write(line);
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    clearTimeout(flush);
    const lines = (partial + chunk).split(/(?<=\n)/);
    partial = lines.at(-1).endsWith("\n") ? "" : lines.pop();
    for (const line of lines) {
      const plain = line.replace(ANSI, "");
      if (held !== undefined) {
        if (!ONLY_CHECKPOINT.test(plain.trimEnd())) emit(held + line);
        held = undefined;
      } else if (OUTDATED.test(plain)) held = line;
      else emit(line);
    }
    // A line still without its newline (a prompt, a spinner) is shown after a moment rather than held back.
    if (partial) flush = setTimeout(() => (emit(partial), (partial = "")), 100);
  });
  from.on("end", () => {
    clearTimeout(flush);
    emit((held ?? "") + partial);
  });
}

const cli = join(dirname(createRequire(import.meta.url).resolve("@langchain/langgraph-cli/package.json")), "dist/cli/cli.mjs");
// Its own process group, so a signal to us reaches the watcher and API worker the CLI starts. Its output
// comes through withoutCheckpointWarning, in colour when ours is a terminal.
const color = process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {};
const child = spawn(process.execPath, [cli, "dev", "--no-browser", "--port", String(port), ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: ["inherit", "pipe", "pipe"],
  detached: true,
  env: { ...process.env, ...color },
});
withoutCheckpointWarning(child.stdout, process.stdout);
withoutCheckpointWarning(child.stderr, process.stderr);
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
