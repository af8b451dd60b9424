import { describe, expect, it } from "vitest";
import { installPooledRandom, POOLED_MAX } from "../../graphs/chat/random-pool.js";

installPooledRandom();

const hex = (a: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("hex");

describe("the pooled crypto.getRandomValues", () => {
  it("when uuid-sized draws cross several refills of the pool, then every draw is new and every byte value occurs", () => {
    const seen = new Set<string>();
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1_000; i++) {
      const a = new Uint8Array(16);
      expect(crypto.getRandomValues(a)).toBe(a);
      seen.add(hex(a));
      for (const b of a) counts[b]!++;
    }
    expect(seen.size).toBe(1_000);
    // 16,000 bytes: a uniform source gives each of the 256 values about 62 times.
    expect(Math.min(...counts)).toBeGreaterThan(20);
    expect(Math.max(...counts)).toBeLessThan(120);
  });

  it("when requests of different sizes interleave, then no bytes are handed out twice", () => {
    const draws: string[] = [];
    for (let i = 0; i < 500; i++) {
      const size = 1 + (i % POOLED_MAX);
      draws.push(hex(crypto.getRandomValues(new Uint8Array(size))));
    }
    const long = draws.filter((d) => d.length >= 32);
    expect(new Set(long).size).toBe(long.length);
  });

  it("when a request is larger, of another array type, detached or invalid, then Node's own method answers it", () => {
    const big = crypto.getRandomValues(new Uint8Array(POOLED_MAX + 1_000));
    expect(big.some((b) => b !== 0)).toBe(true);
    const words = crypto.getRandomValues(new Uint32Array(8));
    expect(words.some((w) => w !== 0)).toBe(true);
    const detached = crypto.getRandomValues;
    expect(() => detached(new Uint8Array(4))).toThrow();
    expect(() => crypto.getRandomValues(new Float32Array(4) as unknown as Uint8Array)).toThrow(/TypeMismatch|integer/i);
    expect(() => crypto.getRandomValues(new Uint8Array(65_537))).toThrow(/QuotaExceeded|exceeds/i);
  });

  it("when installed again, then the method stays the one installed first", () => {
    const first = crypto.getRandomValues;
    installPooledRandom();
    expect(crypto.getRandomValues).toBe(first);
  });
});
