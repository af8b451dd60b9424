import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "evals/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: "forks",
    // One production index per run (test/helpers/global-index.ts); every log line of the run is scanned
    // for leaked API keys (test/security/capture-*.ts).
    globalSetup: ["./test/helpers/global-index.ts", "./test/security/capture-global.ts"],
    setupFiles: ["./test/security/capture-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
