import { END, START, StateGraph } from "@langchain/langgraph";
import type { z } from "zod";
import type { ChatDeps } from "./deps.js";
import { createAnswerHousekeeping } from "./nodes/answer-housekeeping.js";
import { createCallAgent } from "./nodes/call-agent.js";
import { createCallTools } from "./nodes/call-tools.js";
import { createClassifyPreflight } from "./nodes/classify-preflight.js";
import { createConvertLinks } from "./nodes/convert-links.js";
import { createRejectInput } from "./nodes/reject-input.js";
import { createRespondCanned } from "./nodes/respond-canned.js";
import { createValidateInput } from "./nodes/validate-input.js";
import { routeAfterAgent, routeAfterPreflight, routeAfterValidate, routed } from "./routing.js";
import { ChatContextSchema } from "./context-schema.js";
import { ChatInput, ChatState } from "./state.js";

/** What Studio shows on classifyPreflight: what it starts besides the classifier (PREFLIGHT_MODE=parallel). */
const PARALLEL_NOTE = "with PREFLIGHT_MODE=parallel, the first callAgent call (over the prefetched retrieval turn) beside the classifier; held until the verdict, closed unless it passes";

/** What Studio shows on callAgent: where its first call may come from. */
const FIRST_CALL_NOTE = "first step: the service's own search as a completed tool turn, then the call (adopted from classifyPreflight when it started one); answer text leaves only from here";

/**
 * The context schema as the graph's type sees it: any record. A run's real context is the whole
 * ChatRequestContext (the key and the caller's system text included), which the schema, describing only
 * what a Studio user may set, deliberately leaves out.
 */
const STUDIO_CONTEXT = ChatContextSchema as unknown as z.ZodObject<Record<string, z.ZodUnknown>>;

/** The wiring only: nodes and edges over the given deps (runtime.ts builds them; studio.ts serves Studio). */
export function buildChatGraph(deps: ChatDeps) {
  return (
    // The context schema and the input of messages alone are what Studio draws its forms from.
    new StateGraph({ state: ChatState, input: ChatInput, context: STUDIO_CONTEXT })
      // Guards the entry: a user turn last, known slugs and translation, a key.
      // Each node with branches names its next node itself (routing.ts routed: a Command to one of its
      // `ends`, drawn as the dashed branches), from the state its update leaves.
      .addNode("validateInput", routed(createValidateInput(deps), routeAfterValidate), { ends: ["classifyPreflight", "callAgent", END] })
      // Rules, then the classifier model, sort the last user message into the spec's categories; the
      // verdict decides every branch. In parallel mode the agent's first call starts beside the classifier.
      .addNode("classifyPreflight", routed(createClassifyPreflight(deps), routeAfterPreflight), {
        ends: ["callAgent", "respondCanned", "rejectInput", "answerHousekeeping"],
        metadata: { starts: PARALLEL_NOTE },
      })
      // Greeting, fragment or support question: a canned reply, no agent.
      .addNode("respondCanned", createRespondCanned(deps))
      // A chat UI's title, tags or follow-ups: the JSON asked for, from one small call; no tools, no links.
      .addNode("answerHousekeeping", createAnswerHousekeeping(deps))
      // Injection, inappropriate or invalid input: the content-filter outcome.
      .addNode("rejectInput", createRejectInput(deps))
      // One model turn with the scripture tools; streams the answer turn. Its first step adds the service's
      // search (and passage lookup) as a completed tool turn before the call (prefetch.ts).
      .addNode("callAgent", routed(createCallAgent(deps), routeAfterAgent), { ends: ["callTools", "convertLinks"], metadata: { first_call: FIRST_CALL_NOTE } })
      // Runs the turn's tool calls and hands the results back to the agent.
      .addNode("callTools", createCallTools(deps))
      // Scripture references become reader links in the final content.
      .addNode("convertLinks", createConvertLinks(deps))
      .addEdge(START, "validateInput")
      .addEdge("callTools", "callAgent")
      .addEdge("respondCanned", END)
      .addEdge("answerHousekeeping", END)
      .addEdge("rejectInput", END)
      .addEdge("convertLinks", END)
      .compile()
  );
}

export type ChatGraph = ReturnType<typeof buildChatGraph>;
