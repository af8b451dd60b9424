import { describe, expect, it } from "vitest";
import { rememberJson, requestJson } from "../../graphs/chat/request-json.js";

const CORE = "# Guardrails\nQuote “exactly” — never ‘invent’ a verse.\n\n# Theology\nGrace \u2028 and \"quotes\" and \\ slashes\u0001.";
const tools = rememberJson([{ type: "function", function: { name: "lookup_passage", description: "Looks up “a passage”.", parameters: { type: "object", properties: { reference: { type: "string" } } } } }]);

/** A request body as models.ts builds it, with the system prompt `core + rest`. */
const agentBody = (content: string, extra: Record<string, unknown> = {}) => ({
  model: "fake-model",
  messages: [
    { role: "system", content },
    { role: "user", content: "What does John 3:16 teach? 😀" },
    { role: "assistant", content: null, tool_calls: [{ id: "abc", type: "function", function: { name: "lookup_passage", arguments: '{"reference":"John 3:16"}' } }] },
    { role: "tool", tool_call_id: "abc", content: "John 3:16 “For God so loved”" },
  ],
  tools,
  ...extra,
  stream: true,
  stream_options: { include_usage: true },
});

describe("requestJson", () => {
  it("writes what JSON.stringify writes when the system prompt starts with the prefix", () => {
    for (const rest of ["", "\n\nRead John 3:16.", "\n\n\u00e9\u2014\ud83d\ude00 end", "\ude00 a lone low surrogate first", "\"\\\n\t\u0000"]) {
      const body = agentBody(CORE + rest, { temperature: 0.2, top_p: undefined, stop: ["\n\n"], user: "u\u2028" });
      expect(requestJson(body, CORE)).toBe(JSON.stringify(body));
    }
  });

  it("writes what JSON.stringify writes without a prefix, with a prefix the prompt does not start with, and for other shapes", () => {
    const bodies: Record<string, unknown>[] = [
      agentBody(`${CORE}\n\nrest`),
      agentBody(`other ${CORE}`),
      { ...agentBody(CORE), messages: [{ content: CORE, role: "system" }] },
      { ...agentBody(CORE), messages: [{ role: "system", content: CORE, name: "x" }] },
      { ...agentBody(CORE), messages: [{ role: "user", content: CORE }] },
      { ...agentBody(CORE), messages: [] },
      { ...agentBody(CORE), messages: [{ role: "system", content: CORE }] },
      { model: "m", messages: [{ role: "system", content: CORE }], fn: () => 1, sym: Symbol("s"), nothing: undefined, nul: null, n: 3 },
      { model: "m", messages: [{ role: "system", content: `${CORE}x` }], response_format: { type: "json_schema", json_schema: { name: "v", strict: true, schema: { type: "object" } } } },
    ];
    for (const body of bodies) {
      expect(requestJson(body)).toBe(JSON.stringify(body));
      expect(requestJson(body, CORE)).toBe(JSON.stringify(body));
      expect(requestJson(body, "")).toBe(JSON.stringify(body));
    }
  });

  it("does not cut a surrogate pair: a prefix ending in a high surrogate is written whole", () => {
    const core = `${CORE}\ud83d`;
    const body = agentBody(`${core}\ude00 and more`);
    expect(requestJson(body, core)).toBe(JSON.stringify(body));
    // What a cut would have written: the pair's halves escaped apart.
    expect(JSON.stringify(core).slice(0, -1) + JSON.stringify(`\ude00 and more`).slice(1)).not.toBe(JSON.stringify(`${core}\ude00 and more`));
  });

  it("keeps a remembered value's JSON and freezes it deeply, so it cannot drift from what is sent", () => {
    const defs = rememberJson([{ type: "function", function: { name: "t", parameters: { properties: { a: { type: "string" } } } } }]);
    expect(Object.isFrozen(defs[0]!.function.parameters.properties.a)).toBe(true);
    expect(() => {
      (defs[0]!.function as { name: string }).name = "changed";
    }).toThrow(TypeError);
    const body = { model: "m", messages: [{ role: "system", content: `${CORE}!` }], tools: defs };
    expect(requestJson(body, CORE)).toBe(JSON.stringify(body));
  });

  it("calls a toJSON the way JSON.stringify does (by writing the body with JSON.stringify)", () => {
    const body = { ...agentBody(`${CORE}!`), toJSON: () => ({ replaced: true }) };
    expect(requestJson(body, CORE)).toBe(JSON.stringify(body));
    const messages = Object.assign([{ role: "system", content: `${CORE}!` }], { toJSON: () => "m" });
    const withMessages = { model: "m", messages };
    expect(requestJson(withMessages, CORE)).toBe(JSON.stringify(withMessages));
  });
});
