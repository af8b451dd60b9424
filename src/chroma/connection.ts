import { ChromaClient } from "chromadb";

/**
 * A Chroma client plus what we know of the server's health. A failed call marks it down; while down a
 * heartbeat probe runs every second and marks it up again, so search recovers by itself when an
 * embedded server is restarted or an external one comes back.
 */
export interface ChromaConnection {
  readonly url: string;
  readonly client: ChromaClient;
  healthy(): boolean;
  /** Called by users when a call failed in a way that suggests the server is gone. */
  markDown(reason: string): void;
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
  const timer = setInterval(async () => {
    if (up || probing) return;
    probing = true;
    try {
      const res = await fetch(`${url.replace(/\/+$/, "")}/api/v2/heartbeat`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) set(true);
    } catch {
      // still down
    } finally {
      probing = false;
    }
  }, options.probeMs ?? 1000);
  timer.unref();
  return {
    url,
    client,
    healthy: () => up,
    markDown: () => set(false),
    onChange: (l) => void listeners.push(l),
    close: () => clearInterval(timer),
  };
}
