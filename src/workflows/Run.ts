/**
 * How a workflow's steps run, as an `effect/workflow` workflow: each thing
 * that touches the world (creating a step's job, recording a wait, reading a
 * job's outcome, ending the workflow) is an `Activity`, so after a restart the
 * engine replays the steps from the start, answers finished activities from
 * what it stored, and carries on at the first one that had not finished. A
 * command's job is created once: the activity first looks for the job it may
 * already have created for that step.
 *
 * Every write a step makes is an ordinary job (`Jobs.create`), so the
 * Governor applies the account's mode and approvals, budgets, working hours,
 * pacing and guardrails to it as to any other; the workflow waits for the job
 * to finish. A job that fails ends the workflow as `failed` with the job's
 * error. With `stopOnReply` (automations) every wait also ends when the
 * person replies, and the workflow stops there. A step that chooses by the
 * class of the person's reply (`replied` with `classes`) counts only replies
 * triaged with confidence, and stops the workflow on a reply triage is unsure
 * of, rather than carrying on as if the person had not replied.
 *
 * Activities run on the service's clock (captured when this layer is built),
 * not on the cluster's real-time one.
 */
import { Cause, Clock, Duration, Effect, Layer, Schema } from "effect"
import { Activity, DurableClock, DurableDeferred, type WorkflowEngine } from "effect/workflow"
import { commands } from "../domain/Commands.ts"
import * as Time from "../domain/Time.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { type Condition, describe, describeCondition, inputOf, type Step, type WorkflowWaitReason } from "../domain/Workflow.ts"
import * as Engine from "./Engine.ts"
import { OutreachWorkflow } from "./OutreachWorkflow.ts"
import { type WaitCondition, waitDeferred, Waits } from "./Waits.ts"
import { type WorkflowRow, WorkflowStore } from "./WorkflowStore.ts"

const replied: WaitCondition = { type: "replied" }
const unsureReply: WaitCondition = { type: "unsureReply" }

/** Whether a step's choice depends on the class of the person's reply (then an unsure reply stops the workflow). */
const dependsOnClass = (condition: Condition): boolean => condition.type === "replied" && condition.classes !== undefined
const unsureOutcome = "the person replied and triage is unsure of the reply's class: a person should read it"

/** How a run of steps ended: went through them all (false), or the workflow ended inside (true). */
type Ended = boolean

/** What running steps needs: the engine and the execution it runs in. */
type InWorkflow = WorkflowEngine.WorkflowEngine | WorkflowEngine.WorkflowInstance

const JobOutcome = Schema.Struct({ completed: Schema.Boolean, error: Schema.Unknown })

const JobErrorWords = Schema.Struct({ type: Schema.String, message: Schema.String, next: Schema.String })
const isJobError = Schema.is(JobErrorWords)

/** A failed step's outcome: the job, and its error's type, message and next when it has them. */
const failedJob = (jobId: string, command: string, error: unknown): string =>
  isJobError(error)
    ? `job ${jobId} (${command}) failed with ${error.type}: ${error.message} Next: ${error.next}`
    : `job ${jobId} (${command}) did not complete`
/**
 * The failure a workflow records when its account was removed before a step's job could be made:
 * stored with the workflow and shown as it is, in the words of a failed job (type, message, next).
 */
const accountGone = (message: string): typeof JobErrorWords.Type => ({
  type: "notFound",
  message,
  next: "List the workspace's accounts with GET /v1/accounts."
})
const JobCreated = Schema.Struct({ jobId: Schema.NullOr(Schema.String), refused: Schema.Unknown })

/** Registers the workflow with the engine; activities run on the `Clock` where this layer is built. */
export const layerNoDeps = Layer.unwrap(Effect.gen(function*() {
  return registration(yield* Clock.Clock)
}))

/** `layerNoDeps` with its services' layers, on the engine of `Engine.ts`. */
export const layer = layerNoDeps.pipe(Layer.provide([Engine.layer, JobStore.layer, Jobs.layer, WorkflowStore.layer]))

const registration = (serviceClock: Clock.Clock) =>
  OutreachWorkflow.toLayer(Effect.fnUntraced(function*({ workflowId }, executionId) {
  const store = yield* WorkflowStore
  const waits = yield* Waits
  const jobs = yield* Jobs
  const jobStore = yield* JobStore

  const workflow: WorkflowRow | undefined = yield* store.byId(workflowId)
  if (workflow === undefined) return
  const steps = yield* store.stepsOf(workflow)

  /** An activity on the service's clock. */
  const act = <A, I>(name: string, success: Schema.Codec<A, I>, execute: Effect.Effect<A>) =>
    Activity.make({ name, success, execute: Effect.provideService(execute, Clock.Clock, serviceClock) })
  const step = (name: string, execute: Effect.Effect<void>) => act(name, Schema.Void, execute)

  /** Ends the workflow; true so callers can return it as "ended". */
  const end = (path: string, status: "completed" | "stopped" | "failed", outcome: string, error?: unknown) =>
    Effect.as(step(`end/${path}`, Effect.asVoid(store.finish(workflowId, status, outcome, error))), true)

  /** Records a wait and awaits its outcome: the index of the condition that held, or -1 at the deadline. */
  const waitFor = (
    name: string,
    conditions: ReadonlyArray<WaitCondition>,
    seconds: number | null,
    reason: WorkflowWaitReason,
    what: string
  ) =>
    Effect.gen(function*() {
      const deferred = waitDeferred(name)
      yield* step(
        `record/${name}`,
        Effect.gen(function*() {
          const now = yield* Time.now
          const deadlineMs = seconds === null ? null : now.ms + seconds * 1000
          yield* store.waiting(workflowId, reason, what, deadlineMs)
          yield* waits.record({ executionId, deferredName: deferred.name, conditions, deadlineMs })
        })
      )
      const outcome = yield* DurableDeferred.await(deferred)
      return outcome.met
    })

  // While paused, a command step waits here; the wait ends when the workflow is resumed.
  const unpaused = (path: string) =>
    Effect.gen(function*() {
      const paused = yield* act(`paused/${path}`, Schema.Boolean, Effect.map(store.byId(workflowId), (w) => w?.paused === true))
      if (paused) yield* waitFor(`resume/${path}`, [{ type: "resumed" }], null, "resume", "resume (paused)")
    })

  const runCommand = (path: string, command: Extract<Step, { type: "command" }>) =>
    Effect.gen(function*() {
      const created = yield* act(
        `job/${path}`,
        JobCreated,
        Effect.gen(function*() {
          const existing = yield* store.jobAt(workflowId, path)
          if (existing !== undefined) return { jobId: existing, refused: null }
          const input = Schema.decodeUnknownSync(commands[command.command].input)(inputOf(command, workflow.person))
          const job = yield* jobs.create({
            workspaceId: workflow.workspaceId,
            accountId: workflow.accountId,
            command: command.command,
            input
          })
          yield* store.linkJob(workflowId, path, job.id)
          yield* store.log(workflowId, path, `job ${job.id} (${command.command}) created`)
          return { jobId: job.id, refused: null }
        }).pipe(
          // The account was removed meanwhile: no job can be created for it.
          Effect.catchTag("Missing", (refusal) => Effect.succeed({ jobId: null, refused: accountGone(refusal.message) }))
        )
      )
      if (created.jobId === null) {
        return yield* end(path, "failed", `no ${command.command} job could be created`, created.refused)
      }
      const jobId = created.jobId
      const met = yield* waitFor(
        `job/${path}`,
        workflow.stopOnReply ? [{ type: "jobFinished", jobId }, replied] : [{ type: "jobFinished", jobId }],
        null,
        "job",
        `job ${jobId} (${command.command}) to finish`
      )
      if (met === 1) {
        yield* step(
          `cancel/${path}`,
          Effect.ignore(jobs.cancel(workflow.workspaceId, jobId))
        )
        return yield* end(path, "stopped", "the person replied")
      }
      const outcome = yield* act(
        `outcome/${path}`,
        JobOutcome,
        Effect.map(jobStore.byId(jobId), (job) => ({ completed: job?.status === "completed", error: job?.error ?? null }))
      )
      if (!outcome.completed) {
        return yield* end(path, "failed", failedJob(jobId, command.command, outcome.error), outcome.error)
      }
      return false
    })

  const runSteps = (list: ReadonlyArray<Step>, prefix: string): Effect.Effect<Ended, never, InWorkflow> =>
    Effect.gen(function*() {
      for (const [i, current] of list.entries()) {
        const path = `${prefix}${i}`
        if (current.type === "command") yield* unpaused(path)
        yield* step(`start/${path}`, store.stepStarted(workflowId, path, describe(current)))
        const ended = yield* runStep(path, current)
        if (ended) return true
      }
      return false
    })

  const branch = (path: string, taken: boolean, current: { readonly then?: ReadonlyArray<Step> | undefined; readonly else?: ReadonlyArray<Step> | undefined }) =>
    Effect.gen(function*() {
      yield* step(`branch/${path}`, store.log(workflowId, path, taken ? "took then" : "took else"))
      return yield* runSteps((taken ? current.then : current.else) ?? [], `${path}.${taken ? "then" : "else"}.`)
    })

  const conditionsOf = (condition: Condition): ReadonlyArray<WaitCondition> =>
    workflow.stopOnReply && condition.type !== "replied" ? [condition, replied] : [condition]

  const runStep = (path: string, current: Step): Effect.Effect<Ended, never, InWorkflow> => {
    switch (current.type) {
      case "command":
        return runCommand(path, current)
      case "wait":
        return workflow.stopOnReply
          ? Effect.flatMap(
            waitFor(`wait/${path}`, [replied], current.seconds, "delay", `${current.seconds} s to pass, or a reply`),
            (met) => met === 0 ? end(path, "stopped", "the person replied") : Effect.succeed(false)
          )
          : Effect.gen(function*() {
            yield* step(
              `sleep/${path}`,
              Effect.flatMap(Time.now, (now) => store.waiting(workflowId, "delay", `${current.seconds} s to pass`, now.ms + current.seconds * 1000))
            )
            yield* DurableClock.sleep({ name: path, duration: Duration.seconds(current.seconds), inMemoryThreshold: Duration.zero })
            return false
          })
      case "waitFor": {
        // An unsure reply is looked for last, so the indices of the other conditions keep their meaning.
        const conditions = conditionsOf(current.condition)
        return Effect.flatMap(
          waitFor(
            `waitFor/${path}`,
            dependsOnClass(current.condition) ? [...conditions, unsureReply] : conditions,
            current.timeoutSeconds,
            "condition",
            describeCondition(current.condition)
          ),
          (met) =>
            met === conditions.length
              ? end(path, "stopped", unsureOutcome)
              : met === 1
              ? end(path, "stopped", "the person replied")
              : branch(path, met === 0, current)
        )
      }
      case "if":
        return Effect.flatMap(
          act(`if/${path}`, Schema.Boolean, waits.holds(current.condition, executionId)),
          (holds) =>
            holds || !dependsOnClass(current.condition)
              ? branch(path, holds, current)
              : Effect.flatMap(
                act(`unsure/${path}`, Schema.Boolean, waits.holds(unsureReply, executionId)),
                (unsure) => unsure ? end(path, "stopped", unsureOutcome) : branch(path, false, current)
              )
        )
    }
  }

  const ended = yield* runSteps(steps, "").pipe(
    // A defect ends the record as failed (logged with its cause); suspending (an interrupt) does not.
    Effect.tapCause((cause) =>
      Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.logError("workflow failed", cause).pipe(
        Effect.andThen(store.finish(workflowId, "failed", "the service failed to run a step", {
          type: "internal",
          message: "The service failed to run this step.",
          next: "Start the workflow again; the failure is in the service's logs."
        })),
        Effect.provideService(Clock.Clock, serviceClock)
      )
    )
  )
  if (!ended) yield* end("all", "completed", "every step ran")
}))
