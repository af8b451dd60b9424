#!/usr/bin/env node
// The package's command (package.json "bin"): `npx biblical-chat mcp` starts the MCP server on stdio.
// It runs the TypeScript sources through tsx, as the npm scripts do (`node --import tsx ...`), in this
// process, so stdin, stdout and signals are the client's own with nothing in between. Like
// scripts/start.sh it works from the repository, so DATA_DIR's default (./.data) is the service's own
// whatever directory the assistant launches it from.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

const commands = { mcp: "../src/mcp/stdio.ts" };
const command = process.argv[2];
if (!Object.hasOwn(commands, command ?? "")) {
  process.stderr.write(`usage: biblical-chat mcp    (the MCP server on stdio; see docs/mcp.md)\n`);
  process.exit(2);
}
process.chdir(fileURLToPath(new URL("..", import.meta.url)));
register();
await import(new URL(commands[command], import.meta.url).href);
