import { APIError } from "openai";
import type { ProviderResponse } from "./provider-fetch.js";

/**
 * The agent's event stream read as the openai SDK's `Stream.fromSSEResponse` reads it, without its
 * chain of three async generators per event (`iterSSEChunks`, `_iterSSEMessages`, `iterator`) and the
 * byte copies between them: each read of the body is decoded and split into events at once, and the
 * events are handed out by a plain iterator, one resolved promise each. Every promise made while
 * LangGraph's AsyncLocalStorage is active pays Node's async-hook bookkeeping; the SDK's chain made about
 * six a streamed event (docs/performance.md, session 13).
 *
 * What the SDK does, done the same way (test/unit/provider-sse.test.ts compares the two on the same
 * bytes in many chunkings):
 * - lines end at "\n", "\r\n" or a lone "\r" (its LineDecoder: a "\r" is a line end once the next
 *   character is known not to be "\n"); a line's trailing "\r" is dropped;
 * - an empty line ends an event (when it has a field); ":" lines are comments; "event" and "data" fields
 *   are read ("data" lines joined by "\n"), one space after the colon dropped, other fields ignored;
 * - an event whose data starts with "[DONE]" ends the answer: later events are read and dropped;
 * - any other event's data is JSON: a parse failure is thrown; a payload with `error` is thrown as the
 *   SDK's APIError (no status, the body's error, the response's headers); an event named "thread.*"
 *   is handed out as `{event, data}`;
 * - a read that fails with an AbortError (the caller's or the deadline's abort) ends the stream quietly;
 *   any other failure is thrown;
 * - when the reader stops before the end (a break, or one of the failures above), the body is cancelled,
 *   which closes the provider's connection (provider-fetch.ts), as the SDK's abort of its request does.
 *   (The SDK also writes a JSON parse failure's data to its logger; here the error alone is thrown.)
 */
export function sseEvents<T>(response: ProviderResponse): AsyncIterableIterator<T> {
  const body = response.body;
  if (!body) throw new Error("the provider's event stream has no body");
  const reader = body.getReader();
  // BOMs kept here and dropped at each line's start, as the SDK's decoding of each line on its own does.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  // Decoded events not yet handed out; DONE_MARK stands where "[DONE]" was, so that the reader is "done"
  // (and a stop then leaves the body alone) only once it has reached that point, as in the SDK.
  const ready: unknown[] = [];
  let taken = 0;
  // Line state (the SDK's LineDecoder, over characters: "\r" and "\n" are single bytes in UTF-8).
  let buffer = "";
  /** Reads that ended no line yet, joined to `buffer` when a line end arrives. */
  const open: string[] = [];
  let carriage: number | null = null;
  // Event state (the SDK's SSEDecoder).
  let event: string | null = null;
  const data: string[] = [];
  /** "[DONE]" decoded: later events are dropped. */
  let doneRead = false;
  /** "[DONE]" reached by the reader, or the body's end: the SDK's `done`. */
  let done = false;
  let ended = false;
  let closed = false;
  /** A failure met while decoding a read: thrown once the events before it are handed out. */
  let failure: { err: unknown } | undefined;

  const dispatch = (): void => {
    // The SDK's test (an "event:" with an empty name and no data is no event, and resets nothing).
    if (!event && data.length === 0) return;
    const name = event;
    const text = data.length === 1 ? (data[0] as string) : data.join("\n");
    event = null;
    data.length = 0;
    if (doneRead) return;
    if (text.startsWith("[DONE]")) {
      doneRead = true;
      ready.push(DONE_MARK);
      return;
    }
    const parsed = JSON.parse(text) as { error?: unknown } | null;
    if (name === null || !name.startsWith("thread.")) {
      if (parsed && parsed.error) throw new APIError(undefined, parsed.error as object, undefined, response.headers);
      ready.push(parsed);
    } else {
      ready.push({ event: name, data: parsed });
    }
  };

  /** The line buffer[start, end) (its end character excluded), as the SDK's SSEDecoder reads a line. */
  const line = (start: number, end: number): void => {
    if (buffer.charCodeAt(start) === 0xfeff) start++;
    if (end > start && buffer.charCodeAt(end - 1) === 13) end--;
    if (end === start) return dispatch();
    const first = buffer.charCodeAt(start);
    if (first === 58) return; // ":" a comment
    // Only two field names are read: a line is one of them when the name is followed by ":" or the line's
    // end (the SDK's split at the first colon), which is looked for right after the name, never further
    // (a search of the rest of the read would make many colon-less lines quadratic).
    const field = (name: string): number => {
      const named = start + name.length;
      if (named > end || !buffer.startsWith(name, start)) return -1;
      if (named === end) return end;
      if (buffer.charCodeAt(named) !== 58) return -1;
      return buffer.charCodeAt(named + 1) === 32 && named + 1 < end ? named + 2 : named + 1;
    };
    let from = field("data");
    if (from >= 0) return void data.push(buffer.slice(from, end));
    from = field("event");
    if (from >= 0) event = buffer.slice(from, end);
  };

  /** Appends decoded text and reads every line it completes (the SDK's LineDecoder, over characters). */
  const feed = (text: string): void => {
    // A read that ends no line (a long event trickling in) is only kept: joining and searching the whole
    // line again at every read would be quadratic in its length.
    if (carriage === null && text.indexOf("\n") < 0 && text.indexOf("\r") < 0) {
      if (text !== "") open.push(text);
      return;
    }
    // What is held holds no line end (after the last one read, only a "\r" at `carriage - 1`): the search
    // starts at the new text.
    const held = open.length > 0 ? buffer + open.join("") : buffer;
    open.length = 0;
    const from = carriage ?? held.length;
    buffer = held === "" ? text : held + text;
    // Without any "\r", a line ends at the next "\n": the common case, found by indexOf.
    const plain = carriage === null && text.indexOf("\r") < 0;
    let pos = 0;
    for (;;) {
      let at = -1;
      if (plain) at = buffer.indexOf("\n", Math.max(pos, from));
      else {
        for (let i = carriage ?? Math.max(pos, from); i < buffer.length; i++) {
          const c = buffer.charCodeAt(i);
          if (c === 10 || c === 13) {
            at = i;
            break;
          }
        }
      }
      if (at < 0) break;
      const isCarriage = buffer.charCodeAt(at) === 13;
      if (isCarriage && carriage === null) {
        carriage = at + 1;
        continue;
      }
      if (carriage !== null && (at !== carriage || isCarriage)) {
        // A "\r" not followed by "\n": the line ended at the "\r".
        const start = pos;
        pos = carriage;
        carriage = null;
        line(start, pos - 1);
        continue;
      }
      const end = carriage !== null ? at - 1 : at;
      const start = pos;
      pos = at + 1;
      carriage = null;
      line(start, end);
    }
    if (pos > 0) {
      buffer = buffer.slice(pos);
      if (carriage !== null) carriage -= pos;
    }
  };

  const close = (): void => {
    if (closed) return;
    closed = true;
    reader.cancel().catch(() => {});
  };

  const fail = (err: unknown): IteratorResult<T> => {
    ended = true;
    failure = undefined;
    ready.length = taken = 0;
    if (!done) close();
    if (isAbortError(err)) return { value: undefined, done: true };
    throw err;
  };

  /** The next decoded event, passing the "[DONE]" mark; undefined when none is ready. */
  const take = (): IteratorResult<T> | undefined => {
    while (taken < ready.length) {
      const value = ready[taken++];
      if (taken === ready.length) ready.length = taken = 0;
      if (value === DONE_MARK) {
        done = true;
        continue;
      }
      return { value: value as T, done: false };
    }
    return undefined;
  };

  const pull = async (): Promise<IteratorResult<T>> => {
    for (;;) {
      const next = take();
      if (next) return next;
      if (failure) return fail(failure.err);
      if (ended) return { value: undefined, done: true };
      let read: ReadableStreamReadResult<Uint8Array>;
      try {
        read = await reader.read();
      } catch (err) {
        return fail(err);
      }
      try {
        if (read.done) {
          feed(decoder.decode());
          if (buffer !== "" || open.length > 0) feed("\n");
          ended = true;
          ready.push(DONE_MARK);
        } else {
          feed(decoder.decode(read.value, { stream: true }));
        }
      } catch (err) {
        failure = { err };
      }
    }
  };

  const iterator: AsyncIterableIterator<T> = {
    next() {
      const next = take();
      return next ? Promise.resolve(next) : pull();
    },
    return() {
      // A reader that stops before "[DONE]" (a break) closes the provider's connection, as the SDK's abort does.
      if (!done) close();
      ended = true;
      failure = undefined;
      ready.length = taken = 0;
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}

const DONE_MARK = Symbol("[DONE]");

/** The SDK's test for an aborted request (openai/internal/errors isAbortError); provider-request.ts reads failures by it too. */
export function isAbortError(err: unknown): boolean {
  return (
    typeof err === "object" &&
    err !== null &&
    (("name" in err && (err as { name: unknown }).name === "AbortError") ||
      ("message" in err && String((err as { message: unknown }).message).includes("FetchRequestCanceledException")))
  );
}
