/**
 * Workflow records in PostgreSQL: what each one is (its account, person and
 * steps), where it is (status, step, what it waits for), the jobs its steps
 * created and its log. The engine's own replay state is not here: it is in
 * `effect/cluster`'s tables.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Time from "../domain/Time.ts"
import { BigIntNumber, NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import { type Step, Steps, WorkflowStatus, WorkflowWaitReason } from "../domain/Workflow.ts"

export const WorkflowRow = Schema.Struct({
  id: Schema.String,
  seq: BigIntNumber,
  executionId: Schema.String,
  workspaceId: Schema.String,
  accountId: Schema.String,
  automationId: Schema.NullOr(Schema.String),
  person: Schema.String,
  providerId: Schema.String,
  steps: Schema.Unknown,
  stopOnReply: Schema.Boolean,
  paused: Schema.Boolean,
  status: WorkflowStatus,
  step: Schema.NullOr(Schema.String),
  waitingFor: Schema.NullOr(Schema.String),
  waitingReason: Schema.NullOr(WorkflowWaitReason),
  waitingUntil: NullableTimestamp,
  outcome: Schema.NullOr(Schema.String),
  error: Schema.Unknown,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: NullableTimestamp
})
export type WorkflowRow = typeof WorkflowRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(WorkflowRow))
const decodeSteps = Schema.decodeUnknownEffect(Steps)

const columns = `
  w.id::text AS id, w.seq, w.execution_id AS "executionId", w.workspace_id::text AS "workspaceId",
  w.account_id::text AS "accountId", w.automation_id::text AS "automationId", w.person, w.provider_id AS "providerId",
  w.steps, w.stop_on_reply AS "stopOnReply", w.paused, w.status, w.step, w.waiting_for AS "waitingFor", w.waiting_reason AS "waitingReason",
  w.waiting_until AS "waitingUntil", w.outcome, w.error, w.created_at AS "createdAt", w.updated_at AS "updatedAt",
  w.finished_at AS "finishedAt"`

const LogRow = Schema.Struct({
  workflowId: Schema.String,
  at: Timestamp,
  path: Schema.NullOr(Schema.String),
  entry: Schema.String
})
const decodeLog = Schema.decodeUnknownEffect(Schema.Array(LogRow))
const JobLink = Schema.Struct({
  workflowId: Schema.String,
  path: Schema.String,
  jobId: Schema.String
})
const decodeJobLinks = Schema.decodeUnknownEffect(Schema.Array(JobLink))

/** A new workflow's record. */
export interface NewWorkflow {
  readonly id: string
  readonly executionId: string
  readonly workspaceId: string
  readonly accountId: string
  readonly automationId: string | null
  readonly person: string
  readonly providerId: string
  readonly steps: ReadonlyArray<Step>
  readonly stopOnReply: boolean
}

export class WorkflowStore extends Context.Service<WorkflowStore, {
  readonly insert: (workflow: NewWorkflow) => Effect.Effect<WorkflowRow>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<WorkflowRow | undefined>
  readonly byId: (id: string) => Effect.Effect<WorkflowRow | undefined>
  /** The workflows of these executions (one query for them all). */
  readonly byExecutionIds: (executionIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<WorkflowRow>>
  readonly list: (
    workspaceId: string,
    filter: { readonly automationId?: string | undefined; readonly afterSeq?: number | undefined; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<WorkflowRow>>
  /** The workflow's steps, as stored (checked when it was created). */
  readonly stepsOf: (row: WorkflowRow) => Effect.Effect<ReadonlyArray<Step>>
  /** Marks the step under way and logs it. */
  readonly stepStarted: (id: string, path: string, description: string) => Effect.Effect<void>
  /** What the workflow now waits for, until when (null: no time limit). */
  readonly waiting: (id: string, reason: WorkflowWaitReason, what: string, untilMs: number | null) => Effect.Effect<void>
  /** Adds a line to the workflow's log. */
  readonly log: (id: string, path: string | null, entry: string) => Effect.Effect<void>
  /** Ends the workflow (unless it already ended); false when it had. */
  readonly finish: (
    id: string,
    status: WorkflowStatus,
    outcome: string,
    error?: unknown
  ) => Effect.Effect<boolean>
  readonly setPaused: (ids: ReadonlyArray<string>, paused: boolean) => Effect.Effect<void>
  /** The job a step created, if it did. */
  readonly jobAt: (id: string, path: string) => Effect.Effect<string | undefined>
  readonly linkJob: (id: string, path: string, jobId: string) => Effect.Effect<void>
  /** The jobs of these workflows' steps, oldest first (one query for a whole page); `JobStore` has where they stand. */
  readonly jobsOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<typeof JobLink.Type>>
  /** These workflows' logs, oldest first (one query for a whole page). */
  readonly logOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<typeof LogRow.Type>>
}>()("outreach/WorkflowStore") {
  static readonly layer = Layer.effect(
    WorkflowStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = (statement: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
        statement.pipe(Effect.flatMap(decodeRows), Effect.orDie)
      const touch = (id: string, now: string) => sql`UPDATE workflows SET updated_at = ${now}::timestamptz WHERE id = ${id}`

      const log = (id: string, path: string | null, entry: string) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          yield* sql`
            INSERT INTO workflow_log (workflow_id, at, path, entry)
            VALUES (${id}, ${now.iso}::timestamptz, ${path}, ${entry})`
        }).pipe(Effect.orDie)

      return WorkflowStore.of({
        insert: (workflow) =>
          Effect.gen(function*() {
            const now = yield* Time.now
            const inserted = yield* rows(sql`
              INSERT INTO workflows AS w (id, execution_id, workspace_id, account_id, automation_id, person, provider_id,
                steps, stop_on_reply, status, created_at, updated_at)
              VALUES (${workflow.id}, ${workflow.executionId}, ${workflow.workspaceId}, ${workflow.accountId},
                ${workflow.automationId}, ${workflow.person}, ${workflow.providerId}, ${JSON.stringify(workflow.steps)}::jsonb,
                ${workflow.stopOnReply}, 'running', ${now.iso}::timestamptz, ${now.iso}::timestamptz)
              RETURNING ${sql.literal(columns)}`)
            yield* log(workflow.id, null, "created")
            return inserted[0]
          }),
        get: (workspaceId, id) =>
          Effect.map(
            rows(sql`SELECT ${sql.literal(columns)} FROM workflows w WHERE w.id = ${id} AND w.workspace_id = ${workspaceId}`),
            (found) => found[0]
          ),
        byId: (id) =>
          Effect.map(rows(sql`SELECT ${sql.literal(columns)} FROM workflows w WHERE w.id = ${id}`), (found) => found[0]),
        byExecutionIds: (executionIds) =>
          executionIds.length === 0 ? Effect.succeed([]) : rows(sql`
            SELECT ${sql.literal(columns)} FROM workflows w WHERE w.execution_id IN ${sql.in(executionIds)}`),
        list: (workspaceId, filter) =>
          rows(sql`
            SELECT ${sql.literal(columns)} FROM workflows w
            WHERE w.workspace_id = ${workspaceId}
              ${filter.automationId === undefined ? sql`` : sql`AND w.automation_id = ${filter.automationId}`}
              ${filter.afterSeq === undefined ? sql`` : sql`AND w.seq < ${filter.afterSeq}`}
            ORDER BY w.seq DESC LIMIT ${filter.limit}`),
        stepsOf: (row) => decodeSteps(row.steps).pipe(Effect.orDie),
        stepStarted: (id, path, description) =>
          Effect.gen(function*() {
            const now = yield* Time.now
            yield* sql`
              UPDATE workflows SET status = 'running', step = ${`${path}: ${description}`}, waiting_for = NULL, waiting_reason = NULL,
                waiting_until = NULL, updated_at = ${now.iso}::timestamptz
              WHERE id = ${id} AND finished_at IS NULL`.pipe(Effect.orDie)
            yield* log(id, path, `started ${description}`)
          }),
        waiting: (id, reason, what, untilMs) =>
          Effect.gen(function*() {
            const now = yield* Time.now
            yield* sql`
              UPDATE workflows SET status = 'waiting', waiting_for = ${what}, waiting_reason = ${reason},
                waiting_until = ${untilMs === null ? null : Time.toIso(untilMs)}::timestamptz,
                updated_at = ${now.iso}::timestamptz
              WHERE id = ${id} AND finished_at IS NULL`.pipe(Effect.orDie)
          }),
        log,
        finish: (id, status, outcome, error) =>
          Effect.gen(function*() {
            const now = yield* Time.now
            const ended = yield* sql`
              UPDATE workflows SET status = ${status}, outcome = ${outcome}, error = ${
              error === undefined ? null : JSON.stringify(error)
            }::jsonb,
                waiting_for = NULL, waiting_reason = NULL, waiting_until = NULL, finished_at = ${now.iso}::timestamptz,
                updated_at = ${now.iso}::timestamptz
              WHERE id = ${id} AND finished_at IS NULL
              RETURNING id`.pipe(Effect.orDie)
            if (ended.length > 0) yield* log(id, null, `${status}: ${outcome}`)
            return ended.length > 0
          }),
        setPaused: (ids, paused) =>
          Effect.gen(function*() {
            if (ids.length === 0) return
            const now = yield* Time.now
            yield* sql`UPDATE workflows SET paused = ${paused}, updated_at = ${now.iso}::timestamptz
              WHERE id IN ${sql.in(ids)} AND finished_at IS NULL`
            for (const id of ids) yield* log(id, null, paused ? "paused" : "resumed")
          }).pipe(Effect.orDie),
        jobAt: (id, path) =>
          sql<{ jobId: string }>`SELECT job_id::text AS "jobId" FROM workflow_jobs WHERE workflow_id = ${id} AND path = ${path}`
            .pipe(Effect.map((found) => found[0]?.jobId), Effect.orDie),
        linkJob: (id, path, jobId) =>
          Effect.gen(function*() {
            const now = yield* Time.now
            yield* sql`INSERT INTO workflow_jobs (workflow_id, path, job_id, created_at)
              VALUES (${id}, ${path}, ${jobId}, ${now.iso}::timestamptz)`
            yield* touch(id, now.iso)
          }).pipe(Effect.orDie),
        jobsOf: (ids) =>
          ids.length === 0 ? Effect.succeed([]) : sql`
            SELECT l.workflow_id::text AS "workflowId", l.path, l.job_id::text AS "jobId"
            FROM workflow_jobs l
            WHERE l.workflow_id IN ${sql.in(ids)} ORDER BY l.created_at, l.path`.pipe(
            Effect.flatMap(decodeJobLinks),
            Effect.orDie
          ),
        logOf: (ids) =>
          ids.length === 0 ? Effect.succeed([]) : sql`
            SELECT workflow_id::text AS "workflowId", at, path, entry FROM workflow_log
            WHERE workflow_id IN ${sql.in(ids)} ORDER BY id`.pipe(Effect.flatMap(decodeLog), Effect.orDie)
      })
    })
  )
}
