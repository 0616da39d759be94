import { defineConfig } from "vitest/config"
import { LongestFirst } from "./test/support/LongestFirst.ts"
import { projects } from "./test/support/Tiers.ts"

// The tiers (test/support/Tiers.ts): `npm test` runs `fast`, `npm run test:db` runs `db`,
// `npm run test:slow` runs `slow`; `npx vitest run <file>` runs a file in its own tier.
// The chaos suite runs on its own: `npm run chaos` (vitest.chaos.config.ts).
export default defineConfig({
  test: {
    projects,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy; keep parallelism modest on a 2-core machine.
    maxWorkers: 2,
    // The files that wait longest start first (`Tiers.longest`).
    sequence: { sequencer: LongestFirst }
  }
})
