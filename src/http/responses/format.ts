import type { WireFormat } from "../chat/wire-format.js";
import { parseResponsesRequest, type ParsedResponse } from "./request.js";
import { finalResponse, responseMeta, responseStream } from "./response.js";

/** The Responses API on the wire, for the one answer handler (src/http/chat/handler.ts). */
export const responsesFormat: WireFormat<ParsedResponse> = {
  logName: "response",
  parse: parseResponsesRequest,
  body: (parsed, outcome) => finalResponse(responseMeta(parsed.ctx.model, parsed.echo), outcome),
  stream: (parsed, sse) => responseStream(responseMeta(parsed.ctx.model, parsed.echo), sse),
};
