import { ChromaClient } from "chromadb";

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
  close(): void;
}

export function connectChroma(url: string, options: { probeMs?: number } = {}): ChromaConnection {
  const parsed = new URL(url);
  const client = new ChromaClient({
    host: parsed.hostname,
    port: Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80)),
    ssl: parsed.protocol === "https:",
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
    close: () => clearInterval(timer),
  };
}
