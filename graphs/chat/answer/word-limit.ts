/**
 * max_words as a hard ceiling on the raw answer (before link conversion). The rule, identical for a
 * whole text and for any chunking of it:
 *   - at most max_words words (a word is a run of non-space characters): the text is unchanged;
 *   - longer: cut after the last sentence end among the last W words of the first max_words words
 *     (W = min(SENTENCE_WINDOW, max_words)); with no sentence end there, cut after word max_words.
 * The window keeps streaming smooth: words before it are always part of the output, so they go out at
 * once, and only the last stretch waits, one sentence at a time.
 */
export const SENTENCE_WINDOW = 40;

/**
 * A care answer (the conversation needs care: preflight-rules.ts needsCare) puts the help line in its
 * first two sentences (prompts/_partials/crisis-first.md asks for it), and the limiter never cuts
 * inside them: the ceiling becomes the end of the second sentence when that lies beyond max_words, up
 * to CARE_EXTRA_WORDS words beyond it (a text with fewer sentence ends gets that much room). Crisis care
 * comes before length; a runaway answer is still bounded. Everything after the second sentence is
 * limited as usual.
 */
export const CARE_SENTENCES = 2;
export const CARE_EXTRA_WORDS = 80;

export interface LimitOptions {
  /** The answer needs care: its first CARE_SENTENCES sentences are kept whole (see above). */
  care?: boolean;
}

interface Word {
  start: number;
  end: number;
  sentenceEnd: boolean;
}

const CLOSERS = /["'”’»)\]*_]+$/u;
const TERMINAL = /[.!?…。！？]$/u;

export function isSentenceEnd(word: string): boolean {
  return TERMINAL.test(word.replace(CLOSERS, ""));
}

function scanWords(text: string): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    words.push({ start: m.index, end: m.index + m[0].length, sentenceEnd: isSentenceEnd(m[0]) });
  }
  return words;
}

function windowOf(maxWords: number): number {
  return Math.min(SENTENCE_WINDOW, maxWords);
}

/** The ceiling for a whole text: max_words, or for a care answer the end of its second sentence (bounded). */
function effectiveLimit(words: readonly Word[], maxWords: number, care: boolean): number {
  if (!care) return maxWords;
  const cap = maxWords + CARE_EXTRA_WORDS;
  let ends = 0;
  for (let i = 0; i < words.length && i < cap; i++) {
    if (words[i]!.sentenceEnd && ++ends === CARE_SENTENCES) return Math.max(maxWords, i + 1);
  }
  return cap;
}

/** Where a text with more than maxWords words is cut (words holds at least maxWords entries). */
function cutEnd(words: Word[], maxWords: number): number {
  for (let i = maxWords - 1; i >= maxWords - windowOf(maxWords); i--) {
    if (words[i]!.sentenceEnd) return words[i]!.end;
  }
  return words[maxWords - 1]!.end;
}

export function limitWords(text: string, maxWords: number, options: LimitOptions = {}): { text: string; cut: boolean } {
  const words = scanWords(text);
  const limit = effectiveLimit(words, maxWords, options.care === true);
  if (words.length <= limit) return { text, cut: false };
  return { text: text.slice(0, cutEnd(words, limit)), cut: true };
}

/**
 * The streaming form of limitWords: push() returns the text that is now certain to be part of the
 * output; the concatenation of every push() and end() equals limitWords(whole text).text. Once the
 * cut is known, push() reports it and the caller stops reading (and aborts the upstream call).
 * Each push scans only the new text (and the word the last chunk left open), so a token-by-token
 * answer costs time in proportion to its length.
 */
export class WordLimiter {
  /** Everything pushed, joined only when the output is read (text) or cut: never copied per push (its length is read without joining). */
  private buffer = "";
  /** buffer from `emitted` on: what push may release next. */
  private held = "";
  /** buffer from `scanFrom` on: the word left open and the new text, all a scan reads. */
  private tail = "";
  private emitted = 0;
  private finished = false;
  /** Words that ended before the buffer's end (complete); never more than the ceiling + 1. */
  private readonly words: Word[] = [];
  /** Where the next scan starts: the start of the open last word, or the buffer's end. */
  private scanFrom = 0;
  private readonly scanner = /\S+/gu;
  cut = false;
  private readonly care: boolean;
  /** A care answer's ceiling once known (the second sentence ended, or the cap was reached). */
  private careLimit: number | undefined;
  private sentenceEnds = 0;

  constructor(
    private readonly maxWords: number,
    options: LimitOptions = {},
  ) {
    this.care = options.care === true;
  }

  /**
   * The ceiling as far as it is known: max_words; for a care answer whose second sentence has not ended
   * yet, a lower bound of effectiveLimit's (it is at least one word past the complete words, up to the
   * cap), so the text released for it is part of the final output and no cut happens before it is known.
   */
  private limit(complete: number): number {
    if (!this.care) return this.maxWords;
    if (this.careLimit !== undefined) return this.careLimit;
    return Math.max(this.maxWords, Math.min(complete + 1, this.maxWords + CARE_EXTRA_WORDS));
  }

  /** The output so far (the whole output once end() ran or a cut happened). */
  get text(): string {
    return this.buffer.slice(0, this.emitted);
  }

  push(chunk: string): { text: string; cut: boolean } {
    if (this.finished) return { text: "", cut: this.cut };
    // A regular expression or slice over the growing whole would copy it flat at every push (a
    // quadratic of the answer's length in garbage): scans and releases read the short strings instead.
    this.buffer += chunk;
    this.held += chunk;
    this.tail += chunk;
    const open = this.scan();
    const complete = this.words.length;
    const total = complete + (open ? 1 : 0);
    const word = (i: number): Word => (i < complete ? this.words[i]! : open!);
    const limit = this.limit(complete);
    if (total > limit && complete >= limit) {
      // Word limit + 1 has begun, so the text will be cut, and every word that decides where is known.
      this.cut = true;
      return { text: this.release(cutEnd(this.words, limit), true), cut: true };
    }
    return { text: this.release(this.safeEnd(word, complete, total, limit), false), cut: false };
  }

  end(): string {
    if (this.finished) return "";
    return this.release(this.buffer.length, true);
  }

  /** Reads the words that the new text completed; returns the word still open at the end, if any. */
  private scan(): Word | undefined {
    const re = this.scanner;
    const from = this.scanFrom;
    re.lastIndex = 0;
    let open: Word | undefined;
    // The tail starts at a word's start or at the old end, so it holds the same words as the whole from there.
    for (let m = re.exec(this.tail); m !== null; m = re.exec(this.tail)) {
      const w: Word = { start: from + m.index, end: from + m.index + m[0].length, sentenceEnd: isSentenceEnd(m[0]) };
      if (w.end < this.buffer.length) {
        this.words.push(w);
        if (this.care && this.careLimit === undefined) this.resolveCare(w);
      } else open = w;
    }
    this.scanFrom = open ? open.start : this.buffer.length;
    this.tail = open ? this.tail.slice(open.start - from) : "";
    return open;
  }

  /** A care answer's ceiling is known when its second sentence ends or its words reach the cap (as effectiveLimit). */
  private resolveCare(w: Word): void {
    const cap = this.maxWords + CARE_EXTRA_WORDS;
    const i = this.words.length - 1;
    if (i >= cap) this.careLimit = cap;
    else if (w.sentenceEnd && ++this.sentenceEnds === CARE_SENTENCES) this.careLimit = Math.max(this.maxWords, i + 1);
    else if (i + 1 >= cap) this.careLimit = cap;
  }

  private safeEnd(word: (i: number) => Word, complete: number, total: number, limit: number): number {
    const free = limit - windowOf(limit);
    let safe: number;
    if (complete <= free) safe = complete < total ? word(complete).start : this.buffer.length;
    else safe = word(free).start;
    for (let i = Math.min(complete, limit) - 1; i >= free; i--) {
      if (word(i).sentenceEnd) {
        safe = Math.max(safe, word(i).end);
        break;
      }
    }
    return safe;
  }

  private release(upTo: number, final: boolean): string {
    if (final) this.finished = true;
    if (upTo <= this.emitted) {
      if (final) this.buffer = this.buffer.slice(0, this.emitted);
      return "";
    }
    const out = this.held.slice(0, upTo - this.emitted);
    this.held = this.held.slice(upTo - this.emitted);
    this.emitted = upTo;
    if (final) this.buffer = this.buffer.slice(0, upTo);
    return out;
  }
}
