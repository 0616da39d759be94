/**
 * What `Jobs` promises its callers, run against the stored service (`Jobs.test.ts`, the whole
 * core on a database) and against the in-memory one the fast route tests use
 * (`JobsMemory.test.ts`): the same expectations, so the fake cannot drift from the service it
 * stands in for. (`JobsContract.test.ts` is the OpenAPI contract of the job routes.)
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { Invalid, Missing, WrongState } from "../../src/domain/Failures.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import * as Time from "../../src/domain/Time.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import type { Backend } from "../support/Backends.ts"

/** A workspace with one account (in `approve` mode, the default, and not yet signed in), and another workspace. */
export interface JobsFixture {
  readonly workspaceId: string
  readonly accountId: string
  readonly otherWorkspaceId: string
}

const connect = { command: "connect", input: { person: "maria-garcia", note: "Hello" } } as const
const profile = { command: "get_profile", input: { person: "maria-garcia" } } as const

export const jobsExpectations = <R>(backend: Backend<R, Jobs, JobsFixture>) =>
  layer(backend.services)(`Jobs (${backend.name})`, (it) => {
    it.effect("a job is created for an account of the caller's workspace only", () =>
      backend.withFixture(({ workspaceId, accountId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const elsewhere = yield* Effect.flip(jobs.create({ workspaceId: otherWorkspaceId, accountId, ...connect }))
          assert.instanceOf(elsewhere, Missing)
          const unknown = yield* Effect.flip(jobs.create({ workspaceId, accountId: crypto.randomUUID(), ...connect }))
          assert.instanceOf(unknown, Missing)
          assert.match(nextOf(unknown.advice), /GET \/v1\/accounts/)
        })))

    it.effect("in approve mode a write waits for its approval and a read does not", () =>
      backend.withFixture(({ workspaceId, accountId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const write = yield* jobs.create({ workspaceId, accountId, ...connect })
          assert.strictEqual(write.status, "awaiting_approval")
          assert.strictEqual(write.kind, "connect")
          assert.deepStrictEqual(write.input, connect.input)
          assert.deepStrictEqual(write.waitingFor, { reason: "approval", until: null })
          assert.isString(write.approvalId)
          assert.isNull(write.result)
          const read = yield* jobs.create({ workspaceId, accountId, ...profile })
          assert.isNull(read.approvalId)
          assert.notStrictEqual(read.status, "awaiting_approval")
        })))

    it.effect("a job is read in its own workspace only", () =>
      backend.withFixture(({ workspaceId, accountId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const created = yield* jobs.create({ workspaceId, accountId, ...connect })
          assert.deepStrictEqual(yield* jobs.get(workspaceId, created.id), created)
          assert.instanceOf(yield* Effect.flip(jobs.get(otherWorkspaceId, created.id)), Missing)
          assert.instanceOf(yield* Effect.flip(jobs.get(workspaceId, crypto.randomUUID())), Missing)
        })))

    it.effect("jobs are listed newest first, a page at a time, filtered; a foreign cursor is 422", () =>
      backend.withFixture(({ workspaceId, accountId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const first = yield* jobs.create({ workspaceId, accountId, ...connect })
          const second = yield* jobs.create({ workspaceId, accountId, ...connect })
          const third = yield* jobs.create({ workspaceId, accountId, ...profile })
          const page = yield* jobs.list(workspaceId, { limit: 2 })
          assert.deepStrictEqual(page.jobs.map((job) => job.id), [third.id, second.id])
          assert.isString(page.nextCursor)
          const rest = yield* jobs.list(workspaceId, { limit: 2, cursor: page.nextCursor ?? undefined })
          assert.deepStrictEqual(rest.jobs.map((job) => job.id), [first.id])
          assert.isNull(rest.nextCursor)
          const writes = yield* jobs.list(workspaceId, { limit: 10, kind: "connect", status: "awaiting_approval", accountId })
          assert.deepStrictEqual(writes.jobs.map((job) => job.id), [second.id, first.id])
          assert.deepStrictEqual((yield* jobs.list(otherWorkspaceId, { limit: 10 })).jobs, [])
          const foreign = yield* Effect.flip(jobs.list(workspaceId, { limit: 2, cursor: "bm90LWEtY3Vyc29y" }))
          assert.instanceOf(foreign, Invalid)
        })))

    it.effect("a job that has not started is cancelled once; a second cancel is 409", () =>
      backend.withFixture(({ workspaceId, accountId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const created = yield* jobs.create({ workspaceId, accountId, ...connect })
          const cancelled = yield* jobs.cancel(workspaceId, created.id)
          assert.strictEqual(cancelled.status, "cancelled")
          assert.isNull(cancelled.waitingFor)
          assert.isString(cancelled.finishedAt)
          assert.deepStrictEqual(cancelled.error, {
            type: "cancelled",
            message: "The job was cancelled before it started.",
            next: "Create the job again if it should still run."
          })
          assert.deepStrictEqual(yield* jobs.get(workspaceId, created.id), cancelled)
          const again = yield* Effect.flip(jobs.cancel(workspaceId, created.id))
          assert.instanceOf(again, WrongState)
          assert.match(again.message, /cancelled; only a job that has not started can be cancelled/)
        })))

    it.effect("a long-poll answers the moment the job finishes", () =>
      backend.withFixture(({ workspaceId, accountId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const created = yield* jobs.create({ workspaceId, accountId, ...connect })
          const waiting = yield* Effect.forkChild(jobs.get(workspaceId, created.id, 30))
          // The long-poll's own deadline is on real time, so is this pause.
          yield* Time.liveSleep("50 millis")
          yield* jobs.cancel(workspaceId, created.id)
          const started = Date.now()
          const answered = yield* Fiber.join(waiting)
          assert.strictEqual(answered.status, "cancelled")
          assert.isBelow(Date.now() - started, 5000)
        })))

    it.effect("removing an account cancels its open jobs", () =>
      backend.withFixture(({ workspaceId, accountId }) =>
        Effect.gen(function*() {
          const jobs = yield* Jobs
          const open = yield* jobs.create({ workspaceId, accountId, ...connect })
          const closed = yield* jobs.create({ workspaceId, accountId, ...connect })
          yield* jobs.cancel(workspaceId, closed.id)
          assert.strictEqual(yield* jobs.cancelOpenOf(accountId), 1)
          const removed = yield* jobs.get(workspaceId, open.id)
          assert.strictEqual(removed.status, "cancelled")
          assert.match(String(Object(removed.error).message), /account was removed/)
        })))
  })
