import { END, START, StateGraph } from "@langchain/langgraph";
import type { ChatDeps } from "./deps.js";
import { createCallAgent } from "./nodes/call-agent.js";
import { createCallTools } from "./nodes/call-tools.js";
import { createClassifyPreflight } from "./nodes/classify-preflight.js";
import { createConvertLinks } from "./nodes/convert-links.js";
import { createRejectInput } from "./nodes/reject-input.js";
import { createRespondCanned } from "./nodes/respond-canned.js";
import { createValidateInput } from "./nodes/validate-input.js";
import { routeAfterAgent, routeAfterPreflight, routeAfterValidate } from "./routing.js";
import { ChatState } from "./state.js";

/** The wiring only: nodes and edges over the given deps (runtime.ts builds them; studio.ts serves Studio). */
export function buildChatGraph(deps: ChatDeps) {
  return (
    new StateGraph(ChatState)
      // Guards the entry: a user turn last, known slugs and translation, a key.
      .addNode("validateInput", createValidateInput(deps))
      // Rules, then the classifier model, sort the last user message into the spec's categories.
      .addNode("classifyPreflight", createClassifyPreflight(deps))
      // Greeting, fragment or support question: a canned reply, no agent.
      .addNode("respondCanned", createRespondCanned(deps))
      // Injection, inappropriate or invalid input: the content-filter outcome.
      .addNode("rejectInput", createRejectInput(deps))
      // One model turn with the scripture tools; streams the answer turn.
      .addNode("callAgent", createCallAgent(deps))
      // Runs the turn's tool calls and hands the results back to the agent.
      .addNode("callTools", createCallTools(deps))
      // Scripture references become reader links in the final content.
      .addNode("convertLinks", createConvertLinks(deps))
      .addEdge(START, "validateInput")
      .addConditionalEdges("validateInput", routeAfterValidate, ["classifyPreflight", "callAgent"])
      .addConditionalEdges("classifyPreflight", routeAfterPreflight, ["callAgent", "respondCanned", "rejectInput"])
      .addConditionalEdges("callAgent", routeAfterAgent, ["callTools", "convertLinks"])
      .addEdge("callTools", "callAgent")
      .addEdge("respondCanned", END)
      .addEdge("rejectInput", END)
      .addEdge("convertLinks", END)
      .compile()
  );
}

export type ChatGraph = ReturnType<typeof buildChatGraph>;
