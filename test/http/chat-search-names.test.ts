import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { loadBibleLibrary } from "../../src/scripture/corpus.js";
import { startSearchService, type SearchService } from "../../src/scripture/search/service.js";
import { messageText } from "../fakes/index.js";
import { startChatStack, type ChatStack } from "./chat-stack.js";

/** The chat's prefetched search on the real index (the run's shared Chroma), through the openai SDK. */
let s: ChatStack;
let service: SearchService;
beforeAll(async () => {
  const quiet = { info() {}, warn() {}, error() {} };
  service = startSearchService({ dataDir: inject("indexDataDir"), chromaUrl: inject("indexChromaUrl"), library: loadBibleLibrary(), logger: quiet });
  await service.indexed;
  s = await startChatStack({ search: service.search });
});
afterAll(async () => {
  await s?.close();
  await service?.stop();
});
beforeEach(() => s.provider.reset());

/** The tool results the model read in the service's prefetched turn (the first agent call: the one that offers tools). */
function prefetched(): string {
  const call = s.provider.chatRequests.find((r) => (r.body.tools?.length ?? 0) > 0)!;
  return call.body.messages.filter((m) => m.role === "tool").map(messageText).join("\n");
}

describe("chat: names across languages in the prefetched search", () => {
  it("when a Spanish reader asks '¿Quién era Rut?', then the prefetched turn the model reads holds the book of Ruth", async () => {
    await s.client("sk-names-test-key").chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "¿Quién era Rut?" }],
      bible_id: "spa-rv1909",
    } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    const turn = prefetched();
    expect(turn).toMatch(/^## Rut \d/m);
    expect(turn).toMatch(/Ruth/); // the RV1909's spelling, in the text the model reads
  });
});
