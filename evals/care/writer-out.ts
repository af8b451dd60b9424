/**
 * A cross-writer check on the training data only: train the reader without one writer's files and read
 * those files, rules OR reader at a few thresholds (docs/care.md, "Set 6").
 *
 *   OUT=distress6-train.tsv,ordinary6-train.tsv node --import tsx evals/care/writer-out.ts
 */
import { fit, sparse } from "./train.js";
import { trainingExamples } from "./train-data.js";
import { distressModelProbability, isDistressByRules } from "../../graphs/chat/distress/rules.js";

const out = (process.env.OUT ?? "distress6-train.tsv,ordinary6-train.tsv").split(",");
const examples = trainingExamples(isDistressByRules);
const train = examples.filter((e) => !out.includes(e.source));
const test = examples.filter((e) => out.includes(e.source));
const f = fit(sparse(train));
const model = { weights: Float32Array.from(f.weights), bias: f.bias, threshold: 0.5 };
const p = test.map((e) => distressModelProbability(e.text, model));
const rules = test.map((e) => isDistressByRules(e.text));
const pos = test.filter((e) => e.label === 1).length;
const row = (t: number) => {
  let tp = 0, fa = 0;
  test.forEach((e, i) => {
    const read = rules[i]! || p[i]! >= t;
    if (e.label === 1) tp += +read;
    else fa += +read;
  });
  return `t=${t} distress ${tp}/${pos}, ordinary flagged ${fa}/${test.length - pos}`;
};
console.log(`left out ${out.join(", ")}; rules alone ${rules.filter((r, i) => r && test[i]!.label === 1).length}/${pos}`);
for (const t of [0.8, 0.9, 0.94, 0.96]) console.log(`  ${row(t)}`);
