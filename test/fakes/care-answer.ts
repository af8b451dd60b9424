import { DEFAULT_PROMPTS_DIR, loadPrompts } from "../../src/prompts/loader.js";
import { detectCrisisLanguage } from "../../src/prompts/language.js";
import type { CrisisLanguage } from "../../src/prompts/types.js";
import { type ChatMessage, messageText } from "./chat-request.js";

/**
 * How the standalone fake answers a person in distress. It reads its instructions as a model would: the
 * service adds `_partials/crisis-first.md` to the system prompt when the message needs care, and the
 * guardrails' "People in distress" asks for the help line first and scripture only as comfort, never a
 * verse used against the person. So the fake gives the help line from its system prompt, then quotes only
 * a verse that speaks comfort and no harm; a passage the search found for the situation (Elijah under the
 * broom tree, 1 Kings 19) may still hold a verse that wounds (Jezebel's death threat, 19:2), and that verse
 * is never quoted or cited.
 */

/** The care note's first line as the model receives it, read from the partial itself so the two cannot drift. */
let careLine: string | undefined;
function careNoteLine(): string {
  careLine ??= loadPrompts(DEFAULT_PROMPTS_DIR)
    .partials.find((p) => p.slug === "crisis-first")!
    .body.split("\n")
    .find((l) => l.trim() !== "")!;
  return careLine;
}

/** Whether the system prompt carries the service's care note for this message. */
export function needsCare(messages: ChatMessage[]): boolean {
  const line = careNoteLine();
  return messages.some((m) => m.role === "system" && messageText(m).includes(line));
}

// What the guardrails call comfort: God's nearness to the broken-hearted, help, rest, healing, hope, love.
const COMFORT =
  /\b(near|comfort\w*|heal\w*|help\w*|refuge|rest|hope\w*|love[sd]?|loving|lovingkindness|mercy|merciful|peace|strength\w*|deliver\w*|saves?|saved|rescue\w*|hears?|heard|broken|brokenhearted|care[sd]?|with (?:you|me)|forsake|bind\w* up|cercano|consuel\w*|sana\w*|ayud\w*|refugio|descanso|esperanza|amor|misericordia|paz|fuerza\w*|libr\w*|salva\w*|oye|quebrantad\w*)\b/iu;
// What wounds a person who wants to die: death and killing, a life taken, threats, curses, judgment.
const HARM =
  /\b(kill\w*|slay\w*|slew|slain|murder\w*|die[ds]?|dying|death|dead|life as the life|my life|curse\w*|destroy\w*|perish\w*|sword|blood|wrath|punish\w*|burn\w*|hell|grave|pit|hang\w*|enem(?:y|ies)|threat\w*|vengeance|fire|muert\w*|matar\w*|morir|mi vida|maldi\w*|destru\w*|espada|sangre|ira|castig\w*|infierno|fuego|enemig\w*)\b/iu;

/** A verse a person in distress can be given: it speaks comfort and nothing of harm. */
export function comforts(text: string): boolean {
  return COMFORT.test(text) && !HARM.test(text);
}

// Each language's line in `_partials/help-lines.md` starts with its own name (French puts a space before the colon).
const HELP_LINE_LABEL: Record<CrisisLanguage, string> = { en: "- English:", es: "- Español:", pt: "- Português:", fr: "- Français :", de: "- Deutsch:" };

/** The help line for the person's language (one of the crisis reply's five), as the system prompt lists it. */
export function helpLineFor(messages: ChatMessage[], userText: string): string | undefined {
  const label = HELP_LINE_LABEL[detectCrisisLanguage(userText)];
  const lines = messages.filter((m) => m.role === "system").flatMap((m) => messageText(m).split("\n"));
  return lines.find((l) => l.startsWith(label))?.slice(label.length).trim();
}

const OPENING: Record<CrisisLanguage, string> = {
  en: "I'm so sorry you are going through this, and I'm glad you said it. Please reach someone who can help right now:",
  es: "Siento mucho lo que estás pasando, y me alegra que lo hayas dicho. Por favor, busca ayuda ahora mismo:",
  pt: "Sinto muito que você esteja passando por isso, e fico feliz que tenha dito. Por favor, procure agora alguém que possa ajudar:",
  fr: "Je suis vraiment désolé de ce que vous traversez, et je suis content que vous l'ayez dit. S'il vous plaît, contactez dès maintenant quelqu'un qui peut vous aider :",
  de: "Es tut mir so leid, dass du das gerade durchmachst, und ich bin froh, dass du es gesagt hast. Bitte wende dich jetzt an jemanden, der helfen kann:",
};

/** The care-first opening, in the person's language: a warm sentence and the help line, before anything else. */
export function careOpening(messages: ChatMessage[], userText: string): string {
  const line = helpLineFor(messages, userText);
  const opening = OPENING[detectCrisisLanguage(userText)];
  return line ? `${opening} ${line}` : opening.replace(/\s*:$/, ".");
}
