import { findReferences, parsePassageQuery } from "../../src/scripture/references.js";
import { isDistress, isLastGoodbye } from "./distress/rules.js";
import { classifyByRules } from "./preflight-rules.js";

/**
 * Runs the chat path's large regular expressions once on ordinary text. V8 compiles an expression on its
 * first use and again to machine code on its second: for the preflight's distress patterns and the
 * reference parser that was about a second of a blocked event loop on the first chat after a start.
 * The composition root calls this before the server listens.
 */
export function warmChatPatterns(): void {
  for (const text of ["What does John 3:16 teach about God's love?", "Thanks, that helps. Read Romans 8 and Psalm 23:1-4 with me."]) {
    isDistress(text);
    isLastGoodbye(text);
    classifyByRules(text, (t) => parsePassageQuery(t) !== null);
    findReferences(text);
  }
}
