import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { z } from "zod";
import type { ChatDeps } from "../../graphs/chat/deps.js";
import { readerLinkLabel, type RefLabel } from "../../graphs/chat/tools/output.js";
import { DEFAULT_TRANSLATION_ID } from "../scripture/translations.js";

/** What the MCP tools read: the chat runtime's deps (the same search, corpus, references and study data the agent uses). */
export type McpDeps = Pick<ChatDeps, "search" | "bibles" | "references" | "study" | "logger" | "publicBaseUrl"> & {
  /** Settles when the search index is loaded (first run: built); search tools wait for it, bounded. */
  indexed?: Promise<unknown>;
};

/** The longest a search call waits for an index still loading or being built before saying it is unavailable. */
const INDEX_WAIT_MS = 30_000;

/** Everything a tool handler needs, built once per deps: the schemas convert zod once, not per request. */
export interface McpCatalog {
  deps: McpDeps;
  label: RefLabel;
  ids: readonly string[];
  translation: z.ZodOptional<z.ZodEnum<Record<string, string>>>;
  waitForIndex(): Promise<void>;
  /**
   * The SDK's JSON Schema validator (for elicitation, which these tools never use), shared by every
   * per-request server: each server would otherwise build its own Ajv, most of a server's cost.
   */
  validator: AjvJsonSchemaValidator;
}

const catalogs = new WeakMap<McpDeps, McpCatalog>();

/** The catalog of these deps (one per deps object). */
export function catalogOf(deps: McpDeps): McpCatalog {
  let catalog = catalogs.get(deps);
  if (catalog) return catalog;
  const ids = deps.bibles.ids();
  let ready = deps.indexed === undefined;
  deps.indexed?.then(
    () => (ready = true),
    () => (ready = true),
  );
  catalog = {
    deps,
    ids,
    label: readerLinkLabel(deps.publicBaseUrl),
    validator: new AjvJsonSchemaValidator(),
    translation: z
      .enum(ids as [string, ...string[]])
      .optional()
      .describe(`Translation of the text: ${ids.join(", ")} (default ${DEFAULT_TRANSLATION_ID}).`),
    async waitForIndex() {
      if (ready) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([deps.indexed!.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, INDEX_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
  catalogs.set(deps, catalog);
  return catalog;
}

