import type { Reporter, TestModule } from "vitest/node";

/** Prints one plain "N passed, N failed" line that CI systems can read without parsing vitest's output, then every skipped test by name. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped.push(test.fullName);
      }
      if (mod.state() === "failed" && mod.children.size === 0) failed++;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed${skipped.length ? `, ${skipped.length} skipped` : ""}\n`);
    // A test that needs something absent (a Redis server) says so by name rather than passing silently.
    for (const name of skipped) process.stdout.write(`  skipped: ${name}\n`);
  }
}
