import { defineConfig } from "vitest/config"
import { chaos } from "./test/support/Tiers.ts"

// `npm run chaos`: the chaos suite (test/chaos), one scenario at a time, each with
// its own PostgreSQL server and real server processes.
export default defineConfig({
  test: {
    include: [...chaos],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    maxWorkers: 1
  }
})
