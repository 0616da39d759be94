// Prints one closing line for all test runs: "tests: N passed, N failed".
import { readFileSync } from "node:fs"

let passed = 0
let failed = 0
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, "utf8")) as { numPassedTests: number; numFailedTests: number }
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
  passed += report.numPassedTests
  failed += report.numFailedTests
}
console.log(`tests: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 && passed > 0 ? 0 : 1)
