import { describe, expect, it } from "vitest";
import { CONCEPTS, conceptVocabulary, matchConcepts, parseConceptLine } from "../../src/scripture/search/concepts.js";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { glossSpanish } from "../../src/scripture/search/spanish.js";
import { tokenize } from "../../src/scripture/search/tokenizer.js";
import { buildPassages } from "../../src/scripture/search/windows.js";
import { DEFAULT_WINDOWS } from "../../src/scripture/search/windows.js";

const ids = (q: string) => matchConcepts(q).map((m) => m.concept.id);

describe("the concept table", () => {
  it("when it loads, then every concept has terms, Bible words and passages, ids are unique and prefixes are distinctive", () => {
    expect(CONCEPTS.length).toBeGreaterThan(100);
    expect(new Set(CONCEPTS.map((c) => c.id)).size).toBe(CONCEPTS.length);
    for (const c of CONCEPTS) {
      expect(c.terms.length, c.id).toBeGreaterThan(0);
      expect(c.bible.length, c.id).toBeGreaterThan(0);
      expect(c.ranges.length, c.id).toBeGreaterThan(0);
      for (const t of c.terms) for (const w of t.split(" ")) if (w.endsWith("*")) expect(w.length, `${c.id}: ${t}`).toBeGreaterThanOrEqual(5);
    }
  });

  it("when a line is malformed, then parsing throws instead of loading half a concept", () => {
    expect(() => parseConceptLine("anger | temper | genio | wrath")).toThrow();
    expect(() => parseConceptLine("anger | temper | genio | wrath | XYZ 1")).toThrow();
    expect(() => parseConceptLine("anger | temper | genio | wrath | ")).toThrow();
  });

  it("when the Bible words of a concept are indexed, then most of them occur in the WEB (they are its vocabulary, not modern words)", () => {
    const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
    const vocab = new Set(buildPassages(web, [], DEFAULT_WINDOWS).flatMap((p) => tokenize(p.text)));
    for (const c of CONCEPTS) {
      const terms = tokenize(c.bible.join(" "));
      const known = terms.filter((t) => vocab.has(t)).length;
      expect(known / terms.length, `${c.id}: ${c.bible.join(" ")}`).toBeGreaterThanOrEqual(0.7);
    }
  });
});

describe("matching concepts in questions", () => {
  it.each([
    ["how do I control my temper", "anger"],
    ["I'm so stressed and worried about everything", "anxiety"],
    ["¿cómo debemos tratar a los inmigrantes?", "foreigners"],
    ["¿cómo controlo mi mal genio?", "anger"],
    ["me preocupa el futuro", "anxiety"],
    ["is God one person or three?", "trinity"],
    ["what happens after we die", "death"],
    ["should I obey the government", "government"],
    ["tengo deudas con el banco", "debt"],
    ["i feel so lonley", "loneliness"],
    ["is masterbation a sin", "lust"],
    ["how do I stop worring", "anxiety"],
  ])("when the question is %j, then the concept %s is named", (q, id) => {
    expect(ids(q)).toContain(id);
  });

  it("when a contraction is typed without its apostrophe, then it matches as the apostrophe form does", () => {
    expect(ids("my son doesnt believe in god anymore")).toContain("wayward children");
    expect(ids("my son doesn't believe in god anymore")).toContain("wayward children");
    expect(ids("i cant sleep at night")).toContain("sleep");
  });

  it("when a question is framed 'is it a sin to...', then the topic is named, not the doctrine of sin; 'what is sin' still is", () => {
    expect(ids("is it a sin to get a tattoo")).toEqual(["tattoos"]);
    expect(ids("es pecado hacerse un tatuaje")).toEqual(["tattoos"]);
    expect(ids("what is sin")).toContain("sin");
    expect(ids("qué es el pecado")).toContain("sin");
  });

  it("when a Spanish question is matched, then its words meet only Spanish terms and its gloss only English ones ('sin esperanza' is not sin)", () => {
    const es = (q: string) => matchConcepts(q, undefined, "es").map((m) => m.concept.id);
    const en = (q: string) => matchConcepts(q, undefined, "en").map((m) => m.concept.id);
    expect(es("estoy deprimido y sin esperanza")).not.toContain("sin");
    expect(es("estoy deprimido y sin esperanza")).toContain("depression");
    expect(en(glossSpanish("estoy deprimido y sin esperanza"))).not.toContain("sin");
    expect(en("is sin do a tattoo")).toEqual(["tattoos"]);
    expect(ids("what is sin")).toContain("sin");
  });

  it("when 'can't stop' is about a thought or a worry, then it is not addiction; about drinking, it is", () => {
    expect(ids("cant stop thinking about my ex")).not.toContain("addiction");
    expect(ids("I can't stop worrying")).toEqual(["anxiety"]);
    expect(ids("i cant stop drinking")).toContain("addiction");
  });

  it("when grief is named as a death in the family, then it is grief, not the doctrine of death", () => {
    expect(ids("how do I get over the death of my mother")).toContain("grief");
    expect(ids("how do I get over the death of my mother")).not.toContain("death");
  });

  it("when a shorter concept term lies inside a longer one, then only the longer counts ('fear of death' is not also 'fear')", () => {
    expect(ids("my fear of death")).toEqual(["fear of death"]);
  });

  it("when a word only starts like a prefix term's stem in another sense, then whole-word terms do not match it (Job is not a job)", () => {
    expect(ids("Job loses everything")).not.toContain("work");
    expect(ids("the parable of the talents")).not.toContain("spiritual gifts");
  });

  it("when a concept is named, then its Bible words join the query ('temper' reaches anger and wrath)", () => {
    const words = conceptVocabulary(matchConcepts("how do I control my temper"));
    expect(words).toContain("anger");
    expect(words).toContain("wrath");
  });

  it("when a window overlaps a concept's passage, then it carries the concept as tags and its text is unchanged", () => {
    const web = loadBibleLibrary({ ids: ["eng-web"] }).get("eng-web")!;
    const anxiety = CONCEPTS.find((c) => c.id === "anxiety")!;
    const plain = buildPassages(web, [], DEFAULT_WINDOWS);
    const tagged = buildPassages(web, [], DEFAULT_WINDOWS, [anxiety.entry]);
    const i = tagged.findIndex((p) => p.book === "PHP" && p.chapter === 4 && p.verseStart <= 6 && p.verseEnd >= 6);
    expect(tagged[i]!.tags).toContain("anxiety");
    expect(tagged[i]!.text).toBe(plain[i]!.text);
    expect(tagged.find((p) => p.book === "GEN" && p.chapter === 1)!.tags).toBeUndefined();
  });
});
