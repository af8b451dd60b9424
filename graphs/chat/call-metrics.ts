import type { MetricsRecorder, ProviderOutcome, ProviderPurpose } from "../../src/metrics.js";
import { ChatError } from "./errors.js";

/** The metric outcome of a provider call, from the error it ended with (none: ok). */
export function outcomeOf(err: unknown, callerAborted: boolean): ProviderOutcome {
  if (err === undefined) return "ok";
  if (callerAborted) return "aborted";
  if (err instanceof ChatError) {
    if (err.code === "upstream_timeout") return "timeout";
    if (err.code === "provider_rate_limited") return "rate_limited";
    if (err.code === "invalid_api_key") return "auth_error";
  }
  return "error";
}

/** Times one provider call for the metrics; a no-op without a recorder. */
export function startCall(metrics: MetricsRecorder | undefined, purpose: ProviderPurpose, provider?: string) {
  const started = performance.now();
  return (err: unknown, callerAborted = false) =>
    metrics?.providerCall(purpose, outcomeOf(err, callerAborted), (performance.now() - started) / 1000, provider);
}
