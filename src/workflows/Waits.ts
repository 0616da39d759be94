/**
 * What waiting workflows wait for, and the loop that wakes them. A workflow
 * that waits records a row here (its conditions and, when it has one, a
 * deadline) and then awaits a `DurableDeferred`; the loop completes that
 * deferred through the workflow engine once a condition holds (its index) or
 * the deadline passed (-1). `DurableClock` sleeps land here too (no
 * conditions, a deadline), so every wait follows the service's clock: the
 * sandbox's test clock moves them like everything else, which the cluster's
 * own clock (real time, for its polling) could not.
 *
 * The loop looks once a second (real time) and at once when a wait is
 * recorded; with several servers each looks, and the engine takes the first
 * completion of a deferred only.
 *
 * @since 1.0.0
 */
import { Context, Effect, Exit, Layer, Queue, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { DurableDeferred, WorkflowEngine } from "effect/workflow"
import { isFinished, JobStatus } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { BigIntNumber, Timestamp } from "../platform/Rows.ts"
import { Condition } from "./Definition.ts"

/** What a wait can end on: a step's conditions, the job a command step created finishing, or a resume. */
export const WaitCondition = Schema.Union([
  Condition,
  Schema.Struct({ type: Schema.Literal("jobFinished"), jobId: Schema.String }),
  /** The workflow is not paused (a paused workflow holds its next command step). */
  Schema.Struct({ type: Schema.Literal("resumed") })
])
export type WaitCondition = typeof WaitCondition.Type

/** How a wait ended: the index of the condition that held, or -1 when the deadline passed. */
export const WaitOutcome = Schema.Struct({ met: Schema.Int })
export type WaitOutcome = typeof WaitOutcome.Type

/** The deferred a workflow awaits for the wait named `name`. */
export const waitDeferred = (name: string) => DurableDeferred.make(`wait/${name}`, { success: WaitOutcome })

// DurableClock's deferreds are named `DurableClock/<name>` and carry no value.
const clockPrefix = "DurableClock/"

/** Whom a condition is about: the workflow's execution, account and person, and when it started. */
export interface About {
  readonly executionId: string
  readonly accountId: string
  readonly providerId: string
  readonly startedAt: string
}

/** One wait to record. */
export interface Wait {
  readonly executionId: string
  /** The deferred's name (`waitDeferred(name).name`, or a DurableClock's). */
  readonly deferredName: string
  readonly conditions: ReadonlyArray<WaitCondition>
  /** Epoch milliseconds on the service's clock; null: no time limit. */
  readonly deadlineMs: number | null
}

const OpenWait = Schema.Struct({
  executionId: Schema.String,
  deferredName: Schema.String,
  conditions: Schema.Array(WaitCondition),
  deadlineMs: Schema.NullOr(BigIntNumber),
  accountId: Schema.String,
  providerId: Schema.String,
  startedAt: Timestamp
})
type OpenWait = typeof OpenWait.Type
const decodeOpen = Schema.decodeUnknownEffect(Schema.Array(OpenWait))
const decodeStatus = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ status: JobStatus })))

// The most waits one look reads; the rest wait for the next look.
const BATCH = 500

export class Waits extends Context.Service<Waits, {
  /** Records a wait (once: recording it again changes nothing) and has the loop look at once. */
  readonly record: (wait: Wait) => Effect.Effect<void>
  /** Whether a condition holds now for the workflow's account and person. */
  readonly holds: (condition: WaitCondition, about: About) => Effect.Effect<boolean>
  /** Drops a workflow's waits (it was cancelled). */
  readonly dropAll: (executionId: string) => Effect.Effect<void>
}>()("outreach/Waits") {
  /** Needs the engine that runs the workflows (to complete their deferreds). */
  static readonly layer = (workflowName: string) =>
    Layer.effect(
      Waits,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const engine = yield* WorkflowEngine.WorkflowEngine
        const pokes = yield* Queue.sliding<void>(1)

        const holds = Effect.fn("Waits.holds")(function*(condition: WaitCondition, about: About) {
          switch (condition.type) {
            case "resumed": {
              const rows = yield* sql`
                SELECT 1 FROM workflows WHERE execution_id = ${about.executionId} AND NOT paused`.pipe(Effect.orDie)
              return rows.length > 0
            }
            case "jobFinished": {
              const rows = yield* sql`SELECT status FROM jobs WHERE id = ${condition.jobId}`.pipe(
                Effect.flatMap(decodeStatus),
                Effect.orDie
              )
              return rows.length === 0 || isFinished(rows[0].status)
            }
            case "accepted": {
              const rows = yield* sql`
                SELECT 1 FROM invitations WHERE account_id = ${about.accountId} AND provider_id = ${about.providerId}
                  AND status = 'accepted' LIMIT 1`.pipe(Effect.orDie)
              return rows.length > 0
            }
            case "replied": {
              const rows = yield* sql`
                SELECT 1 FROM inbox_messages
                WHERE account_id = ${about.accountId} AND sender_provider_id = ${about.providerId}
                  AND sent_at >= ${about.startedAt}::timestamptz
                  ${condition.classes === undefined ? sql`` : sql`AND triage_class IN ${sql.in(condition.classes)}`}
                LIMIT 1`.pipe(Effect.orDie)
              return rows.length > 0
            }
            case "elapsed": {
              const now = yield* Time.now
              return now.ms - Date.parse(about.startedAt) >= condition.seconds * 1000
            }
          }
        })

        const outcomeOf = Effect.fnUntraced(function*(wait: OpenWait, nowMs: number) {
          for (const [index, condition] of wait.conditions.entries()) {
            if (yield* holds(condition, wait)) return index
          }
          return wait.deadlineMs !== null && wait.deadlineMs <= nowMs ? -1 : undefined
        })

        const complete = (wait: OpenWait, met: number) =>
          wait.deferredName.startsWith(clockPrefix)
            ? engine.deferredDone(DurableDeferred.make(wait.deferredName), {
              workflowName,
              executionId: wait.executionId,
              deferredName: wait.deferredName,
              exit: Exit.void
            })
            : engine.deferredDone(DurableDeferred.make(wait.deferredName, { success: WaitOutcome }), {
              workflowName,
              executionId: wait.executionId,
              deferredName: wait.deferredName,
              exit: Exit.succeed({ met })
            })

        const look = Effect.gen(function*() {
          const now = yield* Time.now
          const open = yield* sql`
            SELECT w.execution_id AS "executionId", w.deferred_name AS "deferredName", w.conditions,
              w.deadline_ms AS "deadlineMs", f.account_id::text AS "accountId", f.provider_id AS "providerId",
              f.created_at AS "startedAt"
            FROM workflow_waits w JOIN workflows f ON f.execution_id = w.execution_id
            ORDER BY w.created_at LIMIT ${BATCH}`.pipe(Effect.flatMap(decodeOpen), Effect.orDie)
          for (const wait of open) {
            const met = yield* outcomeOf(wait, now.ms)
            if (met === undefined) continue
            // Completed first, then forgotten: a crash between the two completes it again, which the engine ignores.
            yield* complete(wait, met)
            yield* sql`DELETE FROM workflow_waits
              WHERE execution_id = ${wait.executionId} AND deferred_name = ${wait.deferredName}`.pipe(Effect.orDie)
          }
        }).pipe(Effect.withSpan("Waits.look"))

        yield* look.pipe(
          Effect.catchCause((cause) => Effect.logWarning("workflows: looking at waits failed; trying again", cause)),
          Effect.andThen(Effect.raceFirst(Time.liveSleep("1 second"), Queue.take(pokes))),
          Effect.forever,
          Effect.forkScoped
        )

        return Waits.of({
          record: (wait) =>
            Effect.gen(function*() {
              const now = yield* Time.now
              yield* sql`
                INSERT INTO workflow_waits (execution_id, deferred_name, conditions, deadline_ms, created_at)
                VALUES (${wait.executionId}, ${wait.deferredName}, ${JSON.stringify(wait.conditions)}::jsonb,
                  ${wait.deadlineMs}, ${now.iso}::timestamptz)
                ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
              yield* Queue.offer(pokes, undefined)
            }),
          holds,
          dropAll: (executionId) =>
            sql`DELETE FROM workflow_waits WHERE execution_id = ${executionId}`.pipe(Effect.asVoid, Effect.orDie)
        })
      })
    )
}
