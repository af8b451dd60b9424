import OpenAI from "openai";
import { expect } from "vitest";

export const QUESTION = "What does the Bible say about patience?";

export interface Outcome {
  /** HTTP status of the response (200 for a stream that ended with an in-stream error). */
  status: number;
  code?: string | null;
  type?: string;
  /** True when the error came as `data: {"error":...}` after SSE headers. */
  inStream?: boolean;
  retryAfter?: string | null;
  text: string;
  ms: number;
  message?: string;
}

/** One chat request through the official SDK; every failure becomes an Outcome instead of a throw. */
export async function ask(client: OpenAI, stream: boolean, body: Record<string, unknown> = {}): Promise<Outcome> {
  const started = performance.now();
  const params = { model: "gpt-4o-mini", messages: [{ role: "user", content: QUESTION }], ...body };
  let text = "";
  let headersSeen = false;
  try {
    if (stream) {
      const s = await client.chat.completions.create({ ...params, stream: true } as unknown as OpenAI.ChatCompletionCreateParamsStreaming);
      headersSeen = true;
      for await (const chunk of s) text += chunk.choices[0]?.delta.content ?? "";
    } else {
      const r = await client.chat.completions.create(params as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
      text = r.choices[0]?.message.content ?? "";
    }
    return { status: 200, text, ms: performance.now() - started };
  } catch (err) {
    if (!(err instanceof OpenAI.APIError)) throw err;
    return {
      status: headersSeen ? 200 : (err.status ?? 0),
      code: err.code ?? null,
      type: err.type,
      inStream: headersSeen,
      retryAfter: err.headers?.get("retry-after") ?? null,
      text,
      ms: performance.now() - started,
      message: err.message,
    };
  }
}

/** The next ordinary request succeeds: the fault left nothing broken behind. */
export async function expectRecovered(client: OpenAI, stream: boolean) {
  const next = await ask(client, stream);
  expect(next).toMatchObject({ status: 200 });
  expect(next.text).toContain("John 3:16");
}
