import { configDefaults, defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The chaos suite runs on its own: `npm run chaos` (vitest.chaos.config.ts).
    exclude: [...configDefaults.exclude, "test/chaos/**"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are heavy; keep parallelism modest on a 2-core machine.
    maxWorkers: 2
  }
})
