import { Router } from "express";
import { route } from "../routes.js";

export interface Readiness {
  /**
   * True while this replica can answer chat. Search is not part of it: chat degrades without search,
   * so a Chroma outage behind a balancer gated on /readyz must not take every replica out.
   */
  ready(): boolean;
  /** The rest of /readyz's body: search's own state (ready, Chroma up, the index in use). */
  detail(): Record<string, unknown>;
}

export function healthRouter(readiness: Readiness, isDraining: () => boolean): Router {
  const router = Router();
  route(router, "/healthz", { get: (_req, res) => void res.json({ status: "ok" }) });
  route(router, "/readyz", {
    get: (_req, res) => {
      const draining = isDraining();
      const ready = !draining && readiness.ready();
      res.status(ready ? 200 : 503).json({ status: ready ? "ready" : draining ? "draining" : "starting", ...readiness.detail() });
    },
  });
  return router;
}
