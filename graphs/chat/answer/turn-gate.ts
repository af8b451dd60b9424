/**
 * Decides, while one agent turn streams, whether its text is the answer. Models often say something
 * ("Let me look that up.") before calling a tool; that text must never reach the caller. So a turn's
 * text is held back until one of:
 *   - a tool call appears: the held text is dropped and the turn is a tool turn;
 *   - the turn ends without a tool call: the held text is the answer;
 *   - the held text reaches HOLD_CHARS and contains a sentence end: the turn becomes the answer turn
 *     from there on, its text streams, and a tool call that follows is dropped.
 * Both the streaming and the non-streaming path run through this gate, so they answer alike.
 */
export const HOLD_CHARS = 200;

const SENTENCE_END = /[.!?…。！？]["'”’»)\]*_]*(\s|$)/u;

export class TurnGate {
  private held = "";
  private committed: boolean;
  private toolCall = false;
  /** The model asked for a tool in this turn, whether or not the call is honoured. */
  calledTools = false;

  /** toolsPossible false (tool_choice "none"): the turn can only answer, so nothing is held. */
  constructor(toolsPossible = true) {
    this.committed = !toolsPossible;
  }

  /** Text to release to the answer now (empty while held or dropped). */
  text(piece: string): string {
    if (this.toolCall) return "";
    if (this.committed) return piece;
    this.held += piece;
    if (this.held.length >= HOLD_CHARS && SENTENCE_END.test(this.held)) return this.commit();
    return "";
  }

  toolCallSeen(): void {
    this.calledTools = true;
    if (this.committed) return;
    this.toolCall = true;
    this.held = "";
  }

  /** At the end of the turn: whatever is still held, when this is the answer turn. */
  end(): string {
    return this.toolCall ? "" : this.commit();
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
