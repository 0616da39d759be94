// Prints one closing line for all test runs: "tests: N passed, N failed", and above it each
// failed test with the first lines of its error, so the end of the CI log names what failed.
// A run that wrote no report (vitest stopped before its tests) fails the summary too.
import { existsSync, readFileSync } from "node:fs"

interface Assertion {
  readonly status: string
  readonly fullName: string
  readonly failureMessages?: ReadonlyArray<string>
}
interface Report {
  readonly numPassedTests: number
  readonly numFailedTests: number
  readonly testResults?: ReadonlyArray<{ readonly name: string; readonly message?: string; readonly assertionResults?: ReadonlyArray<Assertion> }>
}

const firstLines = (text: string, count: number) =>
  text.split("\n").filter((line) => line.trim() !== "").slice(0, count).map((line) => `      ${line}`).join("\n")

let passed = 0
let failed = 0
let missing = 0
const failures: Array<string> = []
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`${file}: no report`)
    missing += 1
    continue
  }
  const report: Report = JSON.parse(readFileSync(file, "utf8"))
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`)
  passed += report.numPassedTests
  failed += report.numFailedTests
  for (const suite of report.testResults ?? []) {
    const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === "failed")
    for (const test of failedTests) {
      failures.push(`  ${file} ${suite.name}\n    ${test.fullName}\n${firstLines((test.failureMessages ?? []).join("\n"), 6)}`)
    }
    if (failedTests.length === 0 && suite.message) {
      failures.push(`  ${file} ${suite.name}\n${firstLines(suite.message, 6)}`)
    }
  }
}
if (failures.length > 0) console.log(`failed:\n${failures.join("\n")}`)
console.log(`tests: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 && missing === 0 && passed > 0 ? 0 : 1)
