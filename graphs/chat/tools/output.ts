import type { RefItem } from "../../../src/study/passage-refs.js";
import { readerUrl, type LinkOptions } from "../../../src/scripture/links.js";
import type { ScriptureRef } from "../../../src/scripture/references.js";

/**
 * What a tool says when the call itself was wrong or could not be served (not a reference, an unknown
 * book, search down). The agent reads it as text like any other result; an MCP client sees a tool
 * error (isError). An empty result (no verse contains the phrase) is an answer, not a problem.
 */
export class ToolProblem {
  constructor(readonly text: string) {}
}

export type ToolOutput = string | ToolProblem;

export const toolText = (out: ToolOutput): string => (typeof out === "string" ? out : out.text);

/**
 * How a tool prints a reference it names: the agent's tools print the plain label (links are added to
 * the answer later); the MCP tools print a markdown link to the reader, so an assistant can cite it.
 */
export type RefLabel = (label: string, target: ScriptureRef | Pick<RefItem, "url">, bibleId?: string) => string;

export const plainLabel: RefLabel = (label) => label;

/** Reader links as everywhere else (readerUrl): `&bible_id=` unless the default, absolute with PUBLIC_BASE_URL. */
export function readerLinkLabel(baseUrl: LinkOptions["baseUrl"]): RefLabel {
  const base = baseUrl?.replace(/\/+$/, "");
  return (label, target, bibleId) => {
    const url = "url" in target ? (base && target.url.startsWith("/") ? `${base}${target.url}` : target.url) : readerUrl(target, { bibleId, baseUrl });
    return `[${label}](${url})`;
  };
}
