/**
 * The chat runtime's domain errors. Inside graphs/chat a failure is a ChatError with a contract code
 * (the spec's error codes) and a message written for the caller; the HTTP adapter alone turns it into
 * a status and OpenAI's envelope (src/http/chat/errors.ts). Provider messages never become ours: a
 * provider's own message can quote the caller's key.
 */
export type ChatErrorCode =
  | "missing_api_key"
  | "invalid_api_key"
  | "invalid_request"
  | "invalid_parameter"
  | "model_not_found"
  | "provider_rate_limited"
  | "upstream_invalid_request"
  | "upstream_error"
  | "upstream_timeout"
  | "agent_step_limit";

export interface ChatErrorInit {
  param?: string | undefined;
  /** A provider's Retry-After, already checked to be harmless text. */
  retryAfter?: string | undefined;
  /** The configured provider's name ("default", or <name> of PROVIDER_<NAME>_*) when a provider call failed. */
  provider?: string | undefined;
  cause?: unknown;
}

export class ChatError extends Error {
  override name = "ChatError";
  readonly param: string | undefined;
  readonly retryAfter: string | undefined;
  /** Set when a model provider call failed (provider-errors.ts): which configured provider. */
  readonly provider: string | undefined;

  constructor(
    readonly code: ChatErrorCode,
    message: string,
    init: ChatErrorInit = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.param = init.param;
    this.retryAfter = init.retryAfter;
    this.provider = init.provider;
  }
}

export const agentStepLimit = (steps: number) =>
  new ChatError("agent_step_limit", `The assistant could not finish its answer within ${steps} steps.`);
