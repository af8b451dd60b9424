import type { ServerResponse } from "node:http";
import { type ChatRequest, forcedFunction, promptChars } from "./chat-request.js";
import { DEFAULT_ANSWER } from "./default-script.js";
import type { FakeReply, ToolCallSpec } from "./replies.js";
import {
  ChunkWriter,
  type CompletionMeta,
  completionBody,
  defaultErrorFor,
  estimateTokens,
  type FinishReason,
  makeUsage,
  type Usage,
  type WireToolCall,
} from "./wire.js";

export interface ResponderContext {
  request: ChatRequest;
  res: ServerResponse;
  rawLength: number;
  now: () => number;
}

/** The successful content of a reply, before it is framed as one body or as chunks. */
interface Answer {
  text: string | null;
  pieces: string[];
  toolCalls: WireToolCall[];
  argumentPieceSize: number;
  finishReason: FinishReason;
  usage: Usage;
  /** The `content` a tool-call turn carries beside its calls ("" or null), when the reply sets one. */
  callContent?: "" | null;
}

const JSON_PIECE = 12;

/** Resolves false when the client went away during the pause. */
function pause(ms: number, res: ServerResponse): Promise<boolean> {
  if (ms <= 0 || res.destroyed) return Promise.resolve(!res.destroyed);
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(!res.destroyed);
    }, ms);
    res.once("close", onClose);
  });
}

function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function splitEvery(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function toWireCalls(seq: number, calls: ToolCallSpec[]): WireToolCall[] {
  return calls.map((call, i) => ({
    id: call.id ?? `call_fake${seq.toString(36).padStart(4, "0")}${i}`,
    name: call.name,
    arguments: typeof call.args === "string" ? call.args : JSON.stringify(call.args ?? {}),
  }));
}

function usageFor(ctx: ResponderContext, completionChars: number, override?: Partial<Usage>): Usage {
  const prompt = override?.prompt_tokens ?? estimateTokens(promptChars(ctx.request.body, ctx.rawLength));
  const completion = override?.completion_tokens ?? estimateTokens(completionChars);
  return makeUsage(prompt, completion);
}

function answerFor(ctx: ResponderContext, reply: FakeReply): Answer {
  const seq = ctx.request.seq;
  const base = { toolCalls: [] as WireToolCall[], argumentPieceSize: 10, finishReason: "stop" as FinishReason };
  if (reply.kind === "text") {
    const pieces = reply.chunks ?? splitWords(reply.text);
    const text = reply.chunks ? reply.chunks.join("") : reply.text;
    return { ...base, text, pieces, finishReason: reply.finishReason ?? "stop", usage: usageFor(ctx, text.length, reply.usage) };
  }
  if (reply.kind === "toolCalls") {
    const toolCalls = toWireCalls(seq, reply.calls);
    const chars = toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, reply.text?.length ?? 0);
    return {
      text: reply.content !== undefined ? reply.content : (reply.text ?? null),
      pieces: reply.text ? splitWords(reply.text) : [],
      toolCalls,
      argumentPieceSize: reply.argumentPieceSize ?? 10,
      finishReason: "tool_calls",
      usage: usageFor(ctx, chars),
      ...(reply.content !== undefined ? { callContent: reply.content } : {}),
    };
  }
  if (reply.kind === "json") {
    const json = typeof reply.value === "string" ? reply.value : JSON.stringify(reply.value);
    const forced = forcedFunction(ctx.request.body);
    if (forced && !ctx.request.body.response_format) {
      // OpenAI ends a call of a function named in tool_choice with "stop", not "tool_calls".
      const toolCalls = toWireCalls(seq, [{ name: forced.function.name, args: json }]);
      return { ...base, text: null, pieces: [], toolCalls, usage: usageFor(ctx, json.length) };
    }
    return { ...base, text: json, pieces: splitEvery(json, JSON_PIECE), usage: usageFor(ctx, json.length) };
  }
  // Failure modes stream a partial answer first; this is what they would have said.
  const text = "text" in reply && reply.text ? reply.text : DEFAULT_ANSWER;
  return { ...base, text, pieces: splitWords(text), usage: usageFor(ctx, text.length) };
}

function meta(ctx: ResponderContext): CompletionMeta {
  return {
    id: `chatcmpl-fake${ctx.request.seq.toString(36).padStart(8, "0")}`,
    created: Math.floor(Date.now() / 1000),
    model: ctx.request.body.model,
  };
}

function writeJson(ctx: ResponderContext, status: number, body: string, headers: Record<string, string> = {}): void {
  ctx.request.firstByteAt = ctx.now();
  ctx.res.writeHead(status, { "content-type": "application/json", ...headers });
  ctx.res.end(body);
}

function errorBody(reply: Extract<FakeReply, { kind: "error" | "streamError" }>, status: number): string {
  return JSON.stringify({ error: { ...defaultErrorFor(status), ...reply.error } });
}

function respondNonStream(ctx: ResponderContext, reply: FakeReply): void {
  const { res } = ctx;
  switch (reply.kind) {
    case "stall":
      ctx.request.firstByteAt = ctx.now();
      res.writeHead(200, { "content-type": "application/json" });
      res.flushHeaders();
      return;
    case "reset":
      res.socket?.destroy();
      return;
    case "cut":
    case "malformed": {
      const whole = JSON.stringify(completionBody(meta(ctx), DEFAULT_ANSWER, [], "stop", usageFor(ctx, 0)));
      writeJson(ctx, 200, whole.slice(0, Math.floor(whole.length / 2)));
      return;
    }
    case "streamError":
      // Some OpenAI-compatible providers put an error object in a 200 body.
      writeJson(ctx, 200, errorBody(reply, 500));
      return;
    default: {
      const answer = answerFor(ctx, reply);
      const body = completionBody(meta(ctx), answer.text, answer.toolCalls, answer.finishReason, answer.usage);
      writeJson(ctx, 200, JSON.stringify(body));
    }
  }
}

function successFrames(writer: ChunkWriter, answer: Answer, withUsage: boolean): string[] {
  const frames = answer.pieces.map((piece) => writer.content(piece));
  answer.toolCalls.forEach((call, index) => {
    frames.push(writer.toolCallStart(index, call, answer.callContent));
    for (const piece of splitEvery(call.arguments, answer.argumentPieceSize)) {
      frames.push(writer.toolCallArguments(index, piece));
    }
  });
  frames.push(writer.finish(answer.finishReason));
  if (withUsage) frames.push(writer.usage(answer.usage));
  frames.push(ChunkWriter.done());
  return frames;
}

/** The frames after the partial answer, and whether the socket is then destroyed or left open. */
function faultTail(ctx: ResponderContext, reply: FakeReply, writer: ChunkWriter) {
  switch (reply.kind) {
    case "cut":
      return { frames: reply.withFinish ? [writer.finish("stop")] : [], then: "end" as const };
    case "malformed":
      return { frames: [`data: {"id":"${meta(ctx).id}","choices":[{"delta":{"content":\n\n`, ChunkWriter.done()], then: "end" as const };
    case "streamError":
      return { frames: [`data: ${errorBody(reply, 500)}\n\n`, ChunkWriter.done()], then: "end" as const };
    case "reset":
      return { frames: [], then: "destroy" as const };
    default:
      return { frames: [], then: "stall" as const };
  }
}

async function respondStream(ctx: ResponderContext, reply: FakeReply): Promise<void> {
  const { res, request } = ctx;
  if (reply.kind === "reset" && reply.afterChunks <= 0) {
    res.socket?.destroy();
    return;
  }
  const withUsage = request.body.stream_options?.include_usage === true;
  const writer = new ChunkWriter(meta(ctx), withUsage);
  const answer = answerFor(ctx, reply);
  const isFault = reply.kind !== "text" && reply.kind !== "toolCalls" && reply.kind !== "json" && reply.kind !== "normal";
  let frames: string[];
  let then: "end" | "destroy" | "stall" = "end";
  if (isFault) {
    const afterChunks = "afterChunks" in reply ? reply.afterChunks : 0;
    const tail = faultTail(ctx, reply, writer);
    frames = [...answer.pieces.slice(0, afterChunks).map((p) => writer.content(p)), ...tail.frames];
    then = tail.then;
  } else {
    frames = successFrames(writer, answer, withUsage);
  }
  request.firstByteAt = ctx.now();
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  const chunkDelayMs = reply.chunkDelayMs ?? 0;
  const finishWith = () => {
    if (then === "end") res.end();
    else if (then === "destroy") res.socket?.destroy();
  };
  if (chunkDelayMs <= 0) {
    // One write keeps the fake cheap at 0 ms; a destroy waits for the bytes to reach the kernel.
    if (frames.length > 0) request.firstTokenAt = ctx.now();
    const all = writer.role(answer.callContent) + frames.join("");
    if (then === "end") res.end(all);
    else res.write(all, () => finishWith());
    return;
  }
  res.write(writer.role(answer.callContent));
  for (const frame of frames) {
    if (!(await pause(chunkDelayMs, res))) return;
    request.firstTokenAt ??= ctx.now();
    res.write(frame);
  }
  if (then === "destroy") res.write("", () => finishWith());
  else finishWith();
}

export async function respondToChat(ctx: ResponderContext, reply: FakeReply): Promise<void> {
  ctx.request.replyKind = reply.kind;
  if (!(await pause(reply.delayMs ?? 0, ctx.res))) return;
  if (reply.kind === "hang") return;
  if (reply.kind === "error") {
    const body = reply.rawBody ?? errorBody(reply, reply.status);
    writeJson(ctx, reply.status, body, reply.headers);
    return;
  }
  if (ctx.request.body.stream === true) await respondStream(ctx, reply);
  else respondNonStream(ctx, reply);
}
