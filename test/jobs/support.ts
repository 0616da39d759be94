/**
 * Helpers for job tests: a connected, warmed-up account with the settings a
 * test needs, made-up people to invite, and job reads.
 */
import { assert } from "@effect/vitest"
import { Clock, Deferred, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { isFinished } from "../../src/domain/Job.ts"
import type { JobRecord } from "../../src/jobs/JobRow.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { invitationOutcome } from "../../src/sandbox/Behaviour.ts"
import { memberFrom, relationTo } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import { eventually } from "../support/Eventually.ts"
import { call, newWorkspace } from "../support/TestServer.ts"

export const DAY = 86_400_000

/** Open every day, all day (so only the rule under test holds a job). */
export const alwaysOpen = { days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59", timezone: "UTC" }

/** A workspace with one connected premium account past its warm-up, patched with `settings`. */
export const workspaceWithAccount = (settings: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const { keyValue: token, workspace } = yield* newWorkspace()
    const accountId = yield* connectedAccount(token, settings)
    return { token, workspaceId: workspace.id, accountId }
  })

/** Connects an account of `tier`, ends its warm-up (14 days on the clock) and applies `settings`. */
export const connectedAccount = (
  token: string,
  settings: Record<string, unknown> = {},
  label = "Ada",
  tier: "free" | "premium" = "premium"
) =>
  Effect.gen(function*() {
    const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label } })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    const id: string = created.body.account.id
    const done = yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, {
      token,
      body: { tier, connections: 900 }
    })
    assert.strictEqual(done.status, 200, JSON.stringify(done.body))
    yield* TestClock.adjust(14 * DAY)
    const patched = yield* call("PATCH", `/v1/accounts/${id}`, {
      token,
      body: { mode: "autopilot", minInviteQuality: 0, workingHours: alwaysOpen, ...settings }
    })
    assert.strictEqual(patched.status, 200, JSON.stringify(patched.body))
    return id
  })

/** Made-up people the account is not connected to, as profile addresses. */
export const strangers = (accountId: string, count: number, salt = "jobs-test"): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (let i = 0; found.length < count && i < 50_000; i++) {
    const ref = memberFrom(rng(salt, accountId, i))
    if (relationTo(accountId, ref.providerId).connectionDegree !== 1) found.push(ref.profileUrl)
  }
  return found
}

/** A made-up stranger whom the sandbox's behaviour model has never accept an invitation, as a profile address. */
export const nonAccepting = (accountId: string, salt: string): string => {
  for (let i = 0; i < 5000; i++) {
    const ref = memberFrom(rng(salt, accountId, i))
    // Neither with a note nor without one: a note makes acceptance likelier, and some callers send one.
    const accepts = invitationOutcome(accountId, ref.providerId).accepts ||
      invitationOutcome(accountId, ref.providerId, { withNote: true }).accepts
    if (relationTo(accountId, ref.providerId).connectionDegree !== 1 && !accepts) {
      return ref.profileUrl
    }
  }
  throw new Error("nobody found")
}

/** The job as the API shows it, after waiting up to `seconds` for it to finish. */
export const jobAfter = (workspaceId: string, id: string, seconds = 5) =>
  Effect.gen(function*() {
    return yield* (yield* Jobs).get(workspaceId, id, seconds)
  }).pipe(Effect.orDie)

/** The job as it is now. */
export const jobNow = (workspaceId: string, id: string) =>
  Effect.gen(function*() {
    return yield* (yield* Jobs).get(workspaceId, id)
  }).pipe(Effect.orDie)

/** The job once `ready` holds of it (background fibers are not driven by the test clock). */
export const jobWhen = (workspaceId: string, id: string, ready: (job: JobRecord) => boolean) =>
  eventually(`job ${id}`, jobNow(workspaceId, id), ready)

/**
 * The job once it ended, moving the clock by `step` each time the account's actor says the job waits for a
 * later instant (a budget's next day, a pacing gap), at most `steps` times: never after a fixed wait.
 */
export const endedMovingClock = (workspaceId: string, id: string, step: number, steps: number) =>
  Effect.gen(function*() {
    for (let moved = 0; moved < steps; moved++) {
      const now = yield* Clock.currentTimeMillis
      const job = yield* jobWhen(workspaceId, id, (job) =>
        isFinished(job.status) || (job.waitingFor?.until != null && Date.parse(job.waitingFor.until) > now))
      if (isFinished(job.status)) return job
      yield* TestClock.adjust(step)
    }
    return yield* jobWhen(workspaceId, id, (job) => isFinished(job.status))
  })

/** Lets background fibers run (they are not driven by the test clock). */
export const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))

/**
 * The sandbox network whose writes wait at `gate` (until it is done) while `writes` counts those in flight
 * and the most at once.
 */
export const gatedWrites = (gate: Deferred.Deferred<void>, writes: { inFlight: number; most: number }) =>
  Layer.effect(
    NetworkDriver,
    Effect.gen(function*() {
      const sandbox = yield* NetworkDriver
      return NetworkDriver.of({
        ...sandbox,
        write: (accountId, command, input, attempt) =>
          Effect.gen(function*() {
            writes.inFlight++
            writes.most = Math.max(writes.most, writes.inFlight)
            yield* Deferred.await(gate)
            return yield* sandbox.write(accountId, command, input, attempt)
          }).pipe(Effect.ensuring(Effect.sync(() => writes.inFlight--)))
      })
    })
  ).pipe(Layer.provide(SandboxDriver.layer))
