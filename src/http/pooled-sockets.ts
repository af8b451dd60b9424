import { AsyncResource } from "node:async_hooks";
import type { Agent } from "node:http";

/**
 * An async scope made when this module loads (at start, outside any request), so it carries no
 * request's AsyncLocalStorage store.
 */
const outsideRequests = new AsyncResource("biblical-chat:pooled-socket");

/**
 * Makes the agent open its sockets outside the async context of the request that needed them. Node gives
 * every async resource the AsyncLocalStorage stores current where it is made, and a kept-alive socket
 * lives on in the pool after its request: a socket opened inside a chat run kept that run's LangChain
 * config (and through it the run's context, system prompts, messages and turns) alive for as long as the
 * socket lived, ~190 KB a socket (docs/performance.md, session 14). Only the socket is made outside: the
 * agent hands it to the request where it always does, so the request's events keep their context.
 */
export function poolOutsideRequests<A extends Agent>(agent: A): A {
  const create = agent.createConnection.bind(agent);
  agent.createConnection = (options, callback) => outsideRequests.runInAsyncScope(() => create(options, callback));
  return agent;
}
