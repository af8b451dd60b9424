/**
 * LangGraph gives every checkpoint of a run an id (a uuid6 from @langchain/core's uuid code), and makes
 * one at each superstep and at each conditional edge's read of the state: about ten a chat, even with no
 * checkpointer. Each draws 16 bytes with `crypto.getRandomValues`, and in Node 20 every such call is one
 * native crypto job whose fixed cost does not depend on its size: 28 us at the median (49 us on average)
 * measured inside the service under the chat benchmark, 5-15 us in a bare loop, whether it fills 16
 * bytes or 4 KB. That was about 2 % of the service's CPU per chat (docs/performance.md, session 9).
 *
 * installPooledRandom makes small requests (a Uint8Array of at most POOLED_MAX bytes, called on the
 * global `crypto` itself) draw from a 4 KB buffer the same crypto source fills, refilled when used up:
 * Node's own `crypto.randomUUID` keeps such a cache. Every byte handed out comes from the CSPRNG, once,
 * and is zeroed in the pool as it leaves. Anything else (larger or other typed arrays, a detached call,
 * bad input) goes to Node's method unchanged, with its own checks and errors. Installed once per process.
 */

/** The largest request served from the pool; uuids ask for 16 bytes. */
export const POOLED_MAX = 64;

const POOL_BYTES = 4096;

const INSTALLED = Symbol.for("biblical-chat:pooled-random");

export function installPooledRandom(): void {
  const source = globalThis.crypto as Crypto & { [INSTALLED]?: true };
  if (source[INSTALLED]) return;
  const original = source.getRandomValues;
  const pool = new Uint8Array(POOL_BYTES);
  let at = POOL_BYTES;
  function getRandomValues<T extends ArrayBufferView | null>(this: unknown, array: T): T {
    if (this !== source || !(array instanceof Uint8Array) || array.byteLength > POOLED_MAX) return original.call(this as Crypto, array as never) as T;
    const n = array.byteLength;
    if (at + n > POOL_BYTES) {
      original.call(source, pool);
      at = 0;
    }
    array.set(pool.subarray(at, at + n));
    pool.fill(0, at, at + n);
    at += n;
    return array;
  }
  Object.defineProperty(source, "getRandomValues", { value: getRandomValues, writable: true, configurable: true, enumerable: true });
  Object.defineProperty(source, INSTALLED, { value: true });
}
