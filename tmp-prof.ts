import { Session } from "node:inspector/promises";
import { writeFileSync, mkdirSync } from "node:fs";
import { match, reply } from "./test/fakes/index.js";
import { startChatStack } from "./test/http/chat-stack.js";
const ANSWER =
  'God\'s love is shown in John 3:16: "For God so loved the world, that he gave his only born Son." It is a gift, ' +
  "not a wage, as Romans 6:23 and Ephesians 2:8-9 say. The love is for the whole world, and it is received by faith. " +
  "See also 1 John 4:9-10, where love is defined by God's sending of his Son.";
const stack = await startChatStack({ logLevel: "info", keepLogs: false, maxRecorded: 100 });
stack.provider.on(match.all(match.agent(), match.not(match.afterToolResult())), reply.toolCall("lookup_passage", { reference: "John 3:16" }));
stack.provider.on(match.all(match.agent(), match.afterToolResult()), reply.text(ANSWER));
const body = (stream: boolean) => JSON.stringify({ model: "gpt-4o-mini", stream, messages: [{ role: "user", content: "What does John 3:16 teach about God's love?" }] });
const go = async (i: number) => { const r = await fetch(`${stack.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer sk-bench-0000" }, body: body(i % 2 === 0) }); await r.text(); if (r.status !== 200) throw new Error(String(r.status)); };
for (let i = 0; i < 60; i++) await go(i);
const N = Number(process.env.N ?? 300);
const s = new Session(); s.connect();
if (process.env.PROF) { await s.post("Profiler.enable"); await s.post("Profiler.setSamplingInterval", { interval: 100 }); await s.post("Profiler.start"); }
const c0 = process.cpuUsage(); const t0 = performance.now();
for (let i = 0; i < N; i++) await go(i);
const c = process.cpuUsage(c0);
console.log(`cpu/req ${((c.user + c.system) / 1000 / N).toFixed(2)} ms, wall/req ${((performance.now() - t0) / N).toFixed(2)} ms`);
if (process.env.PROF) { const { profile } = await s.post("Profiler.stop"); mkdirSync("/tmp/32a/steady", { recursive: true }); writeFileSync("/tmp/32a/steady/p.cpuprofile", JSON.stringify(profile)); }
await stack.close();
process.exit(0);
