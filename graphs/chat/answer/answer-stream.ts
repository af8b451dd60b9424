import type { GraphLogger, LinkTools } from "../deps.js";
import { WordLimiter } from "./word-limit.js";

/** What the agent node writes to LangGraph's "custom" stream: answer text in its final form. */
export interface AnswerEvent {
  kind: "answer";
  text: string;
}

export function isAnswerEvent(value: unknown): value is AnswerEvent {
  return typeof value === "object" && value !== null && (value as AnswerEvent).kind === "answer";
}

/** Undoes our own link markup, to find how much raw text a converted prefix stood for. */
function unlink(text: string): string {
  return text.replace(/\[([^\]]+)\]\(\/read\/[^)\s]*\)/g, "$1");
}

/**
 * The answer's way out while it streams: raw text -> word limit -> link conversion -> emit. The
 * pieces emitted add up to exactly what the convertLinks node makes of the whole answer, because
 * both halves (WordLimiter, createLinkStream) are proven equal to their whole-text forms. If link
 * conversion throws, the rest of the answer goes out plain and the fault is logged.
 */
export class AnswerStream {
  private readonly limiter: WordLimiter;
  private links: ReturnType<LinkTools["createLinkStream"]> | undefined;
  private readonly linksOn: boolean;
  private released = "";
  private converted = "";
  private linksFailed = false;

  constructor(
    maxWords: number,
    links: LinkTools | null,
    private readonly emit: (text: string) => void,
    private readonly logger?: GraphLogger,
  ) {
    this.limiter = new WordLimiter(maxWords);
    this.links = links?.createLinkStream();
    this.linksOn = this.links !== undefined;
  }

  /** Raw answer text in; true once the word limit cut the answer (the caller stops reading). */
  push(raw: string): boolean {
    const r = this.limiter.push(raw);
    this.forward(r.text);
    if (r.cut) this.flushLinks();
    return r.cut;
  }

  finish(): void {
    this.forward(this.limiter.end());
    this.flushLinks();
  }

  /** The raw answer as limited: what the state keeps and the convertLinks node converts. */
  get text(): string {
    return this.limiter.text;
  }

  get cut(): boolean {
    return this.limiter.cut;
  }

  /**
   * After finish(): the converted answer, equal to convertLinks(text), so the convertLinks node need
   * not parse the answer a second time; undefined when links were off or conversion failed.
   */
  get linked(): string | undefined {
    return this.linksOn && !this.linksFailed ? this.converted : undefined;
  }

  private forward(raw: string): void {
    if (!raw) return;
    this.released += raw;
    if (!this.links) return this.emit(raw);
    try {
      this.out(this.links.push(raw));
    } catch (err) {
      this.fallBack(err);
    }
  }

  private flushLinks(): void {
    if (!this.links) return;
    try {
      this.out(this.links.flush());
    } catch (err) {
      this.fallBack(err);
    }
    this.links = undefined;
  }

  private out(text: string): void {
    if (!text) return;
    this.converted += text;
    this.emit(text);
  }

  private fallBack(err: unknown): void {
    this.logger?.error({ err: { name: (err as Error)?.name, message: (err as Error)?.message } }, "link conversion failed; sending plain text");
    this.links = undefined;
    this.linksFailed = true;
    const plain = unlink(this.converted);
    if (this.released.startsWith(plain)) this.emit(this.released.slice(plain.length));
  }
}
