import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ChatOutcome, RequestCatalog } from "../../../graphs/chat/contract.js";
import type { RunChat } from "../../../graphs/chat/runtime.js";
import { AppError, toAppError } from "../../errors.js";
import { endedError, RequestEnded, type InFlight } from "../in-flight.js";
import { startSse } from "../sse.js";
import { readRequestKey } from "./auth.js";
import type { CountKeyRefusal } from "../rate-limit.js";
import { isKeyRefusal, toHttpError } from "./errors.js";
import { withoutKey } from "./redact.js";
import type { ChatDefaults, ParsedChat } from "./request.js";
import { chatFormat } from "./response.js";
import type { StreamRenderer, WireFormat } from "./wire-format.js";

export interface ChatHandlerDeps {
  run: RunChat;
  catalog: RequestCatalog;
  defaults: ChatDefaults;
  inFlight?: InFlight;
}

const FILTER_MESSAGE = "Your input was rejected as invalid or inappropriate for this service.";

const contentFilter = (message: string) =>
  new AppError({ status: 400, type: "invalid_request_error", code: "content_filter", message: message || FILTER_MESSAGE });

class ClientGone extends Error {
  override name = "ClientGone";
}

/** One line per completion for operators: what happened, never what was said or which key. */
/** A model name shaped like a key of any configured provider (or OpenAI's `sk-`) is not written down. */
function looksLikeKey(model: string, catalog: RequestCatalog): boolean {
  if (/^sk-/i.test(model)) return true;
  return catalog.providers.all().some((p) => p.keyRule !== "any" && p.keyRule.some((prefix) => model.startsWith(prefix)));
}

function logOutcome(req: Request, parsed: ParsedChat, outcome: ChatOutcome, catalog: RequestCatalog, message: string) {
  req.log.info(
    {
      // The model name is the caller's text; one that looks like a key is not written down.
      model: looksLikeKey(parsed.ctx.model, catalog) ? "[redacted]" : parsed.ctx.model,
      // The configured provider's name (never its key): `default` is OPENAI_BASE_URL.
      provider: parsed.ctx.provider?.name ?? "default",
      stream: parsed.stream,
      outcome: outcome.kind,
      category: outcome.kind === "answer" ? undefined : outcome.category,
      finishReason: outcome.kind === "answer" ? outcome.finishReason : undefined,
      promptVersions: outcome.kind === "rejected" ? undefined : outcome.promptVersions,
      usage: outcome.usage,
      // How many quotations of scripture the answer had, and how many the check corrected.
      quotes: outcome.kind === "answer" ? outcome.quotes : undefined,
    },
    message,
  );
}

async function complete<P extends ParsedChat>(req: Request, res: Response, deps: ChatHandlerDeps, format: WireFormat<P>, parsed: P, signal: AbortSignal) {
  const outcome = await deps.run(parsed.turns, parsed.ctx, { signal });
  logOutcome(req, parsed, outcome, deps.catalog, format.logName);
  if (outcome.kind === "rejected") throw contentFilter(outcome.message);
  res.setHeader("X-Prompt-Versions", outcome.promptVersions);
  res.json(format.body(parsed, outcome, outcome.promptVersions));
}

/**
 * Headers wait until success is certain: the first answer delta (the graph only streams the final
 * answer, after preflight passed) or a successful outcome. Until then a rejection or provider error is
 * still an ordinary HTTP error; after, it becomes the API's in-stream error.
 */
async function stream<P extends ParsedChat>(req: Request, res: Response, deps: ChatHandlerDeps, format: WireFormat<P>, parsed: P, signal: AbortSignal) {
  const { ctx } = parsed;
  // Headers go out before the outcome, so the versions come from the registry (the same source the graph uses).
  const versions = deps.catalog.promptVersions(ctx.theology, ctx.profile);
  let out: StreamRenderer | undefined;
  let streamed = false;
  const open = (): StreamRenderer => {
    if (!out) {
      out = format.stream(parsed, startSse(res, { "X-Prompt-Versions": versions }), versions);
      out.open();
    }
    return out;
  };
  const onDelta = (text: string) => {
    if (text === "" || signal.aborted) return;
    open().delta(text);
    streamed = true;
  };
  try {
    const outcome = await deps.run(parsed.turns, ctx, { signal, onDelta });
    logOutcome(req, parsed, outcome, deps.catalog, format.logName);
    if (outcome.kind === "rejected") {
      if (!out) throw contentFilter(outcome.message);
      out.fail(contentFilter(outcome.message));
      return;
    }
    open().finish(outcome, streamed);
  } catch (err) {
    const ended = signal.reason instanceof RequestEnded ? signal.reason : undefined;
    if (!out || (signal.aborted && !ended)) throw err;
    if (isKeyRefusal(err)) countRefusal(res);
    // The deadline or the shutdown ended an open stream: the caller still gets an error event and its end.
    const appErr = ended ? endedError(ended) : toAppError(toHttpError(withoutKey(err, ctx.apiKey)));
    res.locals.errorCode = appErr.code;
    if (ended) req.log.warn({ code: appErr.code }, `${format.logName} stream ended by the service`);
    else if (appErr.status >= 500) req.log.error({ err: appErr.cause ?? err, code: appErr.code }, `${format.logName} stream failed`);
    else req.log.debug({ code: appErr.code }, `${format.logName} stream rejected`);
    out.fail(appErr);
  }
}

/** The provider refused the caller's key: counted against the client (KEY_REFUSALS_PER_MINUTE, src/http/rate-limit.ts). */
const countRefusal = (res: Response) => (res.locals.countKeyRefusal as CountKeyRefusal | undefined)?.();

/** Chat Completions (POST /v1/chat/completions). */
export function chatHandler(deps: ChatHandlerDeps): RequestHandler {
  return answerHandler(deps, chatFormat);
}

/**
 * The one handler behind every OpenAI-shaped endpoint that answers from the chat graph: the format
 * reads the body into the chat contract and writes the outcome; auth, abort, logging and errors are here.
 */
export function answerHandler<P extends ParsedChat>(deps: ChatHandlerDeps, format: WireFormat<P>): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    let parsed: P;
    try {
      const apiKey = readRequestKey(req, deps.catalog);
      parsed = format.parse(
        { body: req.body, isJson: req.is("application/json") !== false, header: (n) => req.get(n), apiKey },
        deps.catalog,
        deps.defaults,
      );
    } catch (err) {
      return next(toHttpError(err));
    }
    const { apiKey } = parsed.ctx;
    const abort = new AbortController();
    const ticket = deps.inFlight?.track(abort);
    // res "close" (not req "close", which fires once the body is read) means the client is gone.
    const onClose = () => {
      if (!res.writableFinished) abort.abort(new ClientGone("client closed the connection"));
    };
    res.on("close", onClose);
    try {
      await (parsed.stream ? stream : complete)(req, res, deps, format, parsed, abort.signal);
    } catch (err) {
      const reason: unknown = abort.signal.reason;
      if (reason instanceof RequestEnded) {
        req.log.warn({ reason: reason.kind }, reason.kind === "deadline" ? "chat stopped at the request deadline" : "chat ended by the shutdown");
        if (!res.headersSent) next(endedError(reason));
        else res.end();
        return;
      }
      if (abort.signal.aborted) {
        req.log.debug(`${format.logName} aborted: client closed the connection`);
        return;
      }
      if (isKeyRefusal(err)) countRefusal(res);
      next(toHttpError(withoutKey(err, apiKey)));
    } finally {
      ticket?.finish();
      res.off("close", onClose);
    }
  };
}
