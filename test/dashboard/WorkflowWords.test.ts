/**
 * Workflows in words for their dashboard pages: steps, durations, statuses
 * and log lines, never command names or seconds.
 */
import { assert, describe, it } from "@effect/vitest"
import { durationInWords, logInWords, stepInWords, workflowStatusInWords } from "../../src/dashboard/WorkflowWords.ts"

describe("workflows in words", () => {
  it("says durations, steps and branches as people do", () => {
    assert.deepStrictEqual([86_400, 3 * 86_400, 7_200, 90, 60].map(durationInWords), ["1 day", "3 days", "2 hours", "90 seconds", "1 minute"])
    const step = stepInWords({
      type: "waitFor",
      condition: { type: "replied", classes: ["not_now"] },
      timeoutSeconds: 604_800,
      then: [{ type: "command", command: "send_message", input: { text: "x".repeat(80) } }],
      else: [{ type: "wait", seconds: 3_600 }]
    }).value
    assert.include(step, "Wait up to 7 days until the person replies (not now), then:")
    assert.include(step, `<li>Message “${"x".repeat(59)}…”</li>`)
    assert.include(step, "otherwise: <ol><li>Wait 1 hour</li></ol>")
    // Text from a step is escaped like any other.
    assert.include(stepInWords({ type: "command", command: "connect", input: { note: "<b>hi</b>" } }).value, "Invitation “&lt;b&gt;hi&lt;/b&gt;”")
  })

  it("says statuses and log lines in words", () => {
    assert.strictEqual(workflowStatusInWords({ status: "waiting", paused: true, waitingReason: "delay" }), "Paused")
    assert.strictEqual(workflowStatusInWords({ status: "waiting", paused: false, waitingReason: "delay" }), "Waiting for a wait to pass")
    assert.strictEqual(workflowStatusInWords({ status: "waiting", paused: false, waitingReason: "job" }, "awaiting_approval"), "Waiting for approval")
    assert.strictEqual(workflowStatusInWords({ status: "cancelled", paused: false, waitingReason: null }), "Stopped by hand")
    assert.strictEqual(logInWords("started connect"), "started: Invitation")
    assert.strictEqual(logInWords("started wait 259200 s"), "started: wait 3 days")
    assert.strictEqual(logInWords("job 0f8e3c1a-5b2d-4c6e-9a7f-1b2c3d4e5f6a (send_message) created"), "Message: its job was made")
    assert.strictEqual(logInWords("took else"), "the condition did not hold: took the other branch")
    assert.strictEqual(logInWords("paused"), "paused")
  })
})
