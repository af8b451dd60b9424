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

/** Where a text with more than maxWords words is cut (words holds at least maxWords entries). */
function cutEnd(words: Word[], maxWords: number): number {
  for (let i = maxWords - 1; i >= maxWords - windowOf(maxWords); i--) {
    if (words[i]!.sentenceEnd) return words[i]!.end;
  }
  return words[maxWords - 1]!.end;
}

export function limitWords(text: string, maxWords: number): { text: string; cut: boolean } {
  const words = scanWords(text);
  if (words.length <= maxWords) return { text, cut: false };
  return { text: text.slice(0, cutEnd(words, maxWords)), cut: true };
}

/**
 * The streaming form of limitWords: push() returns the text that is now certain to be part of the
 * output; the concatenation of every push() and end() equals limitWords(whole text).text. Once the
 * cut is known, push() reports it and the caller stops reading (and aborts the upstream call).
 * Each push scans only the new text (and the word the last chunk left open), so a token-by-token
 * answer costs time in proportion to its length.
 */
export class WordLimiter {
  private buffer = "";
  private emitted = 0;
  private finished = false;
  /** Words that ended before the buffer's end (complete); never more than maxWords + 1. */
  private readonly words: Word[] = [];
  /** Where the next scan starts: the start of the open last word, or the buffer's end. */
  private scanFrom = 0;
  private readonly scanner = /\S+/gu;
  cut = false;

  constructor(private readonly maxWords: number) {}

  /** The output so far (the whole output once end() ran or a cut happened). */
  get text(): string {
    return this.buffer.slice(0, this.emitted);
  }

  push(chunk: string): { text: string; cut: boolean } {
    if (this.finished) return { text: "", cut: this.cut };
    this.buffer += chunk;
    const open = this.scan();
    const complete = this.words.length;
    const total = complete + (open ? 1 : 0);
    const word = (i: number): Word => (i < complete ? this.words[i]! : open!);
    if (total > this.maxWords && complete >= this.maxWords) {
      // Word max_words + 1 has begun, so the text will be cut, and every word that decides where is known.
      this.cut = true;
      return { text: this.release(cutEnd(this.words, this.maxWords), true), cut: true };
    }
    return { text: this.release(this.safeEnd(word, complete, total), false), cut: false };
  }

  end(): string {
    if (this.finished) return "";
    return this.release(this.buffer.length, true);
  }

  /** Reads the words that the new text completed; returns the word still open at the end, if any. */
  private scan(): Word | undefined {
    const re = this.scanner;
    re.lastIndex = this.scanFrom;
    let open: Word | undefined;
    for (let m = re.exec(this.buffer); m !== null; m = re.exec(this.buffer)) {
      const w: Word = { start: m.index, end: m.index + m[0].length, sentenceEnd: isSentenceEnd(m[0]) };
      if (w.end < this.buffer.length) this.words.push(w);
      else open = w;
    }
    this.scanFrom = open ? open.start : this.buffer.length;
    return open;
  }

  private safeEnd(word: (i: number) => Word, complete: number, total: number): number {
    const free = this.maxWords - windowOf(this.maxWords);
    let safe: number;
    if (complete <= free) safe = complete < total ? word(complete).start : this.buffer.length;
    else safe = word(free).start;
    for (let i = Math.min(complete, this.maxWords) - 1; i >= free; i--) {
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
    const out = this.buffer.slice(this.emitted, upTo);
    this.emitted = upTo;
    if (final) this.buffer = this.buffer.slice(0, upTo);
    return out;
  }
}
