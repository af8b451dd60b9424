import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IndexFiles } from "../../src/scripture/search/index-files.js";

const dir = mkdtempSync(join(tmpdir(), "bc-index-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("IndexFiles reads the index's files off the event loop", () => {
  it("when vectors were written, then they read back equal; a file that is no whole number of floats, or none, reads as absent", async () => {
    const files = new IndexFiles(dir);
    const vectors = Float32Array.from({ length: 3 * 128 }, (_, i) => Math.sin(i) * 1e3);
    files.writeVectors("v.f32", vectors);
    const read = await files.readVectors("v.f32");
    expect(read).toEqual(vectors);
    writeFileSync(join(dir, "odd.f32"), Buffer.alloc(4 * 5 + 2, 1));
    expect(await files.readVectors("odd.f32")).toBeUndefined();
    expect(await files.readVectors("missing.f32")).toBeUndefined();
    files.writeBuffer("m.bin", Buffer.from("model"));
    expect((await files.readBuffer("m.bin"))?.toString()).toBe("model");
  });
});
