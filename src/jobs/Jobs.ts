/**
 * Jobs as the API sees them: creating one (stored, with its approval when the
 * account's mode asks for one, before the caller hears back), reading,
 * long-polling, listing and cancelling.
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { accountNotFound } from "../accounts/Accounts.ts"
import { AccountStore } from "../accounts/AccountStore.ts"
import { seqPaging } from "../domain/Cursor.ts"
import { type Invalid, Missing, WrongState } from "../domain/Failures.ts"
import type { Mode } from "../domain/Account.ts"
import { type CommandName, commands } from "../domain/Commands.ts"
import {
  APPROVAL_TTL_MS,
  cancellableStatuses,
  isFinished,
  type JobFailure,
  type JobStatus,
  needsApproval
} from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import * as AfterCommit from "../platform/AfterCommit.ts"
import * as FinishedJobs from "./FinishedJobs.ts"
import { Governor } from "./Governor.ts"
import { type JobRecord, type JobRow, toJobRecord } from "./JobRow.ts"
import { JobEndings } from "./Endings.ts"
import { type NewJob, JobStore } from "./JobStore.ts"
import { JobWatch } from "./JobWatch.ts"
import { targetOf, textOf } from "./WriteTarget.ts"

/** A command to run as a job. */
export interface JobRequest {
  readonly workspaceId: string
  readonly accountId: string
  readonly command: CommandName
  /** The command's input, decoded (its schema's type). */
  readonly input: unknown
  /** `service`: the service's own background work (no job events). Default `api`. */
  readonly origin?: "api" | "service"
}

/** Filters of `GET /v1/jobs`. */
export interface JobListing {
  readonly accountId?: string | undefined
  readonly status?: JobStatus | undefined
  readonly kind?: string | undefined
  readonly cursor?: string | undefined
  readonly limit: number
}

/** The error of a job its caller cancelled. */
export const cancelledByCaller: JobFailure = {
  type: "cancelled",
  message: "The job was cancelled before it started.",
  next: "Create the job again if it should still run."
}

/** The error of jobs cancelled because their account was removed. */
export const cancelledByRemoval: JobFailure = {
  type: "cancelled",
  message: "The account was removed, so its queued work was cancelled.",
  next: "Connect the account again and create the jobs anew."
}

export const jobNotFound = (id: string) =>
  new Missing({ message: `No job ${id} in this workspace.`, advice: { _tag: "ListJobs" } })

const jobPages = seqPaging("job", "the newest job")

/** 409 for cancelling a job that has started. */
export const notCancellable = (job: JobRow) =>
  new WrongState({
    message: `The job is ${job.status}; only a job that has not started can be cancelled.`,
    advice: { _tag: "ReadJob", jobId: job.id }
  })

/** The job to store for a request to an account in `mode`: its input encoded, and its approval when the mode asks for one. */
export const newJobOf = Effect.fnUntraced(function*(request: JobRequest, mode: Mode) {
  const spec = commands[request.command]
  const input = yield* Schema.encodeUnknownEffect(spec.input)(request.input).pipe(Effect.orDie)
  const isWrite = spec.kind === "write"
  const now = yield* Time.now
  return {
    workspaceId: request.workspaceId,
    accountId: request.accountId,
    kind: request.command,
    isWrite,
    input,
    origin: request.origin ?? "api",
    approval: needsApproval(mode, request.command, isWrite)
      ? { target: targetOf(input), text: textOf(request.command, input), expiresAt: now.ms + APPROVAL_TTL_MS }
      : null
  } satisfies NewJob
})

/** One page of a listing, newest first: `newest(beforeSeq, limit)` reads the jobs older than the cursor's. */
export const pageOf = (
  listing: JobListing,
  newest: (beforeSeq: number | undefined, limit: number) => Effect.Effect<ReadonlyArray<JobRow>>
) => Effect.map(jobPages(listing, newest), ({ rows, nextCursor }) => ({ jobs: rows.map(toJobRecord), nextCursor }))


export class Jobs extends Context.Service<Jobs, {
  /** Stores the job (and its approval) and hands it to the Governor; answers at once. */
  readonly create: (request: JobRequest) => Effect.Effect<JobRecord, Missing>
  /** The job; with `waitSeconds`, returns as soon as it finishes or when the wait is over. */
  readonly get: (workspaceId: string, id: string, waitSeconds?: number) => Effect.Effect<JobRecord, Missing>
  /** Jobs newest first, filtered, one page at a time. */
  readonly list: (workspaceId: string, listing: JobListing) => Effect.Effect<
    { readonly jobs: ReadonlyArray<JobRecord>; readonly nextCursor: string | null },
    Invalid
  >
  /** Cancels a job that has not started (its approval, if pending, is rejected). */
  readonly cancel: (workspaceId: string, id: string) => Effect.Effect<JobRecord, Missing | WrongState>
  /** Cancels every job of a removed account that has not started. */
  readonly cancelOpenOf: (accountId: string) => Effect.Effect<number>
}>()("outreach/Jobs") {
  static readonly layerNoDeps = Layer.effect(
    Jobs,
    Effect.gen(function*() {
      const store = yield* JobStore
      const endings = yield* JobEndings
      const accounts = yield* AccountStore
      const governor = yield* Governor
      const watch = yield* JobWatch

      const create = Effect.fn("Jobs.create")(function*(request: JobRequest) {
        const mode = yield* accounts.modeOf(request.workspaceId, request.accountId)
        if (mode === undefined) return yield* Effect.fail(accountNotFound(request.accountId))
        const row = yield* store.create(yield* newJobOf(request, mode))
        // Its owner must find the row when told: inside an idempotent request this waits for the commit.
        yield* AfterCommit.defer(governor.submit(row))
        yield* Effect.logInfo("job created").pipe(
          Effect.annotateLogs({ jobId: row.id, accountId: row.accountId, kind: row.kind, status: row.status })
        )
        return toJobRecord(row)
      })

      const found = (workspaceId: string, id: string) =>
        Effect.flatMap(store.get(workspaceId, id), (row) =>
          row === undefined ? Effect.fail(jobNotFound(id)) : Effect.succeed(row))

      // A finished job never changes: read once, it is answered from memory (see FinishedJobs.ts).
      const finished = FinishedJobs.make()

      // Traced as 'Jobs.get', without Effect.fn's call-site stack: `Effect.fn` builds an Error on
      // every call to capture it, about 3 us of each open job's read (2.4% of the process under
      // load); `withSpan` captures its stack once, where it is defined.
      const read = Effect.fnUntraced(function*(workspaceId: string, id: string, waitSeconds?: number) {
        let row: JobRow = yield* found(workspaceId, id)
        if (waitSeconds !== undefined && waitSeconds > 0 && !isFinished(row.status)) {
          const isDone = Effect.map(store.byId(id), (current) => {
            if (current !== undefined) row = current
            return current === undefined || isFinished(current.status)
          })
          yield* watch.await(id, isDone, Duration.seconds(waitSeconds))
          row = yield* found(workspaceId, id)
        }
        const job = toJobRecord(row)
        finished.keep(workspaceId, job)
        return job
      }, Effect.withSpan("Jobs.get"))

      // A finished job from memory needs no span: `Effect.fn` captures a stack and opens a span on
      // every call, about as much CPU as the rest of the answer.
      const get = (workspaceId: string, id: string, waitSeconds?: number): Effect.Effect<JobRecord, Missing> => {
        const kept = finished.get(workspaceId, id)
        return kept !== undefined ? Effect.succeed(kept) : read(workspaceId, id, waitSeconds)
      }

      const list = Effect.fn("Jobs.list")((workspaceId: string, listing: JobListing) =>
        pageOf(listing, (beforeSeq, limit) =>
          store.list(workspaceId, { accountId: listing.accountId, status: listing.status, kind: listing.kind, beforeSeq, limit })))

      const cancel = Effect.fn("Jobs.cancel")(function*(workspaceId: string, id: string) {
        const before = yield* found(workspaceId, id)
        if (!cancellableStatuses.has(before.status)) return yield* Effect.fail(notCancellable(before))
        const cancelled = yield* endings.cancel(workspaceId, id, cancelledByCaller)
        if (cancelled === undefined) {
          // It started (or finished) between the read and the cancel.
          const now = yield* found(workspaceId, id)
          return yield* Effect.fail(
            new WrongState({ message: `The job is ${now.status} and can no longer be cancelled.`, advice: { _tag: "ReadJob", jobId: id } })
          )
        }
        yield* watch.finished(id)
        yield* governor.wake(cancelled.accountId)
        return toJobRecord(cancelled)
      })

      const cancelOpenOf = Effect.fn("Jobs.cancelOpenOf")(function*(accountId: string) {
        const cancelled = yield* endings.cancelOpenOf(accountId, cancelledByRemoval)
        yield* Effect.forEach(cancelled, (job) => watch.finished(job.id), { discard: true })
        const count = cancelled.length
        if (count > 0) yield* Effect.logInfo(`cancelled ${count} jobs of a removed account`).pipe(Effect.annotateLogs({ accountId }))
        return count
      })

      return Jobs.of({ create, get, list, cancel, cancelOpenOf })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Jobs.layerNoDeps.pipe(Layer.provide([AccountStore.layer, Governor.layer, JobEndings.layer, JobStore.layer, JobWatch.layer]))
}
