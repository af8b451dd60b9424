import { WINDOW_MS } from "../../src/http/rate-limit.js";

/**
 * The rate limits count in fixed windows of WINDOW_MS on the wall clock (src/http/rate-limit.ts). A test
 * that counts requests against a running service and expects them all in one window waits here until at
 * least `needMs` of the current window remain, so it never straddles a window's end (where the count
 * starts again and the limit is not reached: a failure about one run in a hundred on a loaded machine).
 */
export async function withinOneRateWindow(needMs = 15_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
