/**
 * Approvals in PostgreSQL: a pending write waits for a person for 72 hours.
 * Every decision is one transaction guarded by `status = 'pending'`, and the
 * job moves with it (approved: queued with the text that will be sent;
 * rejected or expired: failed, with its `job.failed` event). Its statements
 * on `approvals` are `ApprovalTable`'s, the table's one owner.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { JobFailure } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { JobEndings } from "../jobs/Endings.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { type ApprovalFilters, type ApprovalRow, ApprovalTable } from "./ApprovalTable.ts"

export type { ApprovalFilters, ApprovalRow } from "./ApprovalTable.ts"

/** A decision for a pending approval. */
export type Decision =
  | { readonly _tag: "Approve"; readonly text: string | null; readonly input: unknown }
  | { readonly _tag: "Reject"; readonly reason: string | null }

/** What became of a decision. */
export type DecisionOutcome = "decided" | "notPending" | "expired"

/** The job error of an expired approval. */
export const expiredFailure: JobFailure = {
  type: "approvalExpired",
  message: "Nobody approved this write within 72 hours, so its approval expired and it was not sent.",
  next: "Create the job again if the write should still go out."
}

/** The job error of a rejected approval. */
export const rejectedFailure = (reason: string | null): JobFailure => ({
  type: "approvalRejected",
  message: reason === null ? "A person rejected this write; it was not sent." : `A person rejected this write: ${reason}`,
  next: "Change the request and create a new job if it should still go out."
})

export class ApprovalStore extends Context.Service<ApprovalStore, {
  readonly get: (workspaceId: string, id: string) => Effect.Effect<ApprovalRow | undefined>
  readonly byJob: (jobId: string) => Effect.Effect<ApprovalRow | undefined>
  readonly list: (workspaceId: string, filters: ApprovalFilters) => Effect.Effect<ReadonlyArray<ApprovalRow>>
  readonly queue: ApprovalTable["Service"]["queue"]
  /** Applies a decision to a pending approval (one that has expired meanwhile expires instead). */
  readonly decide: (approval: ApprovalRow, decision: Decision, by: string) => Effect.Effect<DecisionOutcome>
  /** Expires every pending approval past its time; how many. */
  readonly expireDue: Effect.Effect<number>
  /** When the next pending approval expires (epoch ms), if any. */
  readonly nextExpiry: Effect.Effect<number | null>
}>()("outreach/ApprovalStore") {
  static readonly layerNoDeps = Layer.effect(
    ApprovalStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const table = yield* ApprovalTable
      const jobs = yield* JobStore
      const endings = yield* JobEndings

      /** Expires one pending approval and fails its job, inside the caller's transaction. */
      const expireOne = (approval: ApprovalRow) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          if (!(yield* table.markExpired(approval.id, now.iso))) return false
          const job = yield* jobs.byId(approval.jobId)
          if (job !== undefined) {
            yield* endings.finish(job, { _tag: "Failed", error: expiredFailure, writesNotBefore: null }, ["awaiting_approval"])
          }
          return true
        })

      const decide = Effect.fn("ApprovalStore.decide")(function*(approval: ApprovalRow, decision: Decision, by: string) {
        const now = yield* Time.now
        return yield* sql.withTransaction(Effect.gen(function*() {
          const current = yield* table.lock(approval.id)
          if (current === undefined || current.status !== "pending") {
            return current?.status === "expired" ? "expired" : "notPending"
          }
          if (current.expiresMs <= now.ms) {
            yield* expireOne(current)
            return "expired"
          }
          const job = yield* jobs.byId(current.jobId)
          if (job === undefined || job.status !== "awaiting_approval") return "notPending"
          if (decision._tag === "Approve") {
            yield* table.markApproved(current.id, decision.text ?? current.text, now.iso, by)
            yield* jobs.release(current.jobId, decision.input)
          } else {
            yield* table.markRejected(current.id, decision.reason, now.iso, by)
            yield* endings.finish(
              job,
              { _tag: "Failed", error: rejectedFailure(decision.reason), writesNotBefore: null },
              ["awaiting_approval"]
            )
          }
          return "decided"
        })).pipe(Effect.orDie)
      })

      const expireDue = Effect.gen(function*() {
        const now = yield* Time.now
        const due = yield* table.due(now.iso)
        let expired = 0
        for (const approval of due) {
          if (yield* sql.withTransaction(expireOne(approval)).pipe(Effect.orDie)) expired++
        }
        return expired
      }).pipe(Effect.withSpan("ApprovalStore.expireDue"))

      return ApprovalStore.of({
        get: table.get,
        byJob: table.byJob,
        list: table.list,
        queue: table.queue,
        decide,
        expireDue,
        nextExpiry: table.nextExpiry
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = ApprovalStore.layerNoDeps.pipe(Layer.provide([ApprovalTable.layer, JobEndings.layer, JobStore.layer]))
}
