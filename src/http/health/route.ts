import { Router } from "express";
import { route } from "../routes.js";

export interface Readiness {
  /** True once scripture search can answer (index present and the vector store reachable). */
  ready(): boolean;
  /** A short reason for /readyz when not ready. */
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
