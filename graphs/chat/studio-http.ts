import { getConfigTypeSchema } from "@langchain/langgraph/zod/schema";
import { Hono } from "hono";
import { resolveContext } from "./configuration.js";
import { studio } from "./studio.js";

/**
 * LangGraph Studio's local server (langgraph.json `http.app`, mounted ahead of the server's own routes):
 * completes its answer to `GET /assistants/{id}/schemas`, which Studio draws its forms from.
 *
 * Why: @langchain/langgraph-api passes no context schema on for a graph whose state is a StateSchema.
 * Its getRuntimeGraphSchema() (dist/graph/parser/index.mjs) takes tryStateSchemaExtraction()'s answer
 * first, and that sets `config = undefined` ("StateSchema doesn't have config schema support yet"), so
 * the route answers `context_schema: undefined` although the graph has one (the same in 2.0.0, 1.5.1 and
 * its main branch). The server's own answer goes through, with its context schema, or the graph's
 * (getConfigTypeSchema, the function that server uses for a zod graph) when it has none, given the
 * theologies and profiles to choose from and each option's default as resolveContext fills it for a
 * run that leaves it out: the one owner of those defaults. The server fills config_schema and
 * context_schema alike for a JS graph: so does this, where it left config_schema out.
 */

/** The graphs langgraph.json names, by id (test/studio/studio-http.test.ts keeps the two in step). */
export const STUDIO_GRAPHS = { chat: studio } as const;

type JsonSchema = { properties?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/** The chat graph's context schema as Studio draws it: choices and defaults from the server's own settings. */
export function studioContextSchema(
  runtime: (typeof STUDIO_GRAPHS)[keyof typeof STUDIO_GRAPHS],
  schema = getConfigTypeSchema(runtime.graph) as JsonSchema | undefined,
): JsonSchema | undefined {
  const properties = schema?.properties;
  if (!schema || !properties) return schema;
  let defaults: Record<string, unknown>;
  let choices: Record<string, string[]>;
  try {
    // Reads the configuration and the prompts (not the index); a broken .env leaves the fields without them.
    const { deps } = runtime;
    defaults = { ...resolveContext({}, deps) };
    choices = { theology: deps.prompts.theologies.map((d) => d.slug), profile: deps.prompts.profiles.map((d) => d.slug) };
  } catch {
    return schema;
  }
  const filled: Record<string, Record<string, unknown>> = {};
  // Only the schema's own keys: the resolved context also holds the server's key, which never leaves.
  for (const [name, field] of Object.entries(properties)) {
    filled[name] = {
      ...field,
      ...(choices[name] && !field.enum ? { enum: choices[name] } : {}),
      ...(defaults[name] !== undefined ? { default: defaults[name] } : {}),
    };
  }
  return { ...schema, properties: filled };
}

export const app = new Hono();

app.use("/assistants/:assistant_id/schemas", async (c, next) => {
  await next();
  if (c.req.method !== "GET" || c.res.status !== 200) return;
  const answer = (await c.res.clone().json()) as { graph_id?: string; context_schema?: unknown; config_schema?: unknown };
  const runtime = STUDIO_GRAPHS[answer.graph_id as keyof typeof STUDIO_GRAPHS];
  const context = runtime && studioContextSchema(runtime, (answer.context_schema as JsonSchema | null) ?? undefined);
  if (!context) return;
  // The server's headers (CORS among them) stay; the length is the new body's.
  const headers = new Headers(c.res.headers);
  headers.delete("content-length");
  const body = JSON.stringify({ ...answer, config_schema: answer.config_schema ?? context, context_schema: context });
  c.res = undefined;
  c.res = new Response(body, { status: 200, headers });
});
