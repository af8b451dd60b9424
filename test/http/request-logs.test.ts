import { execFileSync } from "node:child_process";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger, resolveLogFormat } from "../../src/logger.js";
import { startService, type RunningService } from "../helpers/service.js";

const KEY = "sk-test-request-logs-5c1d";

function sink() {
  const lines: string[] = [];
  return { lines, stream: new Writable({ write: (c, _e, cb) => (lines.push(...String(c).split("\n").filter(Boolean)), cb()) }) };
}

describe("log format", () => {
  it.each([
    ["auto", true, "pretty"],
    ["auto", false, "json"],
    ["json", true, "json"],
    ["pretty", false, "pretty"],
  ] as const)("when LOG_FORMAT is %s and stdout is a terminal: %s, then lines are %s", (format, tty, expected) => {
    expect(resolveLogFormat(format, tty)).toBe(expected);
  });

  it("when pretty, then an access line reads as text with its error code, and other fields stay", () => {
    const { lines, stream } = sink();
    const log = createLogger("info", stream, "pretty");
    log.child({ requestId: "r-1" }).info({ method: "GET", path: "/nope", status: 404, code: "not_found", ms: 1.5, aborted: false }, "request");
    log.info({ ms: 812, component: "search" }, "search index ready");
    expect(lines[0]).toMatch(/INFO: GET \/nope 404 not_found 1\.5 ms \{"requestId":"r-1"\}$/);
    expect(lines[1]).toMatch(/INFO: search index ready \{"ms":812,"component":"search"\}$/);
  });

  it("when json, then every line is one JSON object with the access fields as fields", () => {
    const { lines, stream } = sink();
    createLogger("info", stream, "json").info({ method: "GET", path: "/x", status: 200, ms: 1, aborted: false }, "request");
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, msg: "request", method: "GET", path: "/x", status: 200 });
  });

  it("when the service's logger writes to a real terminal (auto), then the lines are pretty, not JSON", () => {
    const program = 'import { createLogger } from "./src/logger.ts"; createLogger("info", undefined, "auto").info("hello terminal");';
    // `script` gives the child a pseudo-terminal as stdout, as a person's shell would.
    const out = execFileSync("script", ["-qec", `${process.execPath} --import tsx --input-type=module -e '${program}'`, "/dev/null"]).toString();
    expect(out).toContain("INFO");
    expect(out).toContain("hello terminal");
    expect(out).not.toContain('"msg"');
  });
});

describe("when requests are logged by the service", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ logLevel: "debug" });
  });
  afterAll(async () => svc?.close());

  const accessLines = () =>
    svc.logs
      .flatMap((chunk) => chunk.split("\n").filter(Boolean))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "request");

  it("then /healthz and /readyz polls are at debug and other requests at info", async () => {
    svc.logs.length = 0;
    await fetch(`${svc.url}/healthz`);
    await fetch(`${svc.url}/readyz`);
    await fetch(`${svc.url}/v1/profiles`);
    const lines = accessLines();
    expect(lines.filter((l) => l.path === "/healthz" || l.path === "/readyz").map((l) => l.level)).toEqual([20, 20]);
    expect(lines.find((l) => l.path === "/v1/profiles")?.level).toBe(30);
  });

  it("then every 4xx line carries the error code it returned, and a 2xx line none", async () => {
    svc.logs.length = 0;
    const cases: [string, RequestInit, number, string][] = [
      ["/nope", {}, 404, "not_found"],
      ["/v1/models", { method: "PUT" }, 405, "method_not_allowed"],
      ["/v1/scripture/search", {}, 400, "invalid_request"],
      ["/v1/scripture/search?q=love&testament=middle", {}, 400, "invalid_parameter"],
      ["/v1/chat/completions", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }, 401, "missing_api_key"],
      ["/v1/chat/completions", { method: "POST", body: "{", headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` } }, 400, "invalid_request"],
    ];
    for (const [path, init, status] of cases) expect((await fetch(`${svc.url}${path}`, init)).status).toBe(status);
    await fetch(`${svc.url}/v1/theologies`);
    const lines = accessLines();
    expect(lines.map((l) => [l.status, l.code])).toEqual([...cases.map(([, , status, code]) => [status, code]), [200, undefined]]);
    expect(svc.logs.join("")).not.toContain(KEY);
  });
});
