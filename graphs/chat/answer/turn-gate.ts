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
 * A turn after a tool round (the service's prefetched retrieval counts as one, so this is usually the
 * first turn) is almost always the answer, and its first words should not wait: it streams from its
 * first word (mode "stream"), unless that word can open the formulaic chatter models write before a
 * call ("Let me look that up", "I'll search", "Un momento", CHATTER_OPENING): then the gate waits for
 * the first few words, and text that opens that way is held as in the first mode. It is still a tool
 * turn when its tool call comes before any text has gone out (the usual shape of a second search); a
 * tool call that follows text already sent is dropped as above. A turn that cannot call tools
 * (tool_choice "none", mode "answer") streams at once and is never a tool turn.
 * Both the streaming and the non-streaming path run through this gate, so they answer alike.
 */
export const HOLD_CHARS = 200;

const SENTENCE_END = /[.!?…。！？]["'”’»)\]*_]*(\s|$)/u;

/** How models open the text they write before calling a tool, in the service's languages (lower case, straight apostrophes). */
export const CHATTER_OPENING =
  /^(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|i need to|i'd like to|one moment|just a moment|give me a moment|allow me|first,? (?:i|let)|to answer (?:this|that|your)|(?:okay|ok|sure|alright),? (?:let|i'll|i will)|voy a|déjame|dejame|permíteme|permiteme|un momento|primero,? (?:voy|déjame|dejame|busco|buscaré)|buscaré|busquemos|vamos a buscar)\b/u;

/** First words CHATTER_OPENING can start with: any other first word is the answer's. */
const CHATTER_FIRST_WORDS = new Set(["let", "let's", "i'll", "i", "i'm", "i'd", "one", "just", "give", "allow", "first", "first,", "to", "okay", "okay,", "ok", "ok,", "sure", "sure,", "alright", "alright,", "voy", "déjame", "dejame", "permíteme", "permiteme", "un", "primero", "primero,", "buscaré", "busquemos", "vamos"]);

/** Words (or characters) after which an opening is decided either way. */
const OPENING_WORDS = 4;
const OPENING_CHARS = 40;

/** Whether the turn's opening text reads as chatter, as the answer, or cannot tell yet. */
export function readOpening(text: string): "chatter" | "answer" | "undecided" {
  const opening = text.trimStart().toLowerCase().replace(/[’‘]/g, "'");
  const words = opening.split(/\s+/).filter(Boolean);
  const complete = /\s$/.test(opening) ? words.length : words.length - 1;
  if (complete === 0 && opening.length < OPENING_CHARS && !SENTENCE_END.test(opening)) return "undecided";
  if (!CHATTER_FIRST_WORDS.has(words[0]!)) return "answer";
  if (CHATTER_OPENING.test(opening)) return "chatter";
  const decided = complete >= OPENING_WORDS || opening.length >= OPENING_CHARS || SENTENCE_END.test(opening);
  return decided ? "answer" : "undecided";
}

export class TurnGate {
  private held = "";
  private committed: boolean;
  /** Whether a tool call may still make this a tool turn once text streams (mode "stream", until text goes out). */
  private openToTools: boolean;
  /** Mode "stream" before its opening words are read (readOpening). */
  private opening: boolean;
  private toolCall = false;
  /** The model asked for a tool in this turn, whether or not the call is honoured. */
  calledTools = false;

  /**
   * "hold" for a turn that may well call tools (the first); "stream" for one that is almost surely the
   * answer (after a tool round); "answer" (or false) for one that cannot call tools (tool_choice "none").
   */
  constructor(mode: "hold" | "stream" | "answer" | boolean = "hold") {
    this.committed = mode === "answer" || mode === false;
    this.openToTools = mode === "stream";
    this.opening = mode === "stream";
  }

  /** Text to release to the answer now (empty while held or dropped). */
  text(piece: string): string {
    if (this.toolCall) return "";
    if (this.committed) {
      if (piece) this.openToTools = false;
      return piece;
    }
    this.held += piece;
    if (this.opening) {
      const read = readOpening(this.held);
      if (read === "undecided") return "";
      this.opening = false;
      // The answer's first words go out now; chatter's are held as in a first turn.
      if (read === "answer") return this.text(this.commit());
    }
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
