import type { Bible } from "../../../src/scripture/corpus.js";
import type { LinkOptions } from "../../../src/scripture/links.js";
import { buildCitations, createQuoteStream, type Citation, type QuoteOutcome, type QuoteStream } from "../../../src/scripture/quotes/index.js";
import type { ScriptureRef } from "../../../src/scripture/references.js";
import { findTranslation } from "../../../src/scripture/translations.js";
import type { ChatRequestContext } from "../contract.js";
import type { ChatDeps } from "../deps.js";

/** A link converter as the graph receives it (deps.links): src/scripture/links.ts in the service. */
export interface LinkConverter {
  push(chunk: string): string;
  flush(): string;
  /** The passages linked so far, in order. */
  readonly linked?: readonly ScriptureRef[];
}

export interface GroundingOptions {
  /** The caller's translation; quotations are checked against it. */
  bible: Bible | undefined;
  /** The shipped translations: a quotation the answer gives in one by name ("the KJV reads") is checked against it. */
  bibles?: { get(id: string): Bible | undefined };
  bibleId: string;
  lang: "en" | "es";
  /** PUBLIC_BASE_URL: absolute links and citation URLs. */
  baseUrl?: string | undefined;
  /** verify_quotes (default true). */
  verifyQuotes: boolean;
  /** Links in the text sent; the converter still runs when off, to list the citations. */
  convertLinks: boolean;
  createLinkStream(options: LinkOptions): LinkConverter;
  /** Told when link conversion fails (the rest of the answer then goes out without links). */
  onLinkError?: (err: unknown) => void;
}

/** What the answer's text became: the checked, linked content and the scripture it cites. */
export interface Grounded {
  content: string;
  citations: Citation[];
  quotes: QuoteOutcome[];
}

/**
 * The answer text after the word limit: quotation check -> link conversion. Both stages are
 * streaming transformers proven equal to their whole-text forms, so this one is too; the same object
 * serves the streamed path (push/flush) and the whole-text path (groundText).
 */
// Undoes our own link markup, to find how much checked text a converted prefix stood for.
function unlink(text: string): string {
  // Bounded link text without "[" and a bounded base URL: linear on "[[[[..." (docs/reliability.md).
  return text.replace(/\[([^[\]\n]{1,200})\]\((?:https?:\/\/[^)\s]{0,200}?)?\/read\/[^)\s]*\)/g, "$1");
}

export class GroundedText {
  private readonly quotes: QuoteStream | undefined;
  private links: LinkConverter | undefined;
  private linked: readonly ScriptureRef[] = [];
  private checked = "";
  private converted = "";

  constructor(private readonly options: GroundingOptions) {
    this.quotes = options.verifyQuotes && options.bible !== undefined ? createQuoteStream({ bible: options.bible, bibles: options.bibles }) : undefined;
    this.links = options.createLinkStream({ bibleId: options.bibleId, baseUrl: options.baseUrl });
  }

  push(text: string): string {
    return this.link(this.quotes ? this.quotes.push(text) : text, false);
  }

  flush(): string {
    const rest = this.quotes ? this.quotes.flush() : "";
    return this.link(rest, true);
  }

  /** After flush(): the passages cited, in order of first appearance. */
  citations(): Citation[] {
    return buildCitations(this.links?.linked ?? this.linked, this.quoteOutcomes(), {
      bibleId: this.options.bibleId,
      baseUrl: this.options.baseUrl,
      lang: this.options.lang,
    });
  }

  quoteOutcomes(): QuoteOutcome[] {
    return this.quotes ? [...this.quotes.quotes] : [];
  }

  private link(text: string, final: boolean): string {
    this.checked += text;
    if (this.links === undefined) return text;
    try {
      const linked = (text ? this.links.push(text) : "") + (final ? this.links.flush() : "");
      this.converted += linked;
      return this.options.convertLinks ? linked : text;
    } catch (err) {
      this.options.onLinkError?.(err);
      this.linked = this.links.linked ?? [];
      this.links = undefined;
      if (!this.options.convertLinks) return text;
      // What the converter still held goes out plain.
      const plain = unlink(this.converted);
      return this.checked.startsWith(plain) ? this.checked.slice(plain.length) : text;
    }
  }
}

/** The whole-text form: what the streamed path sends, in one piece. */
export function groundText(text: string, options: GroundingOptions): Grounded {
  const grounded = new GroundedText(options);
  const content = grounded.push(text) + grounded.flush();
  return { content, citations: grounded.citations(), quotes: grounded.quoteOutcomes() };
}

/** The grounding of one request's answer: its translation, switches and the service's link settings. */
export function groundingOptions(ctx: ChatRequestContext, deps: Pick<ChatDeps, "bibles" | "links" | "logger" | "publicBaseUrl">): GroundingOptions {
  return {
    bible: deps.bibles.get(ctx.bibleId),
    bibles: deps.bibles,
    bibleId: ctx.bibleId,
    lang: findTranslation(ctx.bibleId)?.language.startsWith("es") ? "es" : "en",
    baseUrl: deps.publicBaseUrl,
    verifyQuotes: ctx.verifyQuotes,
    convertLinks: ctx.convertLinks,
    createLinkStream: (options) => deps.links.createLinkStream(options),
    onLinkError: (err) =>
      deps.logger?.error({ err: { name: (err as Error)?.name, message: (err as Error)?.message } }, "link conversion failed; sending plain text"),
  };
}
