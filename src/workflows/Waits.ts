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
 * invitations and messages and the step's job, each asked of its owner once
 * for every wait of a look (`conditionHolds` is the one definition, for waits
 * and `if` steps alike).
 */
import { Context, Effect, Exit, Layer, Option, Queue, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { DurableDeferred, WorkflowEngine } from "effect/workflow"
import { finishedStatuses } from "../domain/Job.ts"
import * as Time from "../domain/Time.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { JobWatch } from "../jobs/JobWatch.ts"
import { Condition } from "../domain/Workflow.ts"
import { isUnsure } from "../domain/TriageClass.ts"
import { type AccountPerson, Invitations } from "../accounts/Invitations.ts"
import { type MessageFrom, Messages } from "../people/Messages.ts"
import { BigIntNumber, Nullable, Timestamp } from "../platform/Rows.ts"
import { type WorkflowRow, WorkflowStore } from "./WorkflowStore.ts"

/** What a wait can end on: a step's conditions, the job a command step created finishing, or a resume. */
export const WaitCondition = Schema.Union([
  Condition,
  Schema.Struct({ type: Schema.Literal("jobFinished"), jobId: Schema.String }),
  /** The workflow is not paused (a paused workflow holds its next command step). */
  Schema.Struct({ type: Schema.Literal("resumed") }),
  /**
   * The person sent a reply since the start whose class triage is unsure of (`isUnsure`): a step that
   * depends on the reply's class stops on it rather than carrying on.
   */
  Schema.Struct({ type: Schema.Literal("unsureReply") })
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
interface DecidedWait {
  readonly executionId: string
  readonly deferredName: string
  readonly met: number
}
const WaitRow = Schema.Struct({
  executionId: Schema.String,
  deferredName: Schema.String,
  conditions: Schema.Array(Schema.Unknown),
  deadlineMs: Nullable(BigIntNumber),
  createdAt: Timestamp
})
const decodeWaits = Schema.decodeUnknownEffect(Schema.Array(WaitRow))
// A condition that does not decode never holds.
const decodeCondition = Schema.decodeUnknownOption(WaitCondition)

/** What the conditions of some waits are tested against, each read from its owner. */
interface Facts {
  /** The waits' workflows, by execution. */
  readonly workflows: ReadonlyMap<string, WorkflowRow>
  /** Of the jobs the conditions name, those not finished (a job not found counts as finished). */
  readonly unfinishedJobs: ReadonlySet<string>
  /** Accounts and people (`pairKey`) with an accepted invitation. */
  readonly accepted: ReadonlySet<string>
  /** The messages each person (`pairKey`) sent the account since the earliest start of its workflows. */
  readonly messages: ReadonlyMap<string, ReadonlyArray<MessageFrom>>
}

const pairKey = (pair: AccountPerson) => `${pair.accountId} ${pair.providerId}`
const personOf = (workflow: WorkflowRow): AccountPerson => ({ accountId: workflow.accountId, providerId: workflow.providerId })

/** The messages the workflow's person sent its account since the workflow started. */
const repliesSinceStart = (workflow: WorkflowRow, facts: Facts): ReadonlyArray<MessageFrom> => {
  const since = Date.parse(workflow.createdAt)
  return (facts.messages.get(pairKey(personOf(workflow))) ?? []).filter((message) => Date.parse(message.sentAt) >= since)
}

/**
 * Whether `condition` holds for `workflow` at `nowMs`: the one definition of every condition, for waits and
 * for `if` steps alike.
 */
const conditionHolds = (condition: WaitCondition, workflow: WorkflowRow, facts: Facts, nowMs: number): boolean => {
  switch (condition.type) {
    case "resumed":
      return !workflow.paused
    case "jobFinished":
      return !facts.unfinishedJobs.has(condition.jobId)
    case "accepted":
      return facts.accepted.has(pairKey(personOf(workflow)))
    case "replied": {
      // With classes, only a reply triaged into one of them with confidence counts.
      const classes = condition.classes
      return repliesSinceStart(workflow, facts).some((message) =>
        classes === undefined ||
        (message.triageClass !== null && classes.includes(message.triageClass) && !isUnsure(message.triageConfidence))
      )
    }
    case "unsureReply":
      return repliesSinceStart(workflow, facts).some((message) => isUnsure(message.triageConfidence))
    case "elapsed":
      return Date.parse(workflow.createdAt) + condition.seconds * 1000 <= nowMs
  }
}

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

        const store = yield* WorkflowStore
        const jobs = yield* JobStore
        const invitations = yield* Invitations
        const messageStore = yield* Messages

        /** The facts the conditions of these waits are tested against: one query per table, however many waits. */
        const factsFor = (waits: ReadonlyArray<{
          readonly executionId: string
          readonly conditions: ReadonlyArray<WaitCondition>
        }>) =>
          Effect.gen(function*() {
            const rows = yield* store.byExecutionIds([...new Set(waits.map((wait) => wait.executionId))])
            const workflows = new Map(rows.map((row) => [row.executionId, row]))
            const tested = waits.flatMap((wait) => {
              const workflow = workflows.get(wait.executionId)
              return workflow === undefined ? [] : wait.conditions.map((condition) => ({ condition, workflow }))
            })
            const jobIds = [...new Set(tested.flatMap(({ condition }) => condition.type === "jobFinished" ? [condition.jobId] : []))]
            const states = yield* jobs.statesOf(jobIds)
            const unfinishedJobs = new Set([...states.values()].filter((job) => !finishedStatuses.has(job.status)).map((job) => job.id))
            const peopleOf = (...types: ReadonlyArray<WaitCondition["type"]>) => {
              const earliest = new Map<string, AccountPerson & { readonly sinceIso: string }>()
              for (const { condition, workflow } of tested) {
                if (!types.includes(condition.type)) continue
                const known = earliest.get(pairKey(personOf(workflow)))
                if (known === undefined || Date.parse(workflow.createdAt) < Date.parse(known.sinceIso)) {
                  earliest.set(pairKey(personOf(workflow)), { ...personOf(workflow), sinceIso: workflow.createdAt })
                }
              }
              return [...earliest.values()]
            }
            const accepted = yield* invitations.acceptedAmong(peopleOf("accepted").map(({ accountId, providerId }) => ({ accountId, providerId })))
            const messages = new Map<string, Array<MessageFrom>>()
            for (const message of yield* messageStore.messagesFrom(peopleOf("replied", "unsureReply"))) {
              const key = pairKey(message)
              messages.set(key, [...(messages.get(key) ?? []), message])
            }
            const facts: Facts = { workflows, unfinishedJobs, accepted: new Set(accepted.map(pairKey)), messages }
            return facts
          })

        const holds = Effect.fn("Waits.holds")(function*(condition: WaitCondition, executionId: string) {
          const now = yield* Time.now
          const facts = yield* factsFor([{ executionId, conditions: [condition] }])
          const workflow = facts.workflows.get(executionId)
          return workflow !== undefined && conditionHolds(condition, workflow, facts, now.ms)
        })

        /** The waits decided now, oldest first, up to a batch: their workflows, jobs, invitations and messages read once for all. */
        const decided = (nowMs: number) =>
          Effect.gen(function*() {
            const waits = (yield* sql`
              SELECT execution_id AS "executionId", deferred_name AS "deferredName", conditions,
                deadline_ms AS "deadlineMs", created_at AS "createdAt"
              FROM workflow_waits ORDER BY created_at`.pipe(Effect.flatMap(decodeWaits), Effect.orDie))
              .map((wait) => ({ ...wait, conditions: wait.conditions.map((condition) => decodeCondition(condition)) }))
            const facts = yield* factsFor(waits.map((wait) => ({
              executionId: wait.executionId,
              conditions: wait.conditions.flatMap(Option.toArray)
            })))
            const found: Array<DecidedWait> = []
            for (const wait of waits) {
              const workflow = facts.workflows.get(wait.executionId)
              if (workflow === undefined) continue
              const met = wait.conditions.findIndex((condition) =>
                Option.isSome(condition) && conditionHolds(condition.value, workflow, facts, nowMs)
              )
              if (met >= 0 || (wait.deadlineMs !== null && wait.deadlineMs <= nowMs)) {
                found.push({ executionId: wait.executionId, deferredName: wait.deferredName, met })
              }
              if (found.length === BATCH) break
            }
            return found
          })

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
          for (const wait of yield* decided(now.ms)) {
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
    ).pipe(Layer.provide([Invitations.layer, JobStore.layer, Messages.layer, WorkflowStore.layer]))
}
