import { z } from "zod";
import { ChatBodySchema } from "../chat/schema.js";
import { ResponsesBodySchema } from "../responses/schema.js";
import { SearchBodySchema, SearchQuerySchema } from "../search/schema.js";
import { studyPaths } from "../study/openapi.js";
import * as R from "./responses.js";

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ "application/json": { schema } });
const html = { "text/html": { schema: { type: "string" } } };

/** Component schemas: requests as the validators read them (input), responses as sent (output). */
function components(): Record<string, Json> {
  const requests = z.registry<{ id: string }>();
  requests.add(ChatBodySchema, { id: "ChatCompletionRequest" });
  requests.add(ResponsesBodySchema, { id: "ResponseRequest" });
  requests.add(SearchBodySchema, { id: "ScriptureSearchRequest" });
  const responses = z.registry<{ id: string }>();
  const named: Record<string, z.ZodType> = {
    ErrorResponse: R.ErrorResponse,
    ChatCompletion: R.ChatCompletion,
    ChatCompletionChunk: R.ChatCompletionChunk,
    Response: R.ResponseObject,
    ResponseStreamEvent: R.ResponseStreamEvent,
    Citation: R.Citation,
    ModelList: R.ModelList,
    Model: R.Model,
    TheologyList: R.TheologyList,
    ProfileList: R.ProfileList,
    TranslationList: R.TranslationList,
    ScriptureSearchResponse: R.SearchResponse,
    Health: R.Health,
    Readiness: R.Readiness,
  };
  for (const [id, schema] of Object.entries(named)) responses.add(schema, { id });
  const uri = (id: string) => `#/components/schemas/${id}`;
  const out: Record<string, Json> = {
    ...(z.toJSONSchema(requests, { io: "input", uri, unrepresentable: "any" }).schemas as Record<string, Json>),
    ...(z.toJSONSchema(responses, { io: "output", uri, unrepresentable: "any" }).schemas as Record<string, Json>),
  };
  // OpenAPI 3.1 schemas are JSON Schema 2020-12 already; the per-schema dialect line is noise there.
  // $id would make each component its own resource, against which the "#/components/..." refs misresolve.
  for (const schema of Object.values(out)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return out;
}

/** The codes each status can carry on an endpoint; every entry is OpenAI's error envelope. */
type ErrorCodes = Record<number, string[]>;

const SERVICE_ERRORS: ErrorCodes = {
  405: ["method_not_allowed"],
  500: ["internal_error"],
  503: ["service_unavailable"],
};
const KEYLESS_ERRORS: ErrorCodes = { ...SERVICE_ERRORS, 429: ["rate_limited"] };

function errorResponses(codes: ErrorCodes): Json {
  const out: Json = {};
  for (const [status, list] of Object.entries(codes)) {
    out[status] = {
      description: `Error envelope; code: ${list.join(", ")}.`,
      content: json({
        allOf: [ref("ErrorResponse"), { type: "object", properties: { error: { type: "object", properties: { code: { enum: list } } } } }],
      }),
    };
  }
  return out;
}

/** Query parameters from the same zod schema the GET handler validates with. */
function queryParameters(schema: z.ZodObject): Json[] {
  const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties: Record<string, Json>; required?: string[] };
  return Object.entries(js.properties).map(([name, prop]) => {
    const { description, ...rest } = prop;
    return { name, in: "query", required: js.required?.includes(name) ?? false, ...(description ? { description } : {}), schema: rest };
  });
}

/** The codes chat completions and responses share: one request contract behind both. */
const ANSWER_ERRORS: ErrorCodes = {
  400: ["invalid_request", "invalid_parameter", "unsupported_parameter", "content_filter", "context_length_exceeded", "model_not_found", "upstream_invalid_request"],
  401: ["missing_api_key", "invalid_api_key"],
  413: ["request_too_large"],
  429: ["conversation_limit_exceeded", "provider_rate_limited", "rate_limited"],
  ...SERVICE_ERRORS,
  500: ["internal_error", "agent_step_limit"],
  502: ["upstream_error"],
  504: ["upstream_timeout"],
};

const promptVersionsHeader = { "X-Prompt-Versions": { description: "Versions of the prompts used.", schema: { type: "string" } } };

function responsesPath(): Json {
  return {
    post: {
      operationId: "createResponse",
      summary: "Answer a Bible question (OpenAI's Responses API, stateless; stream or not).",
      description:
        "The same answer as chat completions, in the Responses format: `input` is the question or the conversation, `instructions` your system message. The service's own fields (theology, profile, bible_id, max_words, book_id/chapter/verses...) are body fields. Nothing is stored: `store: true` and `previous_response_id` are refused. See docs/clients.md.",
      tags: ["chat"],
      security: [{ bearerAuth: [] }],
      requestBody: { required: true, content: json(ref("ResponseRequest")) },
      responses: {
        200: {
          description: "The Response (application/json), or with stream=true a text/event-stream of Responses events.",
          headers: promptVersionsHeader,
          content: { ...json(ref("Response")), "text/event-stream": { schema: ref("ResponseStreamEvent") } },
        },
        ...errorResponses(ANSWER_ERRORS),
      },
    },
  };
}

function chatPath(): Json {
  return {
    post: {
      operationId: "createChatCompletion",
      summary: "Answer a Bible question (chat completions format, stream or not).",
      tags: ["chat"],
      security: [{ bearerAuth: [] }],
      parameters: [
        {
          name: "X-Convert-Scripture-Links",
          in: "header",
          required: false,
          description: "Overrides convert_scripture_links / disable_scripture_links.",
          schema: { type: "string", enum: ["true", "false"] },
        },
      ],
      requestBody: { required: true, content: json(ref("ChatCompletionRequest")) },
      responses: {
        200: {
          description: "The answer (application/json), or with stream=true a text/event-stream of chunks.",
          headers: promptVersionsHeader,
          content: { ...json(ref("ChatCompletion")), "text/event-stream": { schema: ref("ChatCompletionChunk") } },
        },
        ...errorResponses(ANSWER_ERRORS),
      },
    },
  };
}

function searchPath(): Json {
  const common = {
    tags: ["scripture"],
    responses: {
      200: { description: "Chapters ranked by relevance, or the one chapter a passage reference names.", content: json(ref("ScriptureSearchResponse")) },
      ...errorResponses({ 400: ["invalid_request", "invalid_parameter"], ...KEYLESS_ERRORS, 503: ["service_unavailable", "search_unavailable"] }),
    },
  };
  return {
    get: { operationId: "searchScriptureGet", summary: "Semantic scripture search (query string).", parameters: queryParameters(SearchQuerySchema), ...common },
    post: {
      operationId: "searchScripturePost",
      summary: "Semantic scripture search (JSON body).",
      requestBody: { required: true, content: json(ref("ScriptureSearchRequest")) },
      ...common,
      responses: { ...common.responses, ...errorResponses({ 413: ["request_too_large"] }) },
    },
  };
}

const listing = (operationId: string, summary: string, schema: string, tag = "listings") => ({
  get: { operationId, summary, tags: [tag], responses: { 200: { description: summary, content: json(ref(schema)) }, ...errorResponses(KEYLESS_ERRORS) } },
});

/** Listings whose names and descriptions come in English or Spanish. */
const localizedListing = (op: ReturnType<typeof listing>) => ({
  get: {
    ...op.get,
    description:
      "Names and descriptions in English by default, in Spanish with `?lang=es` or `Accept-Language: es`. `lang` wins over the header; an unknown language falls back to English. The response says which in `Content-Language`.",
    parameters: [
      { name: "lang", in: "query", required: false, description: "Language of names and descriptions.", schema: { type: "string", examples: ["es"] } },
      { name: "Accept-Language", in: "header", required: false, description: "Used when `lang` is absent, e.g. `es-MX,es;q=0.9,en;q=0.5`.", schema: { type: "string" } },
    ],
  },
});

const page = (operationId: string, summary: string, responses: Json, parameters: Json[] = []) => ({
  get: { operationId, summary, tags: ["pages"], parameters, responses },
});

const jsonRpc = (description: string) => ({ description, content: json({ type: "object", required: ["jsonrpc"], properties: { jsonrpc: { const: "2.0" } } }) });

/** The MCP endpoint speaks JSON-RPC (docs/mcp.md); its errors keep their HTTP status in JSON-RPC's shape. */
const mcpPath = () => ({
  post: {
    operationId: "mcp",
    summary: "Model Context Protocol (Streamable HTTP, stateless, no key): the scripture tools for AI assistants.",
    description:
      "A JSON-RPC 2.0 request or notification (initialize, tools/list, tools/call, prompts/list, prompts/get). Send `Accept: application/json, text/event-stream`; every answer is one JSON response. Rate limited per IP like the other key-less endpoints. See docs/mcp.md.",
    tags: ["mcp"],
    requestBody: { required: true, content: json({ type: "object", required: ["jsonrpc", "method"], properties: { jsonrpc: { const: "2.0" }, method: { type: "string" } } }) },
    responses: {
      200: jsonRpc("The JSON-RPC response (a tool's bad arguments are a result with isError: true)."),
      202: { description: "A notification, accepted." },
      400: jsonRpc("Not valid JSON (-32700) or not a JSON-RPC message."),
      405: jsonRpc("GET and DELETE: no streams or sessions on a stateless server."),
      406: jsonRpc("The Accept header lacks application/json or text/event-stream."),
      413: jsonRpc("Body over 1 MB."),
      415: jsonRpc("Content-Type is not application/json."),
      429: jsonRpc("Over the per-IP rate limit (Retry-After)."),
    },
  },
});

const pathParam = (name: string, description: string, type = "string") => ({ name, in: "path", required: true, description, schema: { type } });

/** The whole OpenAPI 3.1 document. Built once per router: it depends on code only, not on config. */
export function buildOpenApiDocument(version = "0.1.0"): Json {
  return {
    openapi: "3.1.0",
    info: {
      title: "biblical-chat",
      version,
      description: "OpenAI-compatible chat completions that answer Bible questions with scripture-linked answers; bring your own provider key.",
    },
    servers: [{ url: "/" }],
    tags: [{ name: "chat" }, { name: "scripture" }, { name: "study" }, { name: "listings" }, { name: "mcp" }, { name: "operations" }, { name: "pages" }],
    paths: {
      "/v1/chat/completions": chatPath(),
      "/v1/responses": responsesPath(),
      "/v1/scripture/search": searchPath(),
      ...studyPaths(errorResponses, KEYLESS_ERRORS),
      "/mcp": mcpPath(),
      "/v1/models": listing("listModels", "Models that can be named in `model`.", "ModelList"),
      "/v1/models/{model}": {
        get: {
          operationId: "getModel",
          summary: "One model.",
          tags: ["listings"],
          parameters: [pathParam("model", "Model id.")],
          responses: { 200: { description: "The model.", content: json(ref("Model")) }, ...errorResponses({ 404: ["model_not_found"], ...KEYLESS_ERRORS }) },
        },
      },
      "/v1/theologies": localizedListing(listing("listTheologies", "Theologies (values for theology / theology_slug).", "TheologyList")),
      "/v1/profiles": localizedListing(listing("listProfiles", "Profiles (values for profile / profile_slug).", "ProfileList")),
      "/v1/translations": listing("listTranslations", "Translations (values for bible_id).", "TranslationList"),
      "/healthz": listing("healthz", "Liveness: 200 while the process serves.", "Health", "operations"),
      "/readyz": {
        get: {
          operationId: "readyz",
          summary: "Readiness: 200 while this replica can answer chat (search's own state in the body).",
          tags: ["operations"],
          responses: {
            200: { description: "Ready.", content: json(ref("Readiness")) },
            503: { description: "Shutting down (draining).", content: json(ref("Readiness")) },
          },
        },
      },
      "/metrics": {
        get: {
          operationId: "metrics",
          summary: "Prometheus metrics (text exposition format).",
          tags: ["operations"],
          responses: { 200: { description: "Metrics.", content: { "text/plain": { schema: { type: "string" } } } }, ...errorResponses(SERVICE_ERRORS) },
        },
      },
      "/openapi.json": {
        get: {
          operationId: "openapi",
          summary: "This document.",
          tags: ["operations"],
          responses: { 200: { description: "OpenAPI 3.1.", content: json({ type: "object" }) } },
        },
      },
      "/": page("landing", "A landing page: what the service is, links to the reader, the lab, this document and the listings, an example request.", { 200: { description: "HTML page.", content: html } }),
      "/read": page("readerHome", "The reader: redirects to Genesis 1.", { 302: { description: "Redirect to /read/GEN/1." } }),
      "/read/{book_id}": page("readerBook", "Redirects to the book's first chapter.", { 302: { description: "Redirect." }, 404: { description: "Friendly HTML 404.", content: html } }, [
        pathParam("book_id", "USFM book id (JHN)."),
      ]),
      "/read/{book_id}/{chapter}": page(
        "readerChapter",
        "A chapter with the requested verses highlighted (the target of answer links).",
        { 200: { description: "HTML page.", content: html }, 301: { description: "Canonical address." }, 404: { description: "Friendly HTML 404.", content: html } },
        [
          pathParam("book_id", "USFM book id (JHN)."),
          pathParam("chapter", "Chapter number.", "integer"),
          { name: "verse", in: "query", required: false, description: "A verse or range to highlight (16 or 28-30).", schema: { type: "string" } },
          { name: "bible_id", in: "query", required: false, description: "Translation (default eng-web).", schema: { type: "string" } },
        ],
      ),
      "/lab": page("promptLab", "The prompt lab: two configurations answer side by side.", { 200: { description: "HTML page.", content: html } }),
      "/lexicon/{id}": page(
        "lexiconPage",
        "A Strong's entry as a page, where the reader's word glosses link (the JSON is /v1/lexicon/{id}).",
        { 200: { description: "HTML page.", content: html }, 301: { description: "Canonical address (G25 for g0025)." }, 404: { description: "Friendly HTML 404.", content: html } },
        [pathParam("id", "Strong's number (G25, H7965).")],
      ),
      "/assets/{file}": page("asset", "Static files of the pages.", { 200: { description: "The file." }, 404: { description: "No such file." } }, [
        pathParam("file", "File name."),
      ]),
    },
    components: {
      schemas: components(),
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Your own model-provider key, passed through; never stored. It must start with sk- unless the operator set API_KEY_PREFIXES." },
      },
    },
  };
}
