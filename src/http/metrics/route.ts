import { Router, type NextFunction, type Request, type Response } from "express";
import type { Metrics } from "../../metrics.js";
import { route } from "../routes.js";

declare module "express-serve-static-core" {
  interface Locals {
    /** A route label for responses served outside an Express route (static assets). */
    metricsRoute?: string;
  }
}

/**
 * The label is the matched route pattern, never the URL: /read/JHN/3 and /read/GEN/1 are one series,
 * and nothing a caller types (a query, a key pasted in a path) can become a label.
 */
function routeLabel(req: Request, res: Response): string {
  if (res.locals.metricsRoute) return res.locals.metricsRoute;
  const pattern: unknown = req.route?.path;
  if (typeof pattern === "string") return `${req.baseUrl}${pattern}`;
  return res.statusCode === 404 ? "unmatched" : "other";
}

/** Records every request when its response is done (or the client went away mid-stream). */
export function httpMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once("close", () => {
      metrics.http(req.method, routeLabel(req, res), res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}

export function metricsRouter(metrics: Metrics): Router {
  const router = Router();
  route(router, "/metrics", {
    get: async (_req, res) => {
      const body = await metrics.registry.metrics();
      res.setHeader("Content-Type", metrics.registry.contentType);
      res.setHeader("Cache-Control", "no-store");
      res.send(body);
    },
  });
  return router;
}
