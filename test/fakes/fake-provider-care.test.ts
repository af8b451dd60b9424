import { describe, expect, it } from "vitest";
import { formatSearchResults } from "../../graphs/chat/tools/search-scripture.js";
import { loadPrompts } from "../../src/prompts/loader.js";
import type { SearchResult } from "../../src/scripture/search/search.js";
import { shippedBibles } from "../browser/app.js";
import { comforts, needsCare } from "./care-answer.js";
import { answerFromPassages, careAnswer, passagesFromToolResults, quotablePart, SCRIPTED_NOTE, versesFromToolResults } from "./standalone-script.js";

// The standalone fake's answer to a person in distress, over the search tool's real format and the real
// WEB text (the run against the service is in fake-provider-standalone.test.ts).
describe("a person in distress", () => {
  const registry = loadPrompts();
  const careNote = registry.partials.find((p) => p.slug === "crisis-first")!.body;
  const web = shippedBibles().get("eng-web")!;
  // The search tool's own format over the real WEB text: a chapter and the verses that matched.
  const found = (reference: string, book: string, chapter: number, verses: number[]): SearchResult => ({
    reference,
    book: reference.replace(/ \d+$/, ""),
    book_id: book,
    chapter,
    text: "",
    similarity: 0.8,
    highlights: verses.map((verse) => ({ verse, text: web.verses(book, chapter, verse, verse)[0]!.text, url: "" })),
    url: `/read/${book}/${chapter}`,
  });
  // 1 Kings 19 is the right chapter (Elijah asks to die and is fed by an angel), but its first matched
  // verse is Jezebel's death threat (19:2) and the next is Elijah's "take away my life" (19:4).
  const toolResult = formatSearchResults([found("1 Kings 19", "1KI", 19, [2, 4]), found("Psalm 34", "PSA", 34, [18])], { bibleId: "eng-web", bible: web });
  const messages = (system: string, question = "I want to end my life") => [
    { role: "system", content: system },
    { role: "user", content: question },
    { role: "tool", tool_call_id: "c1", content: toolResult },
  ];

  it("when the system prompt carries the care note, then the help line comes first and only a comforting verse is quoted", () => {
    const history = messages(`${registry.guardrails.body}\n\n${careNote}`);
    expect(needsCare(history)).toBe(true);
    const answer = careAnswer(history, "I want to end my life");
    expect(answer).toMatch(/^I'm so sorry[^.]*\. Please reach someone who can help right now: emergency: [^.]*911[^]*\b988 Suicide & Crisis Lifeline/);
    expect(answer).not.toMatch(/1 Kings 19:2\b|life as the life|take away my life/);
    expect(answer).toContain('Psalm 34:17 reads: "The righteous cry, and Yahweh hears, and delivers them out of all their troubles."');
    expect(answer).toContain("See also Psalm 34:18 and Psalm 34:19.");
    expect(answer.endsWith(SCRIPTED_NOTE)).toBe(true);
  });

  it("when the same results come without the care note, then the fake cites as before: the care path is chosen by the instructions, not by the verse", () => {
    const history = messages(registry.guardrails.body, "Tell me about Elijah and Jezebel");
    expect(needsCare(history)).toBe(false);
    expect(answerFromPassages(passagesFromToolResults(history))).toMatch(/^Scripture speaks to this in 1 Kings 19:2 and Psalm 34:18\./);
  });

  it("when every verse the tools returned is checked, then each one that wounds is refused and the comfort the guardrails name is kept", () => {
    const verses = versesFromToolResults(messages(careNote));
    expect(verses.map((v) => v.reference)).toEqual(["1 Kings 19:1", "1 Kings 19:2", "1 Kings 19:3", "1 Kings 19:4", "1 Kings 19:5", "Psalm 34:17", "Psalm 34:18", "Psalm 34:19"]);
    const quotable = verses.filter((v) => comforts(quotablePart(v.text) ?? ""));
    expect(quotable.map((v) => v.reference)).not.toContain("1 Kings 19:2");
    expect(quotable.map((v) => v.reference)).not.toContain("1 Kings 19:4");
    expect(quotable.map((v) => v.reference)).toContain("Psalm 34:18");
  });

  it("when the person writes in Spanish, then the opening and the help line are the Spanish ones", () => {
    const history = messages(`${registry.guardrails.body}\n\n${careNote}`, "Quiero quitarme la vida");
    expect(careAnswer(history, "Quiero quitarme la vida")).toMatch(/^Siento mucho lo que estás pasando[^:]*: emergencias: [^]*España: 024 /);
  });

  it.each([
    ["Portuguese", "Eu não aguento mais, quero morrer", /^Sinto muito[^:]*: emergência: [^]*CVV 188/],
    ["French", "Je ne veux plus vivre, je suis épuisé", /^Je suis vraiment désolé[^]*: urgences : [^]*3114/],
    ["German", "Ich kann nicht mehr, ich will nicht mehr leben", /^Es tut mir so leid[^:]*: Notruf: [^]*TelefonSeelsorge/],
  ])("when the person writes in %s, then the opening and the help line are that language's (the crisis reply's five languages)", (_language, text, expected) => {
    const history = messages(`${registry.guardrails.body}\n\n${careNote}`, text);
    const answer = careAnswer(history, text);
    expect(answer).toMatch(expected);
    expect(answer).not.toMatch(/Please reach|busca ayuda/);
  });

  it("when no verse found speaks comfort, then none is quoted and the help line still comes first", () => {
    const threat = formatSearchResults([found("1 Kings 19", "1KI", 19, [2])], { bibleId: "eng-web", bible: web });
    const history = [{ role: "system", content: `${registry.guardrails.body}\n\n${careNote}` }, { role: "user", content: "I want to die" }, { role: "tool", tool_call_id: "c1", content: threat }];
    const answer = careAnswer(history, "I want to die");
    expect(answer).toMatch(/988/);
    expect(answer).not.toMatch(/reads:|1 Kings/);
  });
});

