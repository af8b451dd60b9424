import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { ChatOutcome, RequestCatalog } from "../../../graphs/chat/contract.js";
import type { RunChat } from "../../../graphs/chat/runtime.js";
import { AppError, errorBody, toAppError } from "../../errors.js";
import { endedError, RequestEnded, type InFlight } from "../in-flight.js";
import { startSse, type SseWriter } from "../sse.js";
import { readRequestKey } from "./auth.js";
import { toHttpError } from "./errors.js";
import { withoutKey } from "./redact.js";
import { parseChatRequest, type ChatDefaults, type ParsedChat } from "./request.js";
import { chunkBody, completionBody, completionMeta, usageChunkBody, type ChunkDelta, type CompletionMeta } from "./response.js";

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

function logOutcome(req: Request, parsed: ParsedChat, outcome: ChatOutcome, catalog: RequestCatalog) {
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
    "chat completion",
  );
}

async function complete(req: Request, res: Response, deps: ChatHandlerDeps, parsed: ParsedChat, signal: AbortSignal) {
  const outcome = await deps.run(parsed.turns, parsed.ctx, { signal });
  logOutcome(req, parsed, outcome, deps.catalog);
  if (outcome.kind === "rejected") throw contentFilter(outcome.message);
  const meta = completionMeta(parsed.ctx.model, outcome.promptVersions);
  res.setHeader("X-Prompt-Versions", outcome.promptVersions);
  const body = completionBody(meta, outcome.content, outcome.kind === "answer" ? outcome.finishReason : "stop", outcome.usage);
  res.json(outcome.kind === "answer" && outcome.citations ? { ...body, citations: outcome.citations } : body);
}

/**
 * Headers wait until success is certain: the first answer delta (the graph only streams the final
 * answer, after preflight passed) or a successful outcome. Until then a rejection or provider error is
 * still an ordinary HTTP error; after, it becomes an in-stream error event.
 */
async function stream(req: Request, res: Response, deps: ChatHandlerDeps, parsed: ParsedChat, signal: AbortSignal) {
  const { ctx, includeUsage } = parsed;
  // Headers go out before the outcome, so the versions come from the registry (the same source the graph uses).
  const versions = deps.catalog.promptVersions(ctx.theology, ctx.profile);
  const meta: CompletionMeta = completionMeta(ctx.model, versions);
  let sse: SseWriter | undefined;
  let streamed = false;
  const send = (delta: ChunkDelta, finish: "stop" | "length" | null = null) => sse!.send(chunkBody(meta, delta, finish, includeUsage));
  const open = () => {
    if (!sse) {
      sse = startSse(res, { "X-Prompt-Versions": versions });
      send({ role: "assistant", content: "" });
    }
    return sse;
  };
  const onDelta = (text: string) => {
    if (text === "" || signal.aborted) return;
    open();
    streamed = true;
    send({ content: text });
  };
  try {
    const outcome = await deps.run(parsed.turns, ctx, { signal, onDelta });
    logOutcome(req, parsed, outcome, deps.catalog);
    if (outcome.kind === "rejected") {
      if (!sse) throw contentFilter(outcome.message);
      sse.send(errorBody(contentFilter(outcome.message)));
      sse.done();
      return;
    }
    open();
    if (!streamed && outcome.content !== "") send({ content: outcome.content });
    // The chunk with finish_reason carries the citations, so SDKs that keep unknown fields expose them.
    const last = chunkBody(meta, {}, outcome.kind === "answer" ? outcome.finishReason : "stop", includeUsage);
    sse!.send(outcome.kind === "answer" && outcome.citations ? { ...last, citations: outcome.citations } : last);
    if (includeUsage) sse!.send(usageChunkBody(meta, outcome.usage));
    sse!.done();
  } catch (err) {
    const ended = signal.reason instanceof RequestEnded ? signal.reason : undefined;
    if (!sse || (signal.aborted && !ended)) throw err;
    // The deadline or the shutdown ended an open stream: the caller still gets an error event and [DONE].
    const appErr = ended ? endedError(ended) : toAppError(toHttpError(withoutKey(err, ctx.apiKey)));
    res.locals.errorCode = appErr.code;
    if (ended) req.log.warn({ code: appErr.code }, "chat stream ended by the service");
    else if (appErr.status >= 500) req.log.error({ err: appErr.cause ?? err, code: appErr.code }, "chat stream failed");
    else req.log.debug({ code: appErr.code }, "chat stream rejected");
    sse.send(errorBody(appErr));
    sse.done();
  }
}

export function chatHandler(deps: ChatHandlerDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    let parsed: ParsedChat;
    try {
      const apiKey = readRequestKey(req, deps.catalog);
      parsed = parseChatRequest(
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
      await (parsed.stream ? stream : complete)(req, res, deps, parsed, abort.signal);
    } catch (err) {
      const reason: unknown = abort.signal.reason;
      if (reason instanceof RequestEnded) {
        req.log.warn({ reason: reason.kind }, reason.kind === "deadline" ? "chat stopped at the request deadline" : "chat ended by the shutdown");
        if (!res.headersSent) next(endedError(reason));
        else res.end();
        return;
      }
      if (abort.signal.aborted) {
        req.log.debug("chat aborted: client closed the connection");
        return;
      }
      next(toHttpError(withoutKey(err, apiKey)));
    } finally {
      ticket?.finish();
      res.off("close", onClose);
    }
  };
}
