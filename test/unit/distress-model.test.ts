import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUCKETS, MODEL_CHARS, MODEL_FILE, decodeModel, distressModel, features, type ModelFile } from "../../graphs/chat/distress/model.js";
import { distressModelProbability, distressReading, isDistress, isDistressByRules, needsCare } from "../../graphs/chat/distress/rules.js";
import { dataHash } from "../../evals/care/train-data.js";

const file = JSON.parse(readFileSync(MODEL_FILE, "utf8")) as ModelFile;
const threshold = distressModel().threshold;
const reads = (text: string) => distressModelProbability(text) >= threshold;

describe("the learned distress reader (graphs/chat/distress/model.ts)", () => {
  it("when the shipped weights are read, then they were trained on the data files as they are now, and stay small", () => {
    // A change to any training file (evals/care/train-data.ts) means: run `npm run train:care`.
    expect(file.data.sha256).toBe(dataHash());
    expect(file.buckets).toBe(BUCKETS);
    expect(file.data.positives).toBeGreaterThan(400);
    expect(file.data.negatives).toBeGreaterThan(400);
    expect(statSync(fileURLToPath(MODEL_FILE)).size).toBeLessThan(256 * 1024);
    const model = decodeModel(file);
    expect(model.weights).toHaveLength(BUCKETS);
    expect(model.threshold).toBeGreaterThan(0.5);
    expect(model.threshold).toBeLessThan(1);
  });

  it("when the file's weights are cut short or hashed into other buckets, then loading says so", () => {
    expect(() => decodeModel({ ...file, weights: file.weights.slice(0, 100) })).toThrow(/bytes of weights/);
    expect(() => decodeModel({ ...file, buckets: BUCKETS * 2 })).toThrow(/buckets/);
  });

  it.each([
    "i want to kill myself tonight",
    "i took all my pills and i cant stop shaking",
    "nobody would even notice if i was gone",
    "me quiero morir, ya no aguanto mas",
    "je veux mourir, je nen peux plus",
  ])("when the message is %j, then the model reads distress", (text) => {
    expect(reads(text)).toBe(true);
  });

  it.each([
    "What does John 3:16 mean?",
    "How many books are in the Bible?",
    "Who wrote the letter to the Hebrews?",
    "¿Qué significa el bautismo?",
    "What does the parable of the sower teach about hearing the word?",
  ])("when the message is %j, then the model stays quiet", (text) => {
    expect(reads(text)).toBe(false);
  });

  it.each(["Why did Judas kill himself?", "How did Saul die on Mount Gilboa?", "I want to die to self", "I want to die with Christ and rise with him"])(
    "when the message is %j (the rules' exclusions), then the model does not read it at all",
    (text) => {
      expect(distressModelProbability(text)).toBe(0);
    },
  );

  it.each(["i feel like im just taking up space at home", "i cant keep pretending im ok, everything inside me is screaming"])(
    "when %j is wording no rule reads but the model does, then isDistress reads it (rules OR model at the shipped threshold)",
    (text) => {
      expect(isDistressByRules(text)).toBe(false);
      expect(reads(text)).toBe(true);
      expect(isDistress(text)).toBe(true);
      expect(needsCare(["What is grace?", text, "ok thanks"])).toBe(true);
    },
  );

  it.each(["Why did Judas kill himself?", "I want to die to self", "Thanks, that really touched me"])(
    "when %j is read by isDistress, then neither the rules nor the model read distress (the exclusions hold for both)",
    (text) => {
      expect(reads(text)).toBe(false);
      expect(isDistress(text)).toBe(false);
    },
  );

  it("when two wordings share no word, then the word classes still give them features in common (the writer near a word of death)", () => {
    const shared = (a: string, b: string, classes: boolean) => {
      const fb = features(distressReading(b), classes);
      return [...features(distressReading(a), classes).keys()].filter((k) => fb.has(k)).length;
    };
    expect(shared("i wanna die", "me quiero morir", false)).toBe(0);
    expect(shared("i wanna die", "me quiero morir", true)).toBeGreaterThanOrEqual(3);
    expect(shared("ich will sterben", "je veux mourir", true)).toBeGreaterThanOrEqual(3);
  });

  it("when a text is read, then its features are unit length, and past the cap the rest is not read", () => {
    const f = features(distressReading("i cant do this anymore, i cant"));
    const length = Math.sqrt([...f.values()].reduce((s, x) => s + x * x, 0));
    expect(length).toBeCloseTo(1, 6);
    expect(features("")).toEqual(new Map());
    const capped = "word ".repeat(MODEL_CHARS / 5);
    expect(features(`${capped} suicide`)).toEqual(features(`${capped} peace`));
  });
});
