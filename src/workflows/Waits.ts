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
 * The loop looks once a second (real time), and at once when a wait is
 * recorded or a job finishes in this process; with several servers each looks, and the engine takes the first
 * completion of a deferred only.
 *
 * A wait's conditions are tested against its workflow's row, the account's
 * invitations and messages and the step's job in the statement that reads the
 * waits: joined reads of tables owned elsewhere, listed with their reason in
 * `test/architecture/TableOwners.test.ts` (`joinedReads`).
 *
 * @since 1.0.0
 */
import { Context, Effect, Exit, Layer, Queue, Schema, Stream } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { DurableDeferred, WorkflowEngine } from "effect/workflow"
import { finishedStatuses } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { JobWatch } from "../jobs/JobWatch.ts"
import { Condition } from "../domain/Workflow.ts"

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

/** One wait to record. */
export interface Wait {
  readonly executionId: string
  /** The deferred's name (`waitDeferred(name).name`, or a DurableClock's). */
  readonly deferredName: string
  readonly conditions: ReadonlyArray<WaitCondition>
  /** Epoch milliseconds on the service's clock; null: no time limit. */
  readonly deadlineMs: number | null
}

// A wait the look found decided: the condition that held (its index), or -1 past the deadline.
const DecidedWait = Schema.Struct({
  executionId: Schema.String,
  deferredName: Schema.String,
  met: Schema.Int
})
type DecidedWait = typeof DecidedWait.Type
const decodeDecided = Schema.decodeUnknownEffect(Schema.Array(DecidedWait))
const decodeHolds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ holds: Schema.Boolean })))

// The most waits one look reads; the rest wait for the next look.
const BATCH = 500

export class Waits extends Context.Service<Waits, {
  /** Records a wait (once: recording it again changes nothing) and has the loop look at once. */
  readonly record: (wait: Wait) => Effect.Effect<void>
  /** Whether a condition holds now for the workflow (its account and person, its start, its pause). */
  readonly holds: (condition: WaitCondition, executionId: string) => Effect.Effect<boolean>
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

        /**
         * Whether the condition `cond` (jsonb) holds for the workflow `f` (a `workflows` row) at
         * `nowIso`: the one definition of every condition, for waits and for `if` steps alike.
         */
        const conditionHolds = (cond: Statement.Fragment, nowIso: string) =>
          sql`CASE ${cond}->>'type'
            WHEN 'resumed' THEN NOT f.paused
            WHEN 'jobFinished' THEN NOT EXISTS (
              SELECT 1 FROM jobs j WHERE j.id = (${cond}->>'jobId')::uuid AND j.status NOT IN ${sql.in([...finishedStatuses])})
            WHEN 'accepted' THEN EXISTS (
              SELECT 1 FROM invitations i
              WHERE i.account_id = f.account_id AND i.provider_id = f.provider_id AND i.status = 'accepted')
            WHEN 'replied' THEN EXISTS (
              SELECT 1 FROM inbox_messages m
              WHERE m.account_id = f.account_id AND m.sender_provider_id = f.provider_id AND m.sent_at >= f.created_at
                AND (${cond}->'classes' IS NULL
                  OR m.triage_class IN (SELECT jsonb_array_elements_text(${cond}->'classes'))))
            WHEN 'elapsed' THEN
              f.created_at + make_interval(secs => (${cond}->>'seconds')::int) <= ${nowIso}::timestamptz
            ELSE false END`

        const holds = Effect.fn("Waits.holds")(function*(condition: WaitCondition, executionId: string) {
          const now = yield* Time.now
          const rows = yield* sql`
            SELECT ${conditionHolds(sql`${JSON.stringify(condition)}::jsonb`, now.iso)} AS holds
            FROM workflows f WHERE f.execution_id = ${executionId}`.pipe(Effect.flatMap(decodeHolds), Effect.orDie)
          return rows[0]?.holds === true
        })

        /** The waits decided now, oldest first: one statement, however many waits there are. */
        const decided = (nowMs: number, nowIso: string) =>
          sql`
            SELECT d."executionId", d."deferredName", COALESCE(d.met, -1)::int AS met FROM (
              SELECT w.execution_id AS "executionId", w.deferred_name AS "deferredName", w.created_at, w.deadline_ms,
                (SELECT min(c.ord) - 1 FROM jsonb_array_elements(w.conditions) WITH ORDINALITY AS c(cond, ord)
                 WHERE ${conditionHolds(sql`c.cond`, nowIso)}) AS met
              FROM workflow_waits w JOIN workflows f ON f.execution_id = w.execution_id
            ) d
            WHERE d.met IS NOT NULL OR d.deadline_ms <= ${nowMs}
            ORDER BY d.created_at LIMIT ${BATCH}`.pipe(Effect.flatMap(decodeDecided), Effect.orDie)

        const complete = (wait: DecidedWait) => {
          const done = { workflowName, executionId: wait.executionId, deferredName: wait.deferredName }
          return wait.deferredName.startsWith(clockPrefix)
            ? engine.deferredDone(DurableDeferred.make(wait.deferredName), { ...done, exit: Exit.void })
            : engine.deferredDone(DurableDeferred.make(wait.deferredName, { success: WaitOutcome }), {
              ...done,
              exit: Exit.succeed({ met: wait.met })
            })
        }

        const look = Effect.gen(function*() {
          const now = yield* Time.now
          for (const wait of yield* decided(now.ms, now.iso)) {
            // Completed first, then forgotten: a crash between the two completes it again, which the engine ignores.
            yield* complete(wait)
            yield* sql`DELETE FROM workflow_waits
              WHERE execution_id = ${wait.executionId} AND deferred_name = ${wait.deferredName}`.pipe(Effect.orDie)
          }
        }).pipe(Effect.withSpan("Waits.look"))

        // A finished job may end a wait (a step's job, a message still waiting): look at once, not at the next tick.
        const jobWatch = yield* JobWatch
        yield* Stream.runForEach(jobWatch.announced, () => Queue.offer(pokes, undefined)).pipe(Effect.forkScoped)

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
