import { APIConnectionTimeoutError } from "openai";
import { ChatError } from "./errors.js";
import { DEFAULT_PROVIDER } from "./providers.js";

/**
 * Maps a failed provider call to the contract's errors (domain errors; the adapter gives them HTTP statuses). Messages are ours alone: a provider's own
 * message can echo the key (OpenAI's 401 quotes part of it), so it never reaches the caller. A message names the provider as configured
 * ("the default model provider", `the model provider "openrouter"`), never its address: a host and port tell a caller about the
 * deployment's network and help nobody fix a request. The runtime logs the address (care-on-failure.ts).
 */

/** How a caller is told which provider failed: by its configured name (`default` is OPENAI_BASE_URL). */
export function providerLabel(provider: string): string {
  return provider === DEFAULT_PROVIDER ? "The default model provider" : `The model provider "${provider}"`;
}

/** Thrown through the AbortSignal when our idle timer, not the caller, ends a provider call. */
export class ProviderTimeout extends Error {
  override name = "ProviderTimeout";
}

export const upstreamTimeout = (provider: string, timeoutMs: number) =>
  new ChatError("upstream_timeout", `${providerLabel(provider)} did not respond within ${timeoutMs} ms.`, { provider });

export const upstreamError = (provider: string, cause?: unknown) =>
  new ChatError("upstream_error", `${providerLabel(provider)} failed or sent a response that could not be read.`, { cause, provider });

/**
 * What may be logged about a provider failure: never its message, which can quote the key
 * ("Incorrect API key provided: sk-abc...").
 */
export function summary(err: unknown): { name: string; status?: number; code?: string; causes?: string[] } {
  const code = codeOf(err);
  const causes = causeChain(err);
  return {
    name: nameOf(err),
    ...(statusOf(err) !== undefined ? { status: statusOf(err) } : {}),
    ...(code ? { code } : {}),
    ...(causes.length > 0 ? { causes } : {}),
  };
}

function nameOf(err: unknown): string {
  const e = (err ?? {}) as { name?: unknown; constructor?: { name?: string } };
  // The openai SDK's errors keep the name "Error"; their class names what failed (APIConnectionError).
  const cls = e.constructor?.name;
  return typeof e.name === "string" && !(e.name === "Error" && cls && cls !== "Error" && cls !== "Object") ? e.name : (cls ?? "unknown");
}

/** The errors under this one, "name" or "name code" each ("Error ECONNRESET"): what failed, without any message. */
function causeChain(err: unknown): string[] {
  const chain: string[] = [];
  let e = (err as { cause?: unknown } | null | undefined)?.cause as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    const code = typeof e.code === "string" && /^[\w.-]{1,64}$/.test(e.code) ? ` ${e.code}` : "";
    chain.push(`${nameOf(e)}${code}`);
    e = e.cause as typeof e;
  }
  return chain;
}

/** The first error code along the cause chain ("ECONNRESET" under the SDK's connection error). */
function codeOf(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; depth < 4 && e && typeof e === "object"; depth++) {
    if (typeof e.code === "string" && /^[\w.-]{1,64}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

function retryAfterOf(err: unknown): string | undefined {
  const headers = (err as { headers?: unknown } | null)?.headers;
  if (!headers || typeof headers !== "object") return undefined;
  const value =
    typeof (headers as Headers).get === "function"
      ? (headers as Headers).get("retry-after")
      : (headers as Record<string, unknown>)["retry-after"];
  return typeof value === "string" && /^[\w ,:+-]{1,64}$/.test(value) ? value : undefined;
}

export interface ProviderCall {
  /** The configured provider's name: "default" or <name> of PROVIDER_<NAME>_*. */
  provider: string;
  model: string;
  timeoutMs: number;
}

export function toProviderError(err: unknown, call: ProviderCall): ChatError {
  if (err instanceof ChatError) return err;
  const { provider } = call;
  const name = (err as { name?: unknown } | null)?.name;
  // The SDK's own timeout error is named "Error" (only its class says what it is): when its timer fires
  // before our Deadline, it is still a timeout, not a broken provider.
  if (err instanceof ProviderTimeout || err instanceof APIConnectionTimeoutError || name === "TimeoutError" || name === "APIConnectionTimeoutError") {
    return upstreamTimeout(provider, call.timeoutMs);
  }
  const status = statusOf(err);
  if (status === 401 || status === 403) {
    return new ChatError(
      "invalid_api_key",
      `${providerLabel(provider)} rejected the API key (HTTP ${status}). Check the key sent in the Authorization header.`,
      { cause: summary(err), provider },
    );
  }
  if (status === 404) {
    return new ChatError("model_not_found", `${providerLabel(provider)} does not offer the model "${call.model}" to this key.`, {
      param: "model",
      provider,
      cause: summary(err),
    });
  }
  if (status === 429) {
    return new ChatError("provider_rate_limited", `${providerLabel(provider)} is rate limiting this key; retry later.`, {
      retryAfter: retryAfterOf(err),
      provider,
      cause: summary(err),
    });
  }
  if (status === 400 || status === 422) {
    return new ChatError("upstream_invalid_request", `${providerLabel(provider)} refused the request's parameters for model "${call.model}".`, {
      cause: summary(err),
      provider,
    });
  }
  return upstreamError(provider, summary(err));
}

/** True when the run's own signal (client gone) ended the call: that is not a provider fault. */
export function isCallerAbort(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && !(signal.reason instanceof ProviderTimeout);
}
