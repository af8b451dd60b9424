import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { route } from "../routes.js";
import { ASSETS_DIR, assetVersions, pageAssets } from "./html.js";
import { renderLab } from "./lab.js";
import { renderLanding } from "./landing.js";
import { renderLexiconEntry, resolveLexiconPage } from "./lexicon-view.js";
import type { Lexicon } from "../../study/lexicon.js";
import { readerHref, resolveReader, type BibleSource } from "./reader.js";
import { renderNotFound, renderReader } from "./reader-view.js";

export interface PagesDeps {
  bibles: BibleSource;
  /** Strong's dictionary: the reader's word glosses link to its entries as pages. */
  lexicon: Pick<Lexicon, "get" | "references" | "verses">;
  /** OPENAI_BASE_URL: the landing page's key hint shows only for a provider on this machine. */
  providerBaseUrl?: string | undefined;
  /** PUBLIC_BASE_URL: the lab renders answers' absolute reader links under it. */
  baseUrl?: string | undefined;
}

const YEAR = 365 * 24 * 3600;

/**
 * A strict policy: scripts and styles only from our own files, fetches only to this origin (the lab
 * sends the caller's key nowhere else), no framing. upgrade-insecure-requests is left out because it
 * would break plain-http local and test deployments.
 */
const pageSecurity = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  },
  crossOriginResourcePolicy: { policy: "same-origin" },
});

/** The landing page (`/`), the reader (`/read/...`), the prompt lab (`/lab`) and their static files (`/assets/...`). */
export function pagesRouter(deps: PagesDeps): Router {
  const router = Router();
  const assets = pageAssets(assetVersions());

  const html = (res: Response, status: number, body: string) => {
    res.status(status).type("html").setHeader("Cache-Control", "no-cache");
    res.send(body);
  };
  // The message may quote the address ("no book called …"): anything shaped like a key in it is redacted.
  const notFoundPage = (req: Request, res: Response, message: string) => html(res, 404, renderNotFound(assets, req.redactKeys(message)));

  router.use(["/read", "/lab", "/assets", "/lexicon"], pageSecurity);

  router.use(
    "/assets",
    (req: Request, res: Response, next: NextFunction) => {
      res.locals.metricsRoute = "/assets/*";
      // Versioned URLs never change content; unversioned ones (typed by hand) revalidate soon.
      res.setHeader("Cache-Control", typeof req.query.v === "string" ? `public, max-age=${YEAR}, immutable` : "public, max-age=300");
      next();
    },
    express.static(ASSETS_DIR, { cacheControl: false, fallthrough: true, index: false, dotfiles: "ignore" }),
  );

  route(router, "/read/:book_id/:chapter", {
    get: (req, res) => {
      const result = resolveReader(deps.bibles, { book: String(req.params.book_id), chapter: String(req.params.chapter) }, req.query);
      if (result.kind === "redirect") return void res.redirect(301, result.location);
      if (result.kind === "not-found") return void notFoundPage(req, res, result.message);
      html(res, 200, renderReader(assets, result.view));
    },
  });
  route(router, "/read/:book_id", {
    get: (req, res) => {
      const result = resolveReader(deps.bibles, { book: String(req.params.book_id), chapter: "1" }, req.query);
      if (result.kind === "not-found") return void notFoundPage(req, res, result.message);
      res.redirect(302, result.kind === "redirect" ? result.location : readerHref(result.view, result.view.translation.id));
    },
  });
  route(router, "/read", { get: (_req, res) => void res.redirect(302, "/read/GEN/1") });
  router.get("/read/*rest", (req, res) => notFoundPage(req, res, "That reader address does not exist."));

  route(router, "/lexicon/:id", {
    get: (req, res) => {
      const result = resolveLexiconPage(deps.lexicon, String(req.params.id));
      if (result.kind === "redirect") return void res.redirect(301, result.location);
      if (result.kind === "not-found") return void notFoundPage(req, res, result.message);
      html(res, 200, renderLexiconEntry(assets, result.entry, deps.lexicon));
    },
  });

  route(router, "/lab", { get: (_req, res) => html(res, 200, renderLab(assets, deps.baseUrl)) });
  // Exactly "/" (router.use would cover every path): the policy runs as the route's first handler.
  route(router, "/", { get: [pageSecurity, (_req, res) => html(res, 200, renderLanding(assets, { providerBaseUrl: deps.providerBaseUrl }))] });
  return router;
}

/** Paths a browser is sent to by the pages; anything under them stays JSON for API clients. */
const API_PREFIXES = ["/v1/", "/mcp", "/openapi"];

/**
 * The app's last word before its JSON 404: a browser (a GET that prefers text/html to JSON) asking for a
 * page that does not exist gets a page saying so, with the way back. API paths keep the JSON envelope.
 */
export function pageNotFound(): RequestHandler {
  const assets = pageAssets(assetVersions());
  const page = renderNotFound(assets, "There is no page at this address.");
  return (req, res, next) => {
    const wantsPage = (req.method === "GET" || req.method === "HEAD") && req.accepts(["json", "html"]) === "html";
    if (!wantsPage || API_PREFIXES.some((p) => req.path.startsWith(p))) return next();
    pageSecurity(req, res, () => {
      res.status(404).type("html").setHeader("Cache-Control", "no-cache");
      res.send(page);
    });
  };
}
