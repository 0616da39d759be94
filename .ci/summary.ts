// Prints one closing line for all test runs: "tests: N passed, N failed".
// A run that wrote no report (vitest stopped before its tests) fails the summary too.
import { existsSync, readFileSync } from "node:fs"

let passed = 0
let failed = 0
let missing = 0
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`${file}: no report`)
    missing += 1
    continue
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number }
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
  passed += report.numPassedTests
  failed += report.numFailedTests
}
console.log(`tests: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 && missing === 0 && passed > 0 ? 0 : 1)
