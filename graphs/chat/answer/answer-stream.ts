import { type Grounded, GroundedText, type GroundingOptions } from "./grounding.js";
import { type LimitOptions, WordLimiter } from "./word-limit.js";

/** What the agent node writes to LangGraph's "custom" stream: answer text in its final form. */
export interface AnswerEvent {
  kind: "answer";
  text: string;
}

/**
 * The run config's `configurable` key under which a caller may pass its delta listener directly, or null
 * when nothing reads the pieces (a non-stream request): the answer is then grounded once, whole, at its end.
 */
export const ANSWER_SINK = "answerSink";

/**
 * The answer's way out while it streams: raw text -> word limit -> quotation check -> link conversion
 * -> emit. The pieces emitted add up to exactly what the convertLinks node makes of the whole answer,
 * because every stage (WordLimiter, GroundedText's quotation and link streams) is proven equal to its
 * whole-text form. If link conversion throws, the rest of the answer goes out without links and the
 * fault is logged.
 * With no listener (`emit` null: nothing reads the pieces) the word limit still runs on every piece, so a
 * cut still stops the reading at once, but the limited text is grounded in one piece at the end: the same
 * content (each stage equals its whole-text form), without checking an open quotation again at each of
 * the provider's events.
 */
export class AnswerStream {
  private readonly limiter: WordLimiter;
  private readonly grounded: GroundedText;
  private content = "";
  /** With no listener: the limited text not grounded yet. */
  private held = "";
  private finished = false;

  constructor(
    maxWords: number,
    grounding: GroundingOptions,
    private readonly emit: ((text: string) => void) | null,
    limits: LimitOptions = {},
  ) {
    this.limiter = new WordLimiter(maxWords, limits);
    this.grounded = new GroundedText(grounding);
  }

  /** Raw answer text in; true once the word limit cut the answer (the caller stops reading). */
  push(raw: string): boolean {
    const r = this.limiter.push(raw);
    if (r.text) this.ground(r.text);
    if (r.cut) this.end();
    return r.cut;
  }

  finish(): void {
    const rest = this.limiter.end();
    if (rest) this.ground(rest);
    this.end();
  }

  /** The raw answer as limited: what the state keeps. */
  get text(): string {
    return this.limiter.text;
  }

  get cut(): boolean {
    return this.limiter.cut;
  }

  /** After finish(): what the caller receives (quotations checked, links converted when on) and what it cites. */
  get grounding(): Grounded {
    return { content: this.content, citations: this.grounded.citations(), quotes: this.grounded.quoteOutcomes() };
  }

  private ground(text: string): void {
    if (this.emit === null) this.held += text;
    else this.out(this.grounded.push(text));
  }

  private end(): void {
    if (this.finished) return;
    this.finished = true;
    const held = this.held;
    this.held = "";
    this.out((held ? this.grounded.push(held) : "") + this.grounded.flush());
  }

  private out(text: string): void {
    if (!text) return;
    this.content += text;
    this.emit?.(text);
  }
}
