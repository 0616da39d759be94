/**
 * Helpers for workflow tests: follow a workflow through the API while the
 * test clock moves on enough for the Governor's pacing.
 */
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Inbox } from "../../src/inbox/Inbox.ts"
import { replyOutcome } from "../../src/sandbox/Behaviour.ts"
import { memberFrom, relationTo } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { call } from "../support/TestServer.ts"
import { liveSleep } from "../support/Eventually.ts"

/**
 * How long a workflow test may take, given to each test (a `layer`'s own timeout covers only its
 * set-up and tear-down): above `readUntil`'s 60 s deadline, so a stuck workflow fails with its
 * last state rather than a bare timeout. On PostgreSQL the longest test takes 10-25 s alone and
 * passed 30 s once in CI beside the other test files.
 */
export const WORKFLOW_TEST_TIMEOUT = 120_000

/** Untyped, as an integrator reads it. */
export type WorkflowJson = any

/**
 * Reads `path` through the API until `check` holds on what `pick` takes from the body, letting real
 * time pass (the engine and its waits run in the background) and, with `movePacing`, moving the clock
 * past the Governor's pacing gap between writes. Fails with the last state after `timeoutMs`.
 */
const readUntil = (
  token: string,
  path: string,
  pick: (body: any) => WorkflowJson,
  check: (value: WorkflowJson) => boolean,
  options: { readonly movePacing?: boolean; readonly timeoutMs?: number } = {}
) =>
  Effect.gen(function*() {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000)
    let last: WorkflowJson = undefined
    while (Date.now() < deadline) {
      const read = yield* call("GET", path, { token })
      assert.strictEqual(read.status, 200, JSON.stringify(read.body))
      last = pick(read.body)
      if (check(last)) return last
      if (options.movePacing === true) yield* TestClock.adjust(PACING_MAX_MS)
      yield* liveSleep(40)
    }
    return assert.fail(`${path} did not get there; it is: ${JSON.stringify(last, null, 1)}`)
  })

/** The workflow once `check` holds (see `readUntil`). */
export const workflowUntil = (
  token: string,
  id: string,
  check: (workflow: WorkflowJson) => boolean,
  options: { readonly movePacing?: boolean; readonly timeoutMs?: number } = {}
) => readUntil(token, `/v1/workflows/${id}`, (body) => body.workflow, check, options)

/** The automation once `check` holds (see `readUntil`). */
export const automationUntil = (token: string, id: string, check: (automation: WorkflowJson) => boolean) =>
  readUntil(token, `/v1/automations/${id}`, (body) => body.automation, check)

/** The person replies to the account in the sandbox, and the account's inbox syncs it (and triages the reply). */
export const reply = (token: string, accountId: string, person: string, text: string) =>
  Effect.gen(function*() {
    const received = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
      token,
      body: { type: "message_received", person, text }
    })
    assert.strictEqual(received.status, 200, JSON.stringify(received.body))
    yield* (yield* Inbox).syncAccount(accountId)
  })

/** Starts a workflow through the API; asserts the 202. */
export const startWorkflow = (token: string, body: Record<string, unknown>) =>
  Effect.gen(function*() {
    const started = yield* call("POST", "/v1/workflows", { token, body })
    assert.strictEqual(started.status, 202, JSON.stringify(started.body))
    return started.body.workflow as WorkflowJson
  })

/**
 * People the account is already connected to (so messages go as plain messages) who, left alone,
 * answer none of its first three messages: only the replies a test sends arrive.
 */
export const quietConnections = (accountId: string, count: number, salt: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (let i = 0; found.length < count && i < 50_000; i++) {
    const ref = memberFrom(rng(salt, accountId, i))
    const quiet = [0, 1, 2].every((index) => replyOutcome(accountId, ref.providerId, index) === null)
    if (relationTo(accountId, ref.providerId).connectionDegree === 1 && quiet) found.push(ref.profileUrl)
  }
  return found
}

/** One of {@link quietConnections}. */
export const quietConnection = (accountId: string, salt: string): string => quietConnections(accountId, 1, salt)[0]
