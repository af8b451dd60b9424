import http from "node:http";
import https from "node:https";
import { ChromaClient, ChromaConnectionError, ChromaNotFoundError, ChromaServerError } from "chromadb";
import { poolOutsideRequests } from "../http/pooled-sockets.js";

/**
 * A Chroma client plus what we know of the server's health. A failed call marks it down; a heartbeat
 * probe runs every second, marks it down after two misses and up again on success, so readiness
 * follows the server and search recovers by itself when an embedded server is restarted or an
 * external one comes back.
 */
export interface ChromaConnection {
  readonly url: string;
  readonly client: ChromaClient;
  healthy(): boolean;
  /** Called by users when a call failed in a way that suggests the server is gone. */
  markDown(reason: string): void;
  /** Called by users when a call succeeded: the server answers, whatever the last probe said. */
  markUp(): void;
  onChange(listener: (healthy: boolean) => void): void;
  /**
   * POSTs a JSON body to a Chroma API path over kept-alive connections and returns the parsed answer:
   * the search's one call per request (its nearest-neighbour query), sent without the chromadb client's
   * fetch, which costs about 1 ms of CPU and latency per query here (docs/search.md, "Speed"). Errors
   * as the client's: ChromaNotFoundError for 404, ChromaServerError for another status,
   * ChromaConnectionError when Chroma cannot be reached.
   */
  postJson(path: string, body: string): Promise<unknown>;
  close(): void;
}

export function connectChroma(url: string, options: { probeMs?: number } = {}): ChromaConnection {
  const parsed = new URL(url);
  const client = new ChromaClient({
    host: parsed.hostname,
    port: Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80)),
    ssl: parsed.protocol === "https:",
  });
  const transport = parsed.protocol === "https:" ? https : http;
  const agent = poolOutsideRequests(new transport.Agent({ keepAlive: true }));
  const base = url.replace(/\/+$/, "");
  const postJson = (path: string, body: string) =>
    new Promise<unknown>((resolve, reject) => {
      const req = transport.request(`${base}${path}`, { method: "POST", agent, headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (err) => reject(new ChromaConnectionError(`Chroma's answer was cut: ${err.message}`)));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = res.statusCode ?? 0;
          if (status === 404) return reject(new ChromaNotFoundError("The requested resource could not be found"));
          if (status < 200 || status >= 300) return reject(new ChromaServerError(`Chroma answered ${status}: ${text.slice(0, 200)}`));
          try {
            resolve(JSON.parse(text));
          } catch {
            reject(new ChromaServerError("Chroma's answer is not JSON"));
          }
        });
      });
      req.on("error", (err) => reject(new ChromaConnectionError(`Failed to connect to Chroma: ${err.message}`)));
      req.end(body);
    });
  let up = true;
  const listeners: ((healthy: boolean) => void)[] = [];
  const set = (value: boolean) => {
    if (value === up) return;
    up = value;
    for (const l of listeners) l(value);
  };
  let probing = false;
  let misses = 0;
  // The probe also runs while up: without it an idle service would report ready with a dead Chroma
  // until the next search failed. Two misses in a row, so one slow heartbeat under load is not an outage.
  const timer = setInterval(async () => {
    if (probing) return;
    probing = true;
    let ok = false;
    try {
      // Generous: on a busy event loop the answer may wait its turn; a Chroma that is down refuses at once.
      const res = await fetch(`${url.replace(/\/+$/, "")}/api/v2/heartbeat`, { signal: AbortSignal.timeout(2000) });
      ok = res.ok;
    } catch {
      // down
    } finally {
      probing = false;
    }
    misses = ok ? 0 : misses + 1;
    if (ok) set(true);
    else if (!up || misses >= 2) set(false);
  }, options.probeMs ?? 1000);
  timer.unref();
  return {
    url,
    client,
    healthy: () => up,
    markDown: () => set(false),
    markUp: () => ((misses = 0), set(true)),
    onChange: (l) => void listeners.push(l),
    postJson,
    close: () => (clearInterval(timer), agent.destroy()),
  };
}
