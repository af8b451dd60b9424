/**
 * Decides, while one agent turn streams, whether its text is the answer. Models often say something
 * ("Let me look that up.") before calling a tool; that text must never reach the caller.
 *
 * The first turn of a request (no tool result yet) is usually a tool turn, so its text is held back
 * until one of:
 *   - a tool call appears: the held text is dropped and the turn is a tool turn;
 *   - the turn ends without a tool call: the held text is the answer;
 *   - the held text reaches HOLD_CHARS and contains a sentence end: the turn becomes the answer turn
 *     from there on, its text streams, and a tool call that follows is dropped;
 *   - the provider fails or stalls mid-turn (release()): what it said so far goes out before the error,
 *     so a stream that stalls after two sentences shows them rather than nothing.
 * A turn after a tool round is almost always the answer, and its first words should not wait: it
 * streams at once (mode "stream"). It is still a tool turn when its tool call comes before any text
 * (the usual shape of a second search); a tool call that follows text already sent is dropped as
 * above. A turn that cannot call tools (tool_choice "none", mode "answer") streams at once and is
 * never a tool turn.
 * Both the streaming and the non-streaming path run through this gate, so they answer alike.
 */
export const HOLD_CHARS = 200;

const SENTENCE_END = /[.!?…。！？]["'”’»)\]*_]*(\s|$)/u;

export class TurnGate {
  private held = "";
  private committed: boolean;
  /** Whether a tool call may still make this a tool turn once text streams (mode "stream", until text goes out). */
  private openToTools: boolean;
  private toolCall = false;
  /** The model asked for a tool in this turn, whether or not the call is honoured. */
  calledTools = false;

  /**
   * "hold" for a turn that may well call tools (the first); "stream" for one that is almost surely the
   * answer (after a tool round); "answer" (or false) for one that cannot call tools (tool_choice "none").
   */
  constructor(mode: "hold" | "stream" | "answer" | boolean = "hold") {
    this.committed = mode === "stream" || mode === "answer" || mode === false;
    this.openToTools = mode === "stream";
  }

  /** Text to release to the answer now (empty while held or dropped). */
  text(piece: string): string {
    if (this.toolCall) return "";
    if (this.committed) {
      if (piece) this.openToTools = false;
      return piece;
    }
    this.held += piece;
    if (this.held.length >= HOLD_CHARS && SENTENCE_END.test(this.held)) return this.commit();
    return "";
  }

  toolCallSeen(): void {
    this.calledTools = true;
    if (this.committed && !this.openToTools) return;
    this.toolCall = true;
    this.held = "";
  }

  /** At the end of the turn: whatever is still held, when this is the answer turn. */
  end(): string {
    return this.toolCall ? "" : this.commit();
  }

  /** The turn failed before it was decided: the text held so far, which the caller sees before the error. */
  release(): string {
    return this.toolCall || this.committed ? "" : this.commit();
  }

  /** A tool turn: the model asked for tools before its text became the answer. */
  get isToolTurn(): boolean {
    return this.toolCall;
  }

  /** The answer turn committed early, so tool calls it makes later are ignored. */
  get isAnswerTurn(): boolean {
    return this.committed;
  }

  private commit(): string {
    this.committed = true;
    const out = this.held;
    this.held = "";
    return out;
  }
}
