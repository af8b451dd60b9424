import OpenAI from "openai";
import { beforeEach, describe, expect, it } from "vitest";
import { match, reply } from "../fakes/index.js";
import { KEY, MODEL, QUESTION } from "./expectations.js";
import type { BiblicalExtras } from "./openai-sdk.cases.js";
import type { RealService } from "./service.js";
import { formatGrounding, runScenarios } from "../../evals/answers/runner.js";
import { findReferences } from "../../src/scripture/references.js";

// A misquotation (the NIV's "one and only Son" for the WEB's "only born Son"), a faithful quotation,
// and a reference without a quotation.
const ANSWER =
  'John 3:16 says: "For God so loved the world, that he gave his one and only Son." ' +
  'Romans 8:28 reads, "all things work together for good for those who love God." See also Psalm 23.';
const CORRECTED = '"For God so loved the world, that he gave his only born Son."';
const FAITHFUL = '"all things work together for good for those who love God."';

interface Citation {
  reference: string;
  book_id: string;
  chapter: number;
  verses: number[] | null;
  bible_id: string;
  url: string;
  quoted: string | null;
  status: string;
}

const EXPECTED: Citation[] = [
  {
    reference: "John 3:16", book_id: "JHN", chapter: 3, verses: [16], bible_id: "eng-web", url: "/read/JHN/3?verse=16",
    quoted: "For God so loved the world, that he gave his only born Son.", status: "corrected",
  },
  {
    reference: "Romans 8:28", book_id: "ROM", chapter: 8, verses: [28], bible_id: "eng-web", url: "/read/ROM/8?verse=28",
    quoted: "all things work together for good for those who love God.", status: "verified",
  },
  { reference: "Psalm 23", book_id: "PSA", chapter: 23, verses: null, bible_id: "eng-web", url: "/read/PSA/23", quoted: null, status: "cited" },
];

/** Every reader link in the answer, as [text, url]. */
const links = (text: string) => [...text.matchAll(/\[([^\]]+)\]\((\/read\/[^)]+)\)/g)].map((m) => m[2]);

/** Quotation check and citations through the official openai SDK, against the real service. */
export function groundingCases(service: () => RealService) {
  describe("grounding through the official openai SDK", () => {
    const client = () => new OpenAI({ baseURL: `${service().url}/v1`, apiKey: KEY, maxRetries: 0 });
    beforeEach(() => {
      service().provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(ANSWER));
    });

    it("when the answer misquotes without streaming, then the exact text replaces it, the faithful quotation stands and citations list every link", async () => {
      const res = await client().chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: QUESTION }],
      } satisfies OpenAI.ChatCompletionCreateParamsNonStreaming as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const content = res.choices[0]!.message.content!;
      expect(content).toContain(CORRECTED);
      expect(content).toContain(FAITHFUL);
      expect(content).not.toContain("one and only");
      const citations = (res as unknown as { citations: Citation[] }).citations;
      expect(citations).toEqual(EXPECTED);
      const urls = citations.map((c) => c.url);
      expect(links(content).length).toBeGreaterThanOrEqual(3);
      for (const url of links(content)) expect(urls).toContain(url);

      const metrics = await (await fetch(`${service().url}/metrics`)).text();
      expect(metrics).toMatch(/scripture_quotations_total\{status="corrected"\} [1-9]/);
      expect(metrics).toMatch(/scripture_quotations_total\{status="verified"\} [1-9]/);
    });

    it("when the answer streams, then the same text arrives and the chunk with finish_reason carries the citations", async () => {
      const stream = await client().chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: QUESTION }],
        stream: true,
        stream_options: { include_usage: true },
      } satisfies OpenAI.ChatCompletionCreateParamsStreaming as OpenAI.ChatCompletionCreateParamsStreaming);
      let text = "";
      let citations: Citation[] | undefined;
      let carrier: string | null | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? "";
        const extra = (chunk as unknown as { citations?: Citation[] }).citations;
        if (extra !== undefined) {
          citations = extra;
          carrier = chunk.choices[0]?.finish_reason;
        }
      }
      expect(carrier).toBe("stop");
      expect(text).toContain(CORRECTED);
      expect(text).toContain(FAITHFUL);
      expect(citations).toEqual(EXPECTED);
      for (const url of links(text)) expect(citations!.map((c) => c.url)).toContain(url);
    });

    it("when verify_quotes is false, then the model's words go out as written and nothing is marked verified or corrected", async () => {
      const res = await client().chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: QUESTION }],
        verify_quotes: false,
        bible_id: "eng-kjv",
      } satisfies OpenAI.ChatCompletionCreateParamsNonStreaming & BiblicalExtras & { verify_quotes: boolean } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const content = res.choices[0]!.message.content!;
      expect(content).toContain('"For God so loved the world, that he gave his one and only Son."');
      expect(content).toContain("[John 3:16](/read/JHN/3?verse=16&bible_id=eng-kjv)");
      const citations = (res as unknown as { citations: Citation[] }).citations;
      expect(citations.map((c) => [c.reference, c.status, c.bible_id])).toEqual([
        ["John 3:16", "cited", "eng-kjv"],
        ["Romans 8:28", "cited", "eng-kjv"],
        ["Psalm 23", "cited", "eng-kjv"],
      ]);
    });
  
    it("when eval:answers runs against the service, then it reports the share of quotations corrected per theology and model", async () => {
      const scenario = (id: string, theology: string) => ({
        id, file: "test", question: QUESTION, theology, profile: "universal_explorer", max_words: 120, language: "en" as const,
        min_citations: 1, must_include: [], must_not_include: [],
      });
      const results = await runScenarios({
        baseURL: `${service().url}/v1`,
        apiKey: KEY,
        model: MODEL,
        scenarios: [scenario("a", "reformed"), scenario("b", "catholic")],
        findReferences,
        concurrency: 1,
      });
      expect(results.map((r) => r.quotes)).toEqual([{ verified: 1, corrected: 1 }, { verified: 1, corrected: 1 }]);
      const rows = formatGrounding(results).split("\n").map((line) => line.split(/\s+/));
      expect(rows).toContainEqual(["reformed", MODEL, "1", "2", "1", "50%"]);
      expect(rows).toContainEqual(["all", "2", "4", "2", "50%"]);
    });
  });
}
