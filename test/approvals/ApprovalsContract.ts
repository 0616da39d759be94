/**
 * What `Approvals` promises its callers, run against the stored approvals (`Approvals.test.ts`,
 * the whole core on a database) and against the in-memory ones the fast route tests use
 * (`ApprovalsMemory.test.ts`, on the in-memory jobs): the same expectations, so the fake cannot
 * drift from the service it stands in for. The jobs whose approvals these are come from `Jobs`,
 * and decisions are read back in the `ActivityLog`, of the same backend.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Approvals } from "../../src/approvals/Approvals.ts"
import { Expired, Invalid, Missing, WrongState } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import type { Backend } from "../support/Backends.ts"

/** A workspace with one account in `approve` mode, another workspace, and how to move the backend's clock. */
export interface ApprovalsFixture {
  readonly workspaceId: string
  readonly accountId: string
  readonly otherWorkspaceId: string
  readonly advance: (ms: number) => Effect.Effect<void>
}

const HOUR_MS = 3_600_000

const connect = (person: string) => ({ command: "connect", input: { person, note: "Hello" } }) as const

/** A connect of `fixture`'s account, awaiting its approval: the job and its approval's id. */
const awaiting = (fixture: ApprovalsFixture, person = "maria-garcia") =>
  Effect.gen(function*() {
    const job = yield* (yield* Jobs).create({ workspaceId: fixture.workspaceId, accountId: fixture.accountId, ...connect(person) })
    assert.strictEqual(job.status, "awaiting_approval")
    assert.isString(job.approvalId)
    return { job, approvalId: job.approvalId ?? "" }
  })

export const approvalsExpectations = <R>(backend: Backend<R, Approvals | Jobs | ActivityLog, ApprovalsFixture>) =>
  layer(backend.services)(`Approvals (${backend.name})`, (it) => {
    it.effect("a write's approval is listed pending with its target and text, oldest first, in its own workspace only", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const { workspaceId, accountId, otherWorkspaceId } = fixture
          const first = yield* awaiting(fixture)
          yield* fixture.advance(1000)
          const second = yield* awaiting(fixture, "ada-lovelace")
          const page = yield* approvals.list(workspaceId, { limit: 1 })
          assert.deepStrictEqual(page.approvals, [{
            id: first.approvalId,
            accountId,
            jobId: first.job.id,
            kind: "connect",
            status: "pending",
            target: "maria-garcia",
            text: "Hello",
            reason: null,
            createdAt: first.job.createdAt,
            expiresAt: Time.toIso(Date.parse(first.job.createdAt) + 72 * HOUR_MS),
            decidedAt: null
          }])
          assert.isString(page.nextCursor)
          const rest = yield* approvals.list(workspaceId, { limit: 1, cursor: page.nextCursor ?? undefined })
          assert.deepStrictEqual(rest.approvals.map((approval) => approval.id), [second.approvalId])
          const pending = yield* approvals.list(workspaceId, { limit: 10, status: "pending", accountId })
          assert.deepStrictEqual(pending.approvals.map((approval) => approval.id), [first.approvalId, second.approvalId])
          assert.isNull(pending.nextCursor)
          assert.deepStrictEqual((yield* approvals.list(workspaceId, { limit: 10, status: "approved" })).approvals, [])
          assert.deepStrictEqual((yield* approvals.list(otherWorkspaceId, { limit: 10 })).approvals, [])
          assert.instanceOf(yield* Effect.flip(approvals.list(workspaceId, { limit: 1, cursor: "bm90LWEtY3Vyc29y" })), Invalid)
        })))

    it.effect("approving queues the job with the text to send instead; deciding again is refused", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const { approvalId, job } = yield* awaiting(fixture)
          const now = yield* Time.now
          const { approval, job: queued } = yield* approvals.approve(fixture.workspaceId, approvalId, "Hi Maria", "user:ada")
          assert.deepStrictEqual(
            { status: approval.status, text: approval.text, decidedAt: approval.decidedAt },
            { status: "approved", text: "Hi Maria", decidedAt: now.iso }
          )
          assert.strictEqual(queued.id, job.id)
          assert.strictEqual(queued.status, "queued")
          assert.deepStrictEqual(queued.input, { person: "maria-garcia", note: "Hi Maria" })
          const again = yield* Effect.flip(approvals.approve(fixture.workspaceId, approvalId, undefined, "user:ada"))
          assert.instanceOf(again, WrongState)
          assert.strictEqual(again.message, "The approval is already approved.")
          assert.strictEqual(nextOf(again.advice), `Read its job with GET /v1/jobs/${job.id}.`)
          assert.instanceOf(yield* Effect.flip(approvals.reject(fixture.workspaceId, approvalId, undefined, "user:ada")), WrongState)
          const log = yield* (yield* ActivityLog).list(fixture.workspaceId, { limit: 10 })
          assert.deepStrictEqual(
            log.entries.filter((entry) => entry.resourceId === approvalId).map(({ actor, action, summary, before, after }) => ({
              actor,
              action,
              summary,
              before,
              after
            })),
            [{
              actor: "user:ada",
              action: "approval.edited",
              summary: "edited and approved the invitation to maria-garcia",
              before: { text: "Hello" },
              after: { text: "Hi Maria" }
            }]
          )
        })))

    it.effect("rejecting fails the job with the reason", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const { approvalId } = yield* awaiting(fixture)
          const { approval, job } = yield* approvals.reject(fixture.workspaceId, approvalId, "Not a fit", "key:crm")
          assert.deepStrictEqual({ status: approval.status, reason: approval.reason }, { status: "rejected", reason: "Not a fit" })
          assert.strictEqual(job.status, "failed")
          assert.isNull(job.waitingFor)
          assert.isString(job.finishedAt)
          assert.deepStrictEqual(job.error, {
            type: "approvalRejected",
            message: "A person rejected this write: Not a fit",
            next: "Change the request and create a new job if it should still go out."
          })
          assert.deepStrictEqual(yield* (yield* Jobs).get(fixture.workspaceId, job.id), job)
          const [entry] = (yield* (yield* ActivityLog).list(fixture.workspaceId, { limit: 1 })).entries
          assert.deepStrictEqual(
            { actor: entry?.actor, action: entry?.action, summary: entry?.summary },
            { actor: "key:crm", action: "approval.rejected", summary: "rejected the invitation to maria-garcia: Not a fit" }
          )
        })))

    it.effect("an approval of another workspace, or none, is not found; text that does not fit decides nothing", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const { approvalId } = yield* awaiting(fixture)
          const elsewhere = yield* Effect.flip(approvals.approve(fixture.otherWorkspaceId, approvalId, undefined, "user:ada"))
          assert.instanceOf(elsewhere, Missing)
          assert.strictEqual(elsewhere.message, `No approval ${approvalId} in this workspace.`)
          assert.match(nextOf(elsewhere.advice), /GET \/v1\/approvals/)
          assert.instanceOf(yield* Effect.flip(approvals.reject(fixture.workspaceId, crypto.randomUUID(), undefined, "user:ada")), Missing)
          const tooLong = yield* Effect.flip(approvals.approve(fixture.workspaceId, approvalId, "x".repeat(301), "user:ada"))
          assert.instanceOf(tooLong, Invalid)
          assert.match(tooLong.message, /^The edited text does not fit a connect: /)
          const [still] = (yield* approvals.list(fixture.workspaceId, { limit: 1 })).approvals
          assert.strictEqual(still?.status, "pending")
          // Its id in capitals is the same uuid.
          const { approval } = yield* approvals.approve(fixture.workspaceId, approvalId.toUpperCase(), undefined, "user:ada")
          assert.deepStrictEqual({ id: approval.id, status: approval.status, text: approval.text }, {
            id: approvalId,
            status: "approved",
            text: "Hello"
          })
        })))

    it.effect("cancelling the job rejects its pending approval", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const { approvalId, job } = yield* awaiting(fixture)
          yield* (yield* Jobs).cancel(fixture.workspaceId, job.id)
          const [rejected] = (yield* approvals.list(fixture.workspaceId, { limit: 10, status: "rejected" })).approvals
          assert.deepStrictEqual({ id: rejected?.id, reason: rejected?.reason }, {
            id: approvalId,
            reason: "The job was cancelled before it started."
          })
          assert.instanceOf(yield* Effect.flip(approvals.approve(fixture.workspaceId, approvalId, undefined, "user:ada")), WrongState)
        })))

    it.effect("72 hours on, an approval is expired: deciding it is refused and its job fails", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const { approvalId, job } = yield* awaiting(fixture)
          yield* fixture.advance(72 * HOUR_MS)
          const [expired] = (yield* approvals.list(fixture.workspaceId, { limit: 10, status: "expired" })).approvals
          assert.strictEqual(expired?.id, approvalId)
          const refused = yield* Effect.flip(approvals.approve(fixture.workspaceId, approvalId, undefined, "user:ada"))
          assert.instanceOf(refused, Expired)
          assert.match(refused.message, /^The approval expired at .* \(72 hours after it was asked for\); the write was not sent/)
          assert.instanceOf(yield* Effect.flip(approvals.reject(fixture.workspaceId, approvalId, undefined, "user:ada")), Expired)
          const failed = yield* (yield* Jobs).get(fixture.workspaceId, job.id)
          assert.strictEqual(failed.status, "failed")
          assert.strictEqual(Object(failed.error).type, "approvalExpired")
        })))

    it.effect("the people's queue: pending by expiry, decided latest first, counted in full", () =>
      backend.withFixture((fixture) =>
        Effect.gen(function*() {
          const approvals = yield* Approvals
          const first = yield* awaiting(fixture)
          yield* fixture.advance(1000)
          const second = yield* awaiting(fixture, "ada-lovelace")
          yield* fixture.advance(1000)
          const third = yield* awaiting(fixture, "grace-hopper")
          yield* approvals.reject(fixture.workspaceId, second.approvalId, undefined, "user:ada")
          const pending = yield* approvals.queue(fixture.workspaceId, { view: "pending", offset: 0, limit: 1 })
          assert.strictEqual(pending.total, 2)
          assert.deepStrictEqual(pending.approvals.map(({ id, decidedBy }) => ({ id, decidedBy })), [{
            id: first.approvalId,
            decidedBy: null
          }])
          const later = yield* approvals.queue(fixture.workspaceId, { view: "pending", offset: 1, limit: 5, kind: "connect" })
          assert.deepStrictEqual(later.approvals.map((approval) => approval.id), [third.approvalId])
          const decided = yield* approvals.queue(fixture.workspaceId, { view: "decided", offset: 0, limit: 5 })
          assert.deepStrictEqual(decided.approvals.map(({ id, decidedBy }) => ({ id, decidedBy })), [{
            id: second.approvalId,
            decidedBy: "user:ada"
          }])
          assert.strictEqual(decided.total, 1)
          const soon = yield* approvals.queue(fixture.workspaceId, { view: "pending", offset: 0, limit: 5, expiresWithinMs: 72 * HOUR_MS - 1500 })
          assert.deepStrictEqual(soon.approvals.map((approval) => approval.id), [first.approvalId])
          assert.strictEqual((yield* approvals.queue(fixture.otherWorkspaceId, { view: "pending", offset: 0, limit: 5 })).total, 0)
        })))
  })
