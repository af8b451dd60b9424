import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STUDIO_GRAPHS, studioContextSchema } from "../../graphs/chat/studio-http.js";
import { studioRuntime } from "../../graphs/chat/studio.js";

type Fields = Record<string, { default?: unknown; enum?: unknown[] }>;

describe("the context schema Studio's local server is given for the chat graph (studio-http.ts)", () => {
  it("when langgraph.json names its graphs and its HTTP app, then the app completes the schemas of exactly those graphs", () => {
    const config = JSON.parse(readFileSync(new URL("../../langgraph.json", import.meta.url), "utf8")) as { graphs: object; http?: { app?: string } };
    expect(Object.keys(STUDIO_GRAPHS)).toEqual(Object.keys(config.graphs));
    expect(config.http?.app).toBe("./graphs/chat/studio-http.ts:app");
  });

  it("when the server's environment holds a key and a default model, then the schema offers that model as the default and never the key", () => {
    const saved = { key: process.env.STUDIO_API_KEY, model: process.env.DEFAULT_MODEL };
    process.env.STUDIO_API_KEY = "sk-studio-schema-71d3";
    process.env.DEFAULT_MODEL = "gpt-4.1-mini";
    try {
      const schema = studioContextSchema(studioRuntime());
      const fields = (schema?.properties ?? {}) as Fields;
      expect(fields.model?.default).toBe("gpt-4.1-mini");
      expect(fields.maxWords?.default).toBe(300);
      expect(JSON.stringify(schema)).not.toContain("sk-studio-schema-71d3");
      expect(Object.keys(fields).map((k) => k.toLowerCase())).not.toContain("apikey");
    } finally {
      for (const [name, value] of [["STUDIO_API_KEY", saved.key], ["DEFAULT_MODEL", saved.model]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("when the server answers a context schema of its own, then that schema is kept and given the choices and defaults", () => {
    const own = { type: "object", properties: { theology: { type: "string", description: "from the server" } } };
    const schema = studioContextSchema(studioRuntime(), own);
    expect(Object.keys(schema?.properties ?? {})).toEqual(["theology"]);
    expect(schema?.properties?.theology).toMatchObject({ description: "from the server", default: "default", enum: expect.arrayContaining(["reformed"]) });
  });

  it("when the server's configuration cannot be read, then the fields are still offered, without defaults", () => {
    const saved = process.env.AGENT_MAX_STEPS;
    process.env.AGENT_MAX_STEPS = "not a number";
    try {
      const fields = (studioContextSchema(studioRuntime())?.properties ?? {}) as Fields;
      expect(Object.keys(fields)).toContain("theology");
      expect(fields.theology?.default).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.AGENT_MAX_STEPS;
      else process.env.AGENT_MAX_STEPS = saved;
    }
  });
});
