/**
 * Texts kept compressed outside the V8 heap and inflated when one is asked for: the study data a
 * long-running replica ends up holding (every book's word tags, the Treasury of David's 12 MB of
 * Psalms) is read rarely and in small pieces, and deflated it takes a third to a quarter of its UTF-8
 * size. Each text is its own raw-deflate stream in one shared buffer (0.05-0.5 ms to inflate a chapter).
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";

/** Deflate level: 1 compresses nearly as well as the default on this data, in a third of the time (once per book). */
const LEVEL = 1;

export class PackedTexts {
  private readonly bytes: Buffer;
  private readonly offsets: Int32Array;

  /** `texts` may be a generator: each is deflated as it comes, so only the compressed ones are held. */
  constructor(texts: Iterable<string>) {
    const parts: Buffer[] = [];
    for (const t of texts) parts.push(deflateRawSync(Buffer.from(t, "utf8"), { level: LEVEL }));
    this.offsets = new Int32Array(parts.length + 1);
    parts.forEach((p, i) => (this.offsets[i + 1] = this.offsets[i]! + p.length));
    // One allocation of its own (not a slice of the pool), so nothing else keeps it alive.
    this.bytes = Buffer.allocUnsafeSlow(this.offsets[parts.length]!);
    parts.forEach((p, i) => p.copy(this.bytes, this.offsets[i]!));
  }

  get length(): number {
    return this.offsets.length - 1;
  }

  /** Text i as given, or undefined outside 0..length-1. */
  get(i: number): string | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    return inflateRawSync(this.bytes.subarray(this.offsets[i]!, this.offsets[i + 1]!)).toString("utf8");
  }

  /** Bytes held (the compressed texts and their offsets). */
  get byteLength(): number {
    return this.bytes.length + this.offsets.byteLength;
  }
}
