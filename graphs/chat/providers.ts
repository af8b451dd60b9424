/**
 * The model providers one deployment speaks to, and the one rule that picks a provider for a request:
 * a model named `<name>/<model>` with a configured `<name>` goes to that provider as `<model>`; any other
 * model name goes whole to the default provider (OPENAI_BASE_URL), so `openai/gpt-4o` still reaches an
 * OpenRouter default unchanged. Only configuration names base URLs: no request field can add one.
 */

/**
 * The shape a caller's key must have: the prefixes it may start with, or "any" non-empty key. The
 * spec's rule is `sk-` (OpenAI's keys). An operator whose provider issues other keys (Groq's `gsk_`, a
 * local server that takes any) widens it with API_KEY_PREFIXES (src/config.ts reads it). The request
 * contract's checkApiKey (contract.ts) applies it: it only turns away keys that cannot be right before
 * the provider is asked; the provider judges the key. It lives here, below the contract, because each
 * provider carries its own rule.
 */
export type ApiKeyRule = readonly string[] | "any";
export const DEFAULT_API_KEY_PREFIXES: ApiKeyRule = ["sk-"];

/** The default provider's name in logs, metrics and the route: the one behind OPENAI_BASE_URL. */
export const DEFAULT_PROVIDER = "default";

export interface ProviderSpec {
  /** `default`, or the lower-case `<name>` of PROVIDER_<NAME>_BASE_URL. */
  name: string;
  /** Including /v1 or the provider's OpenAI-compatible path. */
  baseURL: string;
  /** Listed by /v1/models (as `<name>/<model>` for a named provider). */
  models: readonly string[];
  /** The classifier's model on this provider; unset: the requested model. */
  preflightModel?: string | undefined;
  /** The key shapes this provider issues. */
  keyRule: ApiKeyRule;
}

/** Where one request goes: the provider and the model name that provider knows. */
export interface ProviderRoute {
  provider: ProviderSpec;
  /** The model as the provider names it (the caller's name without `<name>/`). */
  model: string;
}

export interface ProviderTable {
  readonly default: ProviderSpec;
  /** Every provider, the default first. */
  all(): readonly ProviderSpec[];
  byName(name: string): ProviderSpec | undefined;
  route(model: string): ProviderRoute;
  /** Every listed model as a caller names it. */
  listedModels(): string[];
}

/** Provider names as they appear in model names: lower-case letters, digits, '-' and '_'. */
export const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]*$/;

export function providerTable(defaultProvider: ProviderSpec, named: readonly ProviderSpec[] = []): ProviderTable {
  const byName = new Map<string, ProviderSpec>();
  for (const p of named) {
    if (p.name === DEFAULT_PROVIDER || !PROVIDER_NAME.test(p.name)) throw new Error(`invalid provider name '${p.name}'`);
    if (byName.has(p.name)) throw new Error(`provider '${p.name}' is configured twice`);
    byName.set(p.name, p);
  }
  const all = [defaultProvider, ...named];
  return {
    default: defaultProvider,
    all: () => all,
    byName: (name) => (name === DEFAULT_PROVIDER ? defaultProvider : byName.get(name)),
    route(model) {
      const slash = model.indexOf("/");
      if (slash > 0 && slash < model.length - 1) {
        const provider = byName.get(model.slice(0, slash));
        if (provider) return { provider, model: model.slice(slash + 1) };
      }
      return { provider: defaultProvider, model };
    },
    listedModels: () => [...defaultProvider.models, ...named.flatMap((p) => p.models.map((m) => `${p.name}/${m}`))],
  };
}
