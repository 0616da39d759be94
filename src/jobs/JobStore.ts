/**
 * The `jobs` table: every status change is one statement guarded by the
 * status it moves from, so two fibers (or two servers) can never both start,
 * finish or cancel one job. A job's ending, with what it means to the other
 * tables (its spend, its completion, its event), is `JobEndings`' one
 * transaction, which records the job's own row here (`markEnded`).
 */
import { Array as Arr, Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AccountStore } from "../accounts/AccountStore.ts"
import { cancellableStatuses, type JobFailure, JobStatus, runnableStatuses, type WaitReason } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { JobHold, PersonJob, PersonJobs } from "../people/PersonJobs.ts"
import * as GroupCommit from "../platform/GroupCommit.ts"
import * as Spans from "../platform/Spans.ts"
import { ReadClient } from "../platform/ReadClient.ts"
import { BigIntNumber } from "../platform/Rows.ts"
import { JobApprovals } from "./JobApprovals.ts"
import { decodeJobRows, jobColumns, type JobRow } from "./JobRow.ts"

/** What a new job is. */
export interface NewJob {
  readonly workspaceId: string
  readonly accountId: string
  readonly kind: string
  readonly isWrite: boolean
  /** The command's input, encoded. */
  readonly input: unknown
  /** `service`: background work of the service itself, which sends no job events. */
  readonly origin: "api" | "service"
  /** When set, the job waits for this approval. */
  readonly approval: { readonly target: string | null; readonly text: string | null; readonly expiresAt: number } | null
}

/** A job's ending as its own row records it (`JobEndings` records the rest). */
export interface EndedJob {
  readonly id: string
  readonly status: "completed" | "failed" | "cancelled"
  /** The command's result, encoded; null keeps what the row has. */
  readonly result: unknown
  readonly error: JobFailure | null
  /** The running attempt's owner epoch the row must still carry; undefined: any. */
  readonly fence: number | null | undefined
}

/** Filters of a job listing. */
export interface JobFilters {
  readonly accountId?: string | undefined
  readonly status?: JobStatus | undefined
  readonly kind?: string | undefined
  /** Only jobs older than this position (the cursor). */
  readonly beforeSeq?: number | undefined
  readonly limit: number
}


/** Open jobs of one status and kind, counted. */
export const OpenCount = Schema.Struct({ status: Schema.String, kind: Schema.String, count: BigIntNumber })
export type OpenCount = typeof OpenCount.Type
const decodeOpenCounts = Schema.decodeUnknownEffect(Schema.Array(OpenCount))

/** The statuses of an open job, as `openWritesOf`'s and `openCounts`' SQL list them. */
export const openWriteStatuses: ReadonlySet<JobStatus> = new Set<JobStatus>(["queued", "scheduled", "awaiting_approval", "running"])

/** An open write as the forecast reads it: no more than planning needs. */
export const OpenWrite = Schema.Struct({ id: Schema.String, kind: Schema.String, status: JobStatus, input: Schema.Unknown })
export type OpenWrite = typeof OpenWrite.Type
const decodeOpenWrites = Schema.decodeUnknownEffect(Schema.Array(OpenWrite))

/** A job's kind and where it stands, as other tables' readers show it beside their own rows. */
export const JobState = Schema.Struct({ id: Schema.String, kind: Schema.String, status: JobStatus })
export type JobState = typeof JobState.Type
const decodeJobStates = Schema.decodeUnknownEffect(Schema.Array(JobState))
const decodePersonJobs = Schema.decodeUnknownEffect(Schema.Array(PersonJob))
const decodeHolds = Schema.decodeUnknownEffect(Schema.Array(JobHold))
const decodeKeys = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ key: Schema.String })))
const decodeEpochs = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ accountId: Schema.String, epoch: BigIntNumber })))
const decodeUnlooked = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: Schema.String, accountId: Schema.String })))

/** A job to start, and (writes) the epoch of the owner starting it. */
interface Claim {
  readonly job: JobRow
  readonly fence: number | null
}

export class JobStore extends Context.Service<JobStore, {
  readonly create: (job: NewJob) => Effect.Effect<JobRow>
  /** The workspace's job, read on the `ReadClient`: not for use inside a transaction (`byId` is). */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<JobRow | undefined>
  readonly byId: (id: string) => Effect.Effect<JobRow | undefined>
  readonly list: (workspaceId: string, filters: JobFilters) => Effect.Effect<ReadonlyArray<JobRow>>
  /** The kind and status of each of these jobs, by id (one query for them all); a job not found is left out. */
  readonly statesOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, JobState>>
  /** The account's work not finished (queued, scheduled or running; reads and writes), oldest first. */
  readonly openOf: (accountId: string) => Effect.Effect<ReadonlyArray<JobRow>>
  /**
   * The account's writes not finished (queued, scheduled, awaiting approval or running), oldest first, at most
   * `limit`: what the forecast runs the Governor over.
   */
  readonly openWritesOf: (accountId: string, limit: number) => Effect.Effect<ReadonlyArray<OpenWrite>>
  /**
   * Accounts with work that goes on at `nowMs`: a job running (a previous owner's, to settle), a job queued that no
   * actor has looked at, a wait that has ended, or only writes shown waiting behind others. An account with a job
   * that waits for a later instant or for a change to the account is left out: its wake-up brings it back
   * (`wakeUpsDue`), or the change's message.
   */
  readonly dueAccounts: (nowMs: number) => Effect.Effect<ReadonlyArray<string>>
  /**
   * The durable wake-ups: accounts with a job whose wait ended by `nowMs` (its `eta`, a `scheduled` job's
   * `waiting_until`), the longest overdue first, at most `limit`.
   */
  readonly wakeUpsDue: (nowMs: number, limit: number) => Effect.Effect<ReadonlyArray<string>>
  /**
   * Shows these jobs as waiting behind the account's other work (`queue`, no `eta`), those not started: an
   * account leaving memory marks the writes behind its head so none reads as unlooked or as due.
   */
  readonly markBehind: (ids: ReadonlyArray<string>) => Effect.Effect<void>
  /** Records why a job waits; with `until` it is `scheduled` with that `eta`, else `queued`. */
  readonly setWaiting: (id: string, reason: WaitReason, until: number | null) => Effect.Effect<void>
  /**
   * Makes `runner` the account's owner for its writes: raises the account's epoch (the fencing token of its
   * writes from now on) and answers it. Every claim, attempt and ending of an older epoch is refused after.
   */
  readonly takeAccount: (accountId: string, runner: string) => Effect.Effect<number>
  /**
   * Starts a job: marks it running before anything reaches the network.
   * False when it is no longer runnable, or (writes) another write of the
   * account is running, the pacing gap has not passed, or `fence` is no
   * longer the account's epoch (a newer owner exists).
   */
  readonly claim: (job: JobRow, fence: number | null) => Effect.Effect<boolean>
  /**
   * Records write attempt number `attempt` of a running job with its fencing token, right before its driver
   * call; false when the job is no longer running under `fence` or a newer owner of the account exists.
   * Idempotent: once recorded, the same call answers true again (a retry after a commit whose answer was lost).
   */
  readonly recordAttempt: (job: JobRow, fence: number, attempt: number) => Effect.Effect<boolean>
  /**
   * Records these endings on the jobs' rows, each from one of `from` and (with a fence) only while the row's running
   * attempt is that owner's; the rows it ended. Inside the caller's transaction (`JobEndings`). `skip`: a job whose
   * row another session holds (a peer frozen mid-transaction, an operator's `psql`) is left out, in the same
   * statement, rather than waited for with every other job of the batch; `wait`: it is waited for.
   */
  readonly markEnded: (
    ends: Arr.NonEmptyReadonlyArray<EndedJob>,
    from: ReadonlyArray<JobStatus>,
    nowIso: string,
    held: "skip" | "wait"
  ) => Effect.Effect<ReadonlyArray<JobRow>>
  /** Open jobs no actor has looked at yet (queued, no reason recorded), oldest first, at most `limit`. */
  readonly unlooked: (limit: number) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly accountId: string }>>
  /** The account's jobs that have not started, which a removal cancels. */
  readonly cancellableOf: (accountId: string) => Effect.Effect<ReadonlyArray<JobRow>>
  /**
   * Puts a running job back in the queue: an interrupted read, or a write that surely did not reach the
   * network. With `fence`, only while its running attempt is that owner's (null: one claimed before fences).
   */
  readonly requeue: (id: string, fence?: number | null) => Effect.Effect<void>
  /** Queues a job awaiting approval, with the input it was approved with (encoded). */
  readonly release: (id: string, input: unknown) => Effect.Effect<void>
  /**
   * Links the job to the person it is about, inside the caller's transaction (a write's claim of the person,
   * `PersonClaim.ts`, which holds the person's row, or a job's ending). `keep`: a job linked already keeps its link.
   */
  readonly linkPerson: (id: string, personId: string, keep: "keep" | "replace") => Effect.Effect<void>
  /**
   * Those of the account's invitations (by id) whose withdrawal the service proposed already: a
   * `withdraw_invite` of its own (never proposed twice, even after a person rejected it or it
   * failed), or anyone's that has not failed nor been cancelled (a withdrawal on its way).
   */
  readonly withdrawalsProposed: (accountId: string, invitationIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
  /** Those of `providerIds` a `send_message` job of the account has written to (one query for them all). */
  readonly messagedAmong: (accountId: string, providerIds: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>>
  /** The workspace's jobs linked to these people (`People`'s timeline, through `PersonJobs`). */
  readonly aboutPeople: PersonJobs["Service"]["about"]
  /** The jobs of any account that may hold the person (`People`'s cross-seat rule, through `PersonJobs`). */
  readonly holding: PersonJobs["Service"]["holding"]
  /** How many of the account's jobs are open (queued, scheduled, awaiting approval, running), by status and kind. */
  readonly openCounts: (accountId: string) => Effect.Effect<ReadonlyArray<OpenCount>>
}>()("outreach/JobStore") {
  static readonly layerNoDeps = Layer.effect(
    JobStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // A job's read for the API takes no lock and runs in no transaction: on the multiplexed pool.
      const reads = yield* ReadClient.orDefault(sql)
      const readSelect = reads.unsafe(jobColumns)
      const approvals = yield* JobApprovals
      const accounts = yield* AccountStore
      const select = sql.unsafe(jobColumns)
      const runnable = [...runnableStatuses]
      const cancellable = [...cancellableStatuses]

      const rows = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        query.pipe(Effect.flatMap(decodeJobRows), Effect.orDie)

      const byId = (id: string) =>
        rows(sql`SELECT ${select} FROM jobs j WHERE j.id = ${id}`).pipe(Effect.map((found) => found[0]))

      const create = Effect.fn("JobStore.create")(function*(job: NewJob) {
        const now = yield* Time.now
        const id = crypto.randomUUID()
        const pending = job.approval === null ? null : { ...job.approval, id: crypto.randomUUID() }
        const insert = rows(sql`
          INSERT INTO jobs AS j (id, workspace_id, account_id, kind, is_write, origin, status, input, approval_id, created_at)
          VALUES (${id}, ${job.workspaceId}, ${job.accountId}, ${job.kind}, ${job.isWrite}, ${job.origin},
                  ${pending === null ? "queued" : "awaiting_approval"}, ${JSON.stringify(job.input)}::jsonb,
                  ${pending?.id ?? null}, ${now.iso}::timestamptz)
          RETURNING ${select}`)
        const inserted = pending === null
          ? yield* insert
          : yield* sql.withTransaction(Effect.tap(insert, () =>
            approvals.insertPending({
              id: pending.id,
              workspaceId: job.workspaceId,
              accountId: job.accountId,
              jobId: id,
              kind: job.kind,
              target: pending.target,
              text: pending.text,
              createdIso: now.iso,
              expiresAt: pending.expiresAt
            }))).pipe(Effect.orDie)
        const row = inserted[0]
        if (row === undefined) return yield* Effect.die(new Error(`job ${id} was not inserted`))
        return row
      })

      const get = (workspaceId: string, id: string) =>
        rows(reads`SELECT ${readSelect} FROM jobs j WHERE j.id = ${id} AND j.workspace_id = ${workspaceId}`).pipe(
          Effect.map((found) => found[0])
        )

      const list = (workspaceId: string, filters: JobFilters) =>
        rows(sql`
          SELECT ${select} FROM jobs j
          WHERE j.workspace_id = ${workspaceId}
            ${filters.accountId === undefined ? sql`` : sql`AND j.account_id = ${filters.accountId}`}
            ${filters.status === undefined ? sql`` : sql`AND j.status = ${filters.status}`}
            ${filters.kind === undefined ? sql`` : sql`AND j.kind = ${filters.kind}`}
            ${filters.beforeSeq === undefined ? sql`` : sql`AND j.seq < ${filters.beforeSeq}`}
          ORDER BY j.seq DESC LIMIT ${filters.limit}`)

      const statesOf = (ids: ReadonlyArray<string>) =>
        ids.length === 0 ? Effect.succeed(new Map<string, JobState>()) : sql`
          SELECT id::text AS id, kind, status FROM jobs WHERE id IN ${sql.in(ids)}`.pipe(
          Effect.flatMap(decodeJobStates),
          Effect.map((states) => new Map(states.map((state) => [state.id, state]))),
          Effect.orDie
        )

      const openOf = (accountId: string) =>
        rows(sql`
          SELECT ${select} FROM jobs j
          WHERE j.account_id = ${accountId} AND j.status IN ('queued', 'scheduled', 'running')
          ORDER BY j.seq`)

      const openWritesOf = (accountId: string, limit: number) =>
        sql`
          SELECT id::text AS id, kind, status, input FROM jobs
          WHERE account_id = ${accountId} AND is_write AND status IN ('queued', 'scheduled', 'awaiting_approval', 'running')
          ORDER BY seq LIMIT ${limit}`.pipe(Effect.flatMap(decodeOpenWrites), Effect.orDie)

      const accountIds = <E>(query: Effect.Effect<ReadonlyArray<{ readonly id: string }>, E>) =>
        query.pipe(Effect.map((found) => found.map((row) => row.id)), Effect.orDie)

      // Writes shown waiting behind others (`queue`) wait for no reason of their own: an account whose open jobs
      // are all such (the one ahead ended, and its owner died before it looked again) is due too.
      const dueAccounts = (nowMs: number) =>
        accountIds(sql<{ id: string }>`
          SELECT account_id::text AS id FROM jobs WHERE status IN ('queued', 'scheduled', 'running')
          GROUP BY account_id
          HAVING bool_or(status = 'running' OR (status = 'queued' AND waiting_reason IS NULL)
              OR (status = 'scheduled' AND waiting_until <= ${Time.toIso(nowMs)}::timestamptz))
            OR NOT bool_or(status = 'scheduled' OR (status = 'queued' AND waiting_reason <> 'queue'))`)

      const wakeUpsDue = (nowMs: number, limit: number) =>
        accountIds(sql<{ id: string }>`
          SELECT account_id::text AS id FROM jobs
          WHERE status = 'scheduled' AND waiting_until <= ${Time.toIso(nowMs)}::timestamptz
          GROUP BY account_id ORDER BY min(waiting_until) LIMIT ${limit}`)

      const markBehind = (ids: ReadonlyArray<string>) => ids.length === 0 ? Effect.void : waitingSet(ids, "queue", null)

      /** Records on these jobs (those not started) why they wait, and until when. */
      const waitingSet = (ids: ReadonlyArray<string>, reason: WaitReason, until: number | null) => {
        const at = until === null ? null : Time.toIso(until)
        return sql`
          UPDATE jobs SET status = ${until === null ? "queued" : "scheduled"}, eta = ${at}::timestamptz,
            waiting_reason = ${reason}, waiting_until = ${at}::timestamptz
          WHERE ${sql.in("id", ids)} AND ${sql.in("status", runnable)}`.pipe(Effect.asVoid, Effect.orDie)
      }
      const setWaiting = (id: string, reason: WaitReason, until: number | null) => waitingSet([id], reason, until)

      /**
       * The statement's `unheld`: those of the jobs whose rows no other session holds, locked for the rest
       * of the statement or transaction: a batch leaves a job another session holds (a peer frozen
       * mid-transaction, an operator's `psql`) out, rather than waiting for it with every other job of the
       * batch. Materialized, so it runs once: as a subquery of the UPDATE, its plan may run it again for
       * each row the UPDATE looks at (a claim of a burst was seen running 17 s in PostgreSQL, waiting on
       * nothing, in bench:queue).
       */
      const withUnheld = (ids: ReadonlyArray<string>) =>
        sql`WITH unheld AS MATERIALIZED (SELECT id FROM jobs WHERE ${sql.in("id", ids)} FOR UPDATE SKIP LOCKED)`

      /**
       * Starts these jobs, each guarded by its status and, a write, by no other write of its account
       * running; a write carries its owner's epoch (`fences`, by job id). A job whose row another session
       * holds is not started (its claim answers false, and its account's actor tries again).
       */
      const startAll = (jobs: ReadonlyArray<JobRow>, nowIso: string, fences: ReadonlyMap<string, number>) =>
        sql<{ readonly id: string }>`
          ${withUnheld(jobs.map((job) => job.id))}
          UPDATE jobs AS j SET status = 'running', started_at = ${nowIso}::timestamptz,
            attempt_started_at = ${nowIso}::timestamptz, eta = NULL, waiting_reason = NULL, waiting_until = NULL,
            fence = v.fence
          FROM (VALUES ${sql.csv(jobs.map((job) => sql`(${job.id}::uuid, ${fences.get(job.id) ?? null}::bigint)`))}) AS v(id, fence)
          WHERE j.id = v.id AND ${sql.in("j.status", runnable)}
            AND j.id IN (SELECT id FROM unheld)
            AND (NOT j.is_write OR NOT EXISTS (
              SELECT 1 FROM jobs r WHERE r.account_id = j.account_id AND r.is_write AND r.status = 'running'))
          RETURNING j.id::text AS id`.pipe(Effect.map((started) => new Set(started.map((row) => row.id))))

      /**
       * Starts jobs, many at once. Reads alone: one statement. With writes, one transaction locks their
       * accounts (one write of an account at a time, across servers), leaves out writes whose pacing gate
       * has not passed or whose account was removed, and starts the rest in one statement.
       */
      const claimAll = (claims: Arr.NonEmptyReadonlyArray<Claim>) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          const jobs = claims.map((claim) => claim.job)
          const writes = claims.filter((claim) => claim.job.isWrite)
          if (writes.length === 0) {
            const started = yield* startAll(jobs, now.iso, new Map())
            return jobs.map((job) => started.has(job.id))
          }
          return yield* sql.withTransaction(Effect.gen(function*() {
            const accountIds = writes.map((claim) => claim.job.accountId)
            const gates = yield* accounts.lockWriteGates(accountIds)
            // Shared locks on the owners' epochs: an owner taking the account waits for this claim, or this claim
            // sees its new epoch.
            const epochs = yield* epochsOf(accountIds)
            const writing = new Set<string>()
            const fences = new Map<string, number>()
            const eligible = claims.filter(({ fence, job }) => {
              if (!job.isWrite) return true
              const gate = gates.get(job.accountId)
              if (gate === undefined || (gate.writesNotBefore !== null && gate.writesNotBefore > now.ms)) return false
              if (fence === null || epochs.get(job.accountId) !== fence) return false
              if (writing.has(job.accountId)) return false
              writing.add(job.accountId)
              fences.set(job.id, fence)
              return true
            }).map((claim) => claim.job)
            const started = eligible.length === 0 ? new Set<string>() : yield* startAll(eligible, now.iso, fences)
            return jobs.map((job) => started.has(job.id))
          }))
        }).pipe(Effect.orDie)

      /** The accounts' owner epochs, share-locked for the rest of the transaction. */
      const epochsOf = (accountIds: ReadonlyArray<string>) =>
        sql`
          SELECT account_id::text AS "accountId", epoch FROM account_fences
          WHERE ${sql.in("account_id", [...new Set(accountIds)])} ORDER BY account_id FOR SHARE`.pipe(
          Effect.flatMap(decodeEpochs),
          Effect.map((rows) => new Map(rows.map((row) => [row.accountId, row.epoch])))
        )

      const takeAccount = (accountId: string, runner: string) =>
        sql`
          INSERT INTO account_fences AS f (account_id, epoch, runner) VALUES (${accountId}, 1, ${runner})
          ON CONFLICT (account_id) DO UPDATE SET epoch = f.epoch + 1, runner = EXCLUDED.runner, taken_at = now()
          RETURNING account_id::text AS "accountId", epoch`.pipe(
          Effect.flatMap(decodeEpochs),
          Effect.map((rows) => rows[0]?.epoch ?? 0),
          Effect.orDie,
          Effect.withSpan("JobStore.takeAccount", { attributes: { accountId, runner } })
        )

      const recordAttempt = (job: JobRow, fence: number, attempt: number) =>
        sql`
          WITH owner AS (
            SELECT 1 FROM account_fences WHERE account_id = ${job.accountId} AND epoch = ${fence} FOR SHARE
          )
          UPDATE jobs SET attempt = ${attempt}
          WHERE id = ${job.id} AND status = 'running' AND fence = ${fence} AND EXISTS (SELECT 1 FROM owner)
            AND (attempt = ${attempt - 1} OR attempt = ${attempt})
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("JobStore.recordAttempt", { attributes: { jobId: job.id, fence, attempt } }, Spans.perJob)
        )
      const claiming = GroupCommit.make(claimAll, { max: 500 })

      const markEnded = (ends: Arr.NonEmptyReadonlyArray<EndedJob>, from: ReadonlyArray<JobStatus>, nowIso: string, held: "skip" | "wait") =>
        rows(sql`
          ${held === "skip" ? withUnheld(ends.map((end) => end.id)) : sql``}
          UPDATE jobs AS j SET status = v.status, result = COALESCE(v.result, j.result), error = v.error,
            finished_at = ${nowIso}::timestamptz, eta = NULL, waiting_reason = NULL, waiting_until = NULL
          FROM (VALUES ${
          sql.csv(ends.map((end) =>
            sql`(${end.id}::uuid, ${end.status}, ${end.result === null ? null : JSON.stringify(end.result)}::jsonb,
                 ${end.error === null ? null : JSON.stringify(end.error)}::jsonb, ${end.fence !== undefined}, ${end.fence ?? null}::bigint)`
          ))
        }) AS v(id, status, result, error, fenced, fence)
          WHERE j.id = v.id AND ${sql.in("j.status", [...from])}
            AND (NOT v.fenced OR j.fence IS NOT DISTINCT FROM v.fence)
            ${held === "skip" ? sql`AND j.id IN (SELECT id FROM unheld)` : sql``}
          RETURNING ${select}`)

      const cancellableOf = (accountId: string) =>
        rows(sql`SELECT ${select} FROM jobs j WHERE j.account_id = ${accountId} AND ${sql.in("j.status", cancellable)}`)

      const requeue = (id: string, fence?: number | null) =>
        sql`UPDATE jobs SET status = 'queued', started_at = NULL, attempt_started_at = NULL
            WHERE id = ${id} AND status = 'running'
              ${fence === undefined ? sql`` : sql`AND fence IS NOT DISTINCT FROM ${fence ?? null}::bigint`}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )

      const unlooked = (limit: number) =>
        sql`
          SELECT id::text AS id, account_id::text AS "accountId" FROM jobs
          WHERE status = 'queued' AND waiting_reason IS NULL ORDER BY seq LIMIT ${limit}`.pipe(
          Effect.flatMap(decodeUnlooked),
          Effect.orDie
        )

      const linkPerson = (id: string, personId: string, keep: "keep" | "replace") =>
        (keep === "keep"
          ? sql`UPDATE jobs SET person_id = COALESCE(person_id, ${personId}) WHERE id = ${id}`
          : sql`UPDATE jobs SET person_id = ${personId} WHERE id = ${id}`).pipe(Effect.asVoid, Effect.orDie)

      const keySet = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
        query.pipe(Effect.flatMap(decodeKeys), Effect.map((rows) => new Set(rows.map((row) => row.key))), Effect.orDie)

      const withdrawalsProposed = (accountId: string, invitationIds: ReadonlyArray<string>) =>
        invitationIds.length === 0 ? Effect.succeed(new Set<string>()) : keySet(sql`
          SELECT DISTINCT input ->> 'invitationId' AS key FROM jobs
          WHERE account_id = ${accountId} AND kind = 'withdraw_invite'
            AND input ->> 'invitationId' IN ${sql.in(invitationIds)}
            AND (origin = 'service' OR status NOT IN ('failed', 'cancelled'))`)

      const messagedAmong = (accountId: string, providerIds: ReadonlyArray<string>) =>
        providerIds.length === 0 ? Effect.succeed(new Set<string>()) : keySet(sql`
          SELECT DISTINCT result ->> 'recipientProviderId' AS key FROM jobs
          WHERE account_id = ${accountId} AND kind = 'send_message'
            AND result ->> 'recipientProviderId' IN ${sql.in(providerIds)}`)

      const aboutPeople = (workspaceId: string, personIds: ReadonlyArray<string>) =>
        personIds.length === 0 ? Effect.succeed([]) : sql`
          SELECT j.person_id::text AS "personId", j.account_id::text AS "accountId", j.id::text AS "jobId", j.kind,
            j.status, j.error, j.result, j.created_at AS "createdAt", j.started_at AS "startedAt",
            j.finished_at AS "finishedAt"
          FROM jobs j
          WHERE j.workspace_id = ${workspaceId} AND ${sql.in("j.person_id", [...personIds])}`.pipe(
          Effect.flatMap(decodePersonJobs),
          Effect.orDie
        )

      const holding = (personId: string, coldSinceIso: string) =>
        sql`
          SELECT j.account_id::text AS "accountId", 'in_flight' AS reason, COALESCE(j.started_at, j.created_at) AS since
          FROM jobs j
          WHERE j.person_id = ${personId} AND j.status = 'running' AND j.kind IN ('connect', 'send_message')
          UNION ALL
          SELECT j.account_id::text, 'cold_message', (j.result ->> 'sentAt')::timestamptz
          FROM jobs j
          WHERE j.person_id = ${personId} AND j.kind = 'send_message' AND j.status = 'completed'
            AND j.result ->> 'inmail' = 'true'
            AND (j.result ->> 'sentAt')::timestamptz > ${coldSinceIso}::timestamptz`.pipe(
          Effect.flatMap(decodeHolds),
          Effect.orDie
        )

      const openCounts = (accountId: string) =>
        sql`
          SELECT status, kind, count(*) AS count FROM jobs
          WHERE account_id = ${accountId} AND status IN ('queued', 'scheduled', 'awaiting_approval', 'running')
          GROUP BY status, kind`.pipe(Effect.flatMap(decodeOpenCounts), Effect.orDie)

      const release = (id: string, input: unknown) =>
        sql`UPDATE jobs SET status = 'queued', input = ${JSON.stringify(input)}::jsonb
            WHERE id = ${id} AND status = 'awaiting_approval'`.pipe(Effect.asVoid, Effect.orDie)

      return JobStore.of({
        create,
        get,
        byId,
        list,
        statesOf,
        openOf,
        openWritesOf,
        dueAccounts,
        wakeUpsDue,
        markBehind,
        setWaiting,
        takeAccount,
        claim: (job, fence) =>
          claiming.submit({ job, fence }).pipe(Effect.withSpan("JobStore.claim", { attributes: { jobId: job.id } }, Spans.perJob)),
        recordAttempt,
        unlooked,
        markEnded,
        cancellableOf,
        requeue,
        release,
        linkPerson,
        withdrawalsProposed,
        messagedAmong,
        aboutPeople,
        holding,
        openCounts
      })
    })
  )

  /** `layerNoDeps` with its services' layers; needs the port `JobApprovals` (`ApprovalTable.jobApprovals`), which `App.ts` wires. */
  static readonly layer = JobStore.layerNoDeps.pipe(Layer.provide([AccountStore.layer]))

  /** `People`'s port to the jobs about a person, answered by this store. */
  static readonly personJobs = Layer.effect(
    PersonJobs,
    Effect.gen(function*() {
      const store = yield* JobStore
      return PersonJobs.of({ about: store.aboutPeople, holding: store.holding })
    })
  ).pipe(Layer.provide(JobStore.layer))
}
