import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { makeDirs } from "../../make-dirs.js";

/**
 * The index's files in DATA_DIR/search: a manifest written last (so a crash mid-ingest leaves no
 * valid manifest), the LSA model and the passage vectors the filtered path scores in memory.
 */
export interface Manifest {
  version: number;
  corpusHash: string;
  /** The configured embedder ("lsa:128:42", "openai:<url>:<model>"): a change re-indexes. */
  embedderSpec: string;
  embedderId: string;
  collection: string;
  passages: number;
  dim: number;
  builtAt: string;
  ingestMs: number;
}

export class IndexFiles {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, "search");
  }

  private path(name: string) {
    return join(this.dir, name);
  }

  readManifest(): Manifest | undefined {
    try {
      return JSON.parse(readFileSync(this.path("manifest.json"), "utf8")) as Manifest;
    } catch {
      return undefined;
    }
  }

  private write(name: string, data: string | Buffer) {
    makeDirs(this.dir);
    const tmp = this.path(`${name}.tmp-${process.pid}`);
    writeFileSync(tmp, data);
    renameSync(tmp, this.path(name));
  }

  writeManifest(m: Manifest) {
    this.write("manifest.json", JSON.stringify(m, null, 2));
  }

  has(name: string) {
    return existsSync(this.path(name));
  }

  writeBuffer(name: string, data: Buffer) {
    this.write(name, data);
  }

  /**
   * Read off the event loop (libuv's thread pool): the index's files are megabytes, and a start-up read
   * in one piece held every request waiting (about 60 ms for the vectors at load 5).
   */
  async readBuffer(name: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.path(name));
    } catch {
      return undefined;
    }
  }

  writeVectors(name: string, vectors: Float32Array) {
    this.write(name, Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength));
  }

  async readVectors(name: string): Promise<Float32Array | undefined> {
    const buf = await this.readBuffer(name);
    if (!buf || buf.length % 4 !== 0) return undefined;
    // A file's buffer is its own allocation: viewed in place when aligned, copied only when not.
    if (buf.byteOffset % 4 === 0) return new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
    const out = new Float32Array(buf.length / 4);
    Buffer.from(out.buffer).set(buf);
    return out;
  }
}
