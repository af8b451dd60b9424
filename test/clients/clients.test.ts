import { afterAll, beforeAll, beforeEach } from "vitest";
import { aiSdkCases } from "./ai-sdk.cases.js";
import { groundingCases } from "./grounding.cases.js";
import { langchainCases } from "./langchain.cases.js";
import { openaiSdkCases } from "./openai-sdk.cases.js";
import { responsesCases } from "./responses.cases.js";
import { startRealService, type RealService } from "./service.js";

// One service for the whole matrix: starting it can mean a Chroma ingest, paid once here.
let s: RealService | undefined;
beforeAll(async () => {
  s = await startRealService();
});
afterAll(() => s?.close());
beforeEach(() => s?.provider.reset());

const service = () => s!;
openaiSdkCases(service);
responsesCases(service);
groundingCases(service);
langchainCases(service);
aiSdkCases(service);
