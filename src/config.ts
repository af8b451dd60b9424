import { isIP } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/**
 * The only reader of the environment. A bad value stops start-up with a message naming the variable,
 * so a misconfigured deployment fails at once instead of on the first request.
 * Every variable here is documented in the README's configuration table.
 */
const intFrom = (def: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(def);

const bool = (def: boolean) =>
  z
    .enum(["true", "false", "1", "0", "yes", "no", ""])
    .default(def ? "true" : "false")
    .transform((v) => v === "true" || v === "1" || v === "yes");

const url = z.url({ protocol: /^https?$/ });

/** Express's named ranges for "trust proxy" (proxy-addr). */
const TRUSTED_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);
const trustedAddress = (entry: string) => {
  if (TRUSTED_NAMES.has(entry)) return true;
  const [ip, bits, ...rest] = entry.split("/");
  const family = isIP(ip ?? "");
  if (family === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)) || (family === 4 && isIP(bits) === 4);
};

/**
 * TRUST_PROXY in Express's own forms: a hop count (the proxies in front of the service) or the proxies'
 * addresses/subnets/names. Never "true": Express would then take the left-most X-Forwarded-For
 * entry, which any client writes itself, so a client could pick its own address and escape the limit.
 */
const TrustProxy = z
  .string()
  .default("false")
  .superRefine((v, ctx) => {
    const t = v.trim().toLowerCase();
    if (t === "true" || t === "yes") {
      ctx.addIssue({
        code: "custom",
        message:
          '"true" would believe any X-Forwarded-For a client sends (a client could choose its own address and escape the rate limit); set the number of proxies in front of the service (e.g. 1) or their addresses (e.g. loopback,10.0.0.0/8)',
      });
    } else if (!/^(false|no|\d{1,2})$/.test(t) && !t.split(",").every((e) => trustedAddress(e.trim()))) {
      ctx.addIssue({ code: "custom", message: "a hop count (e.g. 1), or a comma-separated list of proxy addresses or subnets (e.g. 10.0.0.1,172.16.0.0/12) or loopback/linklocal/uniquelocal, or false" });
    }
  })
  .transform((v): false | number | string[] => {
    const t = v.trim().toLowerCase();
    if (t === "false" || t === "no") return false;
    if (/^\d+$/.test(t)) return Number(t) === 0 ? false : Number(t);
    return t.split(",").map((e) => e.trim());
  });

const list = (def: string) =>
  z
    .string()
    .default(def)
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean));

const KeyPrefixes = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim() === "*" ? ("any" as const) : v.split(",").map((p) => p.trim())))
  .refine((v) => v === undefined || v === "any" || v.every((p) => p !== "" && !/\s/.test(p)), {
    message: 'a comma-separated list of key prefixes without spaces or empty entries (e.g. "sk-,gsk_"), or * for any non-empty key',
  });

const EnvSchema = z.object({
  PORT: intFrom(8080, 0, 65535),
  HOST: z.string().min(1).default("0.0.0.0"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
  DATA_DIR: z.string().min(1).default("./.data"),
  PROMPTS_DIR: z.string().min(1).optional(),

  OPENAI_BASE_URL: url.default("https://api.openai.com/v1"),
  PROVIDER_TIMEOUT_MS: intFrom(60_000, 100, 600_000),
  MODELS: list("gpt-4o-mini,gpt-4o,gpt-4.1-mini,gpt-4.1"),
  DEFAULT_MODEL: z.string().min(1).default("gpt-4o-mini"),
  PREFLIGHT_MODEL: z.string().min(1).default("gpt-4o-mini"),
  AGENT_MAX_STEPS: intFrom(6, 1, 50),
  // parallel: the agent's first call starts beside the preflight classifier (held until its verdict); sequential: after it.
  PREFLIGHT_MODE: z.enum(["parallel", "sequential"]).default("parallel"),

  CHROMA_URL: url.optional(),
  EMBEDDINGS_BASE_URL: url.optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).default("text-embedding-3-small"),

  CORS_ORIGINS: z.string().default("*"),
  RATE_LIMIT_PER_MINUTE: intFrom(0, 0, 1_000_000),
  // Shares the key-less limit's counts between replicas; unset counts in each process.
  RATE_LIMIT_REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  // Chats whose key the provider refused, per client a minute, before its chats get 429 (0 = off; docs/reliability.md).
  KEY_REFUSALS_PER_MINUTE: intFrom(10, 0, 1_000_000),
  SHUTDOWN_TIMEOUT_MS: intFrom(10_000, 0, 600_000),
  // The most one chat request may take, start to end, streamed or not (docs/reliability.md).
  REQUEST_DEADLINE_MS: intFrom(180_000, 1_000, 3_600_000),
  TRUST_PROXY: TrustProxy,
  // Makes reader links absolute (answers, citations, search results) for chat apps on another domain.
  PUBLIC_BASE_URL: url.optional(),
  // LangGraph Studio local debugging only (graphs/chat/studio.ts); the HTTP service never uses it.
  STUDIO_API_KEY: z.string().min(1).optional(),
  // LangSmith tracing, read by the langsmith library itself; the chat runtime wraps its provider calls only when on.
  LANGSMITH_TRACING: bool(false),
  LANGCHAIN_TRACING_V2: bool(false),
  // A support question's reply: "empty" (default) is the spec's blank answer, "text" a short paragraph about the service.
  SUPPORT_REPLY: z.enum(["empty", "text"]).default("empty"),
  // The shape of callers' keys; unset keeps the spec's rule (graphs/chat/contract.ts owns the rule).
  API_KEY_PREFIXES: KeyPrefixes,
});

export type Config = {
  port: number;
  host: string;
  logLevel: z.infer<typeof EnvSchema>["LOG_LEVEL"];
  logFormat: z.infer<typeof EnvSchema>["LOG_FORMAT"];
  dataDir: string;
  promptsDir: string;
  provider: { baseURL: string; timeoutMs: number };
  models: string[];
  defaultModel: string;
  preflightModel: string;
  agentMaxSteps: number;
  /**
   * PREFLIGHT_MODE: "parallel" starts the agent's first call beside the classifier (its output held
   * until the verdict, aborted unless it passes); "sequential" waits for the verdict first and pays no
   * speculative tokens.
   */
  preflightMode: "parallel" | "sequential";
  chromaUrl: string | undefined;
  embeddings: { baseURL: string; apiKey: string | undefined; model: string } | undefined;
  corsOrigins: string;
  rateLimitPerMinute: number;
  /** RATE_LIMIT_REDIS_URL: the Redis that counts for every replica; unset, each process counts its own. */
  rateLimitRedisUrl: string | undefined;
  /**
   * KEY_REFUSALS_PER_MINUTE: once a client's chats had this many keys refused by the provider in the
   * rate limit's window, its further chats get 429 before any work until the window passes; 0 = off.
   */
  keyRefusalsPerMinute: number;
  shutdownTimeoutMs: number;
  /** REQUEST_DEADLINE_MS: one chat request's whole time; past it the caller gets a request_timeout error. */
  requestDeadlineMs: number;
  /** TRUST_PROXY: false, the number of proxies in front, or their addresses (Express's "trust proxy" forms; never true). */
  trustProxy: false | number | string[];
  /** PUBLIC_BASE_URL without a trailing slash; unset: links stay root-relative ("/read/JHN/3"). */
  publicBaseUrl: string | undefined;
  /** Key for Studio runs whose context has none (local debugging); never read by the HTTP service. */
  studioApiKey?: string | undefined;
  /** LANGSMITH_TRACING or LANGCHAIN_TRACING_V2: each provider call is traced as a LangSmith run. */
  tracing: boolean;
  /** SUPPORT_REPLY: a support question gets the spec's empty content ("empty", the default) or prompts/canned/support.*.md ("text"). */
  supportReply: "empty" | "text";
  /** API_KEY_PREFIXES: the prefixes a caller's key may start with, "any", or unset for the spec's rule. */
  apiKeyPrefixes?: readonly string[] | "any" | undefined;
  /** Named providers (PROVIDER_<NAME>_*), reached with model `<name>/<model>`; OPENAI_BASE_URL stays the default. */
  providers: NamedProviderConfig[];
};

export interface NamedProviderConfig {
  /** <NAME> in lower case, as callers write it before the slash of a model name. */
  name: string;
  baseURL: string;
  models: string[];
  preflightModel?: string | undefined;
  /** Unset: the spec's rule (`sk-`). */
  keyPrefixes?: readonly string[] | "any" | undefined;
}

/** PROVIDER_<NAME>_<FIELD>; PROVIDER_TIMEOUT_MS is not one (no such field). */
const PROVIDER_VAR = /^PROVIDER_([A-Z0-9][A-Z0-9_]*?)_(BASE_URL|MODELS|PREFLIGHT_MODEL|KEY_PREFIXES)$/;

const NamedProviderSchema = z.object({
  BASE_URL: url,
  MODELS: list(""),
  PREFLIGHT_MODEL: z.string().min(1).optional(),
  KEY_PREFIXES: KeyPrefixes,
});

/** The named providers in the environment, each checked like any other variable. */
function namedProviders(env: Record<string, string>, issues: string[]): NamedProviderConfig[] {
  const fields = new Map<string, Record<string, string>>();
  for (const [key, value] of Object.entries(env)) {
    const m = PROVIDER_VAR.exec(key);
    if (!m) continue;
    const entry = fields.get(m[1]!) ?? {};
    entry[m[2]!] = value;
    fields.set(m[1]!, entry);
  }
  const out: NamedProviderConfig[] = [];
  for (const [NAME, values] of [...fields].sort(([a], [b]) => a.localeCompare(b))) {
    const name = NAME.toLowerCase();
    if (name === "default") {
      issues.push(`  PROVIDER_DEFAULT_*: "default" names the OPENAI_BASE_URL provider; choose another name`);
      continue;
    }
    const parsed = NamedProviderSchema.safeParse(values);
    if (!parsed.success) {
      for (const i of parsed.error.issues) issues.push(`  PROVIDER_${NAME}_${i.path.join(".")}: ${i.message}`);
      continue;
    }
    const p = parsed.data;
    out.push({ name, baseURL: p.BASE_URL.replace(/\/+$/, ""), models: p.MODELS, preflightModel: p.PREFLIGHT_MODEL, keyPrefixes: p.KEY_PREFIXES });
  }
  return out;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** For the process entry points (the service, the MCP stdio server): the configuration, or its message on stderr and exit 2. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset" (docker-compose and .env files produce them).
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = EnvSchema.safeParse(cleaned);
  const issues = parsed.success ? [] : parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
  const providers = namedProviders(cleaned as Record<string, string>, issues);
  if (!parsed.success || issues.length > 0) throw new ConfigError(`Invalid configuration:\n${issues.join("\n")}`);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    dataDir: resolve(e.DATA_DIR),
    // Unset means the prompts/ folder that ships beside src/, wherever the service is started from.
    promptsDir: e.PROMPTS_DIR ? resolve(e.PROMPTS_DIR) : fileURLToPath(new URL("../prompts/", import.meta.url)),
    provider: { baseURL: e.OPENAI_BASE_URL.replace(/\/+$/, ""), timeoutMs: e.PROVIDER_TIMEOUT_MS },
    // The default model is listed first so clients that pick data[0] get it.
    models: [e.DEFAULT_MODEL, ...e.MODELS.filter((m) => m !== e.DEFAULT_MODEL)],
    defaultModel: e.DEFAULT_MODEL,
    preflightModel: e.PREFLIGHT_MODEL,
    agentMaxSteps: e.AGENT_MAX_STEPS,
    preflightMode: e.PREFLIGHT_MODE,
    chromaUrl: e.CHROMA_URL,
    embeddings: e.EMBEDDINGS_BASE_URL
      ? { baseURL: e.EMBEDDINGS_BASE_URL.replace(/\/+$/, ""), apiKey: e.EMBEDDINGS_API_KEY, model: e.EMBEDDINGS_MODEL }
      : undefined,
    corsOrigins: e.CORS_ORIGINS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitRedisUrl: e.RATE_LIMIT_REDIS_URL,
    keyRefusalsPerMinute: e.KEY_REFUSALS_PER_MINUTE,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    requestDeadlineMs: e.REQUEST_DEADLINE_MS,
    trustProxy: e.TRUST_PROXY,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ""),
    studioApiKey: e.STUDIO_API_KEY,
    tracing: e.LANGSMITH_TRACING || e.LANGCHAIN_TRACING_V2,
    apiKeyPrefixes: e.API_KEY_PREFIXES,
    supportReply: e.SUPPORT_REPLY,
    providers,
  };
}
