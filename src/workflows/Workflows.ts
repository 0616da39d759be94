/**
 * Workflows as the API sees them: starting one (stored, then handed to the
 * durable engine, before the caller hears back), reading its progress,
 * listing, pausing, resuming and cancelling.
 */
import { Context, Effect, Layer, Result, Schema } from "effect"
import { WorkflowEngine } from "effect/workflow"
import { accountNotFound } from "../accounts/Accounts.ts"
import { AccountStore } from "../accounts/AccountStore.ts"
import { describeProblems, namedProblems } from "../domain/Problems.ts"
import { foreignCursor, seqCursor } from "../domain/Cursor.ts"
import { Invalid, Missing, relayed, WrongState } from "../domain/Failures.ts"
import { commands } from "../domain/Commands.ts"
import type { JobStatus } from "../domain/Job.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { JobStore } from "../jobs/JobStore.ts"
import { driverOf, NetworkDriver } from "../network/NetworkDriver.ts"
import { commandSteps, finishedWorkflowStatuses, inputOf, type Step } from "../domain/Workflow.ts"
import * as Engine from "./Engine.ts"
import { OutreachWorkflow } from "./OutreachWorkflow.ts"
import { Waits } from "./Waits.ts"
import { type WorkflowRow, WorkflowStore } from "./WorkflowStore.ts"

/** A workflow to start. */
export interface WorkflowRequest {
  readonly workspaceId: string
  readonly accountId: string
  /** The profile address of the person the workflow is about. */
  readonly person: string
  readonly steps: ReadonlyArray<Step>
  /** Part of an automation: end as `stopped` the moment the person replies. */
  readonly automationId?: string | undefined
  readonly stopOnReply?: boolean | undefined
}

/** A workflow with its jobs and log, as the API shows it. */
export interface WorkflowView {
  readonly row: WorkflowRow
  readonly steps: ReadonlyArray<Step>
  readonly jobs: ReadonlyArray<{ readonly path: string; readonly jobId: string; readonly kind: string; readonly status: JobStatus }>
  readonly log: ReadonlyArray<{ readonly at: string; readonly path: string | null; readonly entry: string }>
}

export const workflowNotFound = (id: string) =>
  new Missing({ message: `No workflow ${id} in this workspace.`, advice: { _tag: "ListWorkflows" } })

export const alreadyFinished = (row: WorkflowRow) =>
  new WrongState({ message: `Workflow ${row.id} has already ended (${row.status}).`, advice: { _tag: "StartNewWorkflow" } })

/** Pages of `GET /v1/workflows`, newest first. */
const cursor = seqCursor("workflow")

/** `0`, `2.then.1` as the request names it: `body.steps[0]`, `body.steps[2].then[1]`. */
const requestPath = (path: string) => `body.steps[${path.replaceAll(/\.(then|else)\./g, "].$1[")}]`

/** A request checked and its person identified, ready to launch. */
export interface Prepared extends WorkflowRequest {
  readonly providerId: string
}

/**
 * How a request is checked (account, person, every step's input) before anything is stored: the
 * account known to `exists`, the person identified by the workspace's network.
 */
export const preparing = (
  exists: (workspaceId: string, accountId: string) => Effect.Effect<boolean>,
  network: NetworkDriver["Service"]
) =>
  Effect.fn("Workflows.prepare")(function*(request: WorkflowRequest) {
    if (!(yield* exists(request.workspaceId, request.accountId))) {
      return yield* Effect.fail(accountNotFound(request.accountId))
    }
    const person = yield* (yield* driverOf(network, request.workspaceId)).identify(request.person).pipe(
      Effect.mapError((error) =>
        new Invalid(relayed({ message: `body.person: ${error.message}`, next: error.next }))
      )
    )
    const problems = commandSteps(request.steps).flatMap(({ path, step }) => {
      const decoded = Schema.decodeUnknownResult(commands[step.command].input, { errors: "all", onExcessProperty: "error" })(
        inputOf(step, person.profileUrl)
      )
      return Result.isSuccess(decoded) ? [] : namedProblems(`${requestPath(path)}.input`, decoded.failure.issue)
    })
    if (problems.length > 0) {
      // The document describes a step's input only as its command's (in words): 422, not 400.
      return yield* Effect.fail(
        new Invalid({ message: describeProblems(problems), advice: { _tag: "FixStepInputs" } })
      )
    }
    return { ...request, person: person.profileUrl, providerId: person.providerId } satisfies Prepared
  })

/** Where a page of `GET /v1/workflows` starts: after the workflow of this `seq`, or at the newest; a foreign cursor is 422. */
export const pageStart = (pageCursor: string | undefined): Effect.Effect<number | undefined, Invalid> => {
  const afterSeq = pageCursor === undefined ? undefined : cursor.decode(pageCursor)
  return pageCursor !== undefined && afterSeq === undefined ? Effect.fail(foreignCursor("the newest workflow")) : Effect.succeed(afterSeq)
}

/** The page of `limit` among `rows` (read with one more than `limit`, newest first), and the cursor of the next. */
export const pageOf = <R extends { readonly seq: number }>(rows: ReadonlyArray<R>, limit: number) => {
  const page = rows.slice(0, limit)
  return { page, nextCursor: rows.length > limit ? cursor.encode(page[page.length - 1].seq) : null }
}

export class Workflows extends Context.Service<Workflows, {
  /** Checks a request (account, person, every step's input) without storing anything. */
  readonly prepare: (request: WorkflowRequest) => Effect.Effect<Prepared, Missing | Invalid>
  /** Stores a prepared workflow and hands it to the engine. */
  readonly launch: (prepared: Prepared) => Effect.Effect<WorkflowView>
  readonly start: (request: WorkflowRequest) => Effect.Effect<WorkflowView, Missing | Invalid>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<WorkflowView, Missing>
  readonly list: (
    workspaceId: string,
    filter: { readonly automationId?: string | undefined; readonly cursor?: string | undefined; readonly limit: number }
  ) => Effect.Effect<{ readonly workflows: ReadonlyArray<WorkflowView>; readonly nextCursor: string | null }, Invalid>
  readonly pause: (workspaceId: string, id: string) => Effect.Effect<WorkflowView, Missing | WrongState>
  readonly resume: (workspaceId: string, id: string) => Effect.Effect<WorkflowView, Missing | WrongState>
  /** Cancels the workflow: its unstarted jobs are cancelled and it runs no further step. */
  readonly cancel: (workspaceId: string, id: string) => Effect.Effect<WorkflowView, Missing | WrongState>
}>()("outreach/Workflows") {
  static readonly layerNoDeps = Layer.effect(
    Workflows,
    Effect.gen(function*() {
      const accounts = yield* AccountStore
      const store = yield* WorkflowStore
      const waits = yield* Waits
      const jobs = yield* Jobs
      const jobStore = yield* JobStore
      const network = yield* NetworkDriver
      const engine = yield* WorkflowEngine.WorkflowEngine

      /** Workflows with their jobs and logs: three queries for the whole list (links, their jobs, logs). */
      const views = (rows: ReadonlyArray<WorkflowRow>) =>
        Effect.gen(function*() {
          const ids = rows.map((row) => row.id)
          const links = yield* store.jobsOf(ids)
          const states = yield* jobStore.statesOf(links.map((link) => link.jobId))
          const jobs = links.flatMap((link) => {
            const state = states.get(link.jobId)
            return state === undefined ? [] : [{ ...link, kind: state.kind, status: state.status }]
          })
          const log = yield* store.logOf(ids)
          return yield* Effect.forEach(rows, (row) =>
            Effect.map(store.stepsOf(row), (steps): WorkflowView => ({
              row,
              steps,
              jobs: jobs.filter((job) => job.workflowId === row.id),
              log: log.filter((entry) => entry.workflowId === row.id)
            })))
        })
      const view = (row: WorkflowRow) => Effect.map(views([row]), (found) => found[0])

      const found = (workspaceId: string, id: string) =>
        Effect.flatMap(
          store.get(workspaceId, id),
          (row) => row === undefined ? Effect.fail(workflowNotFound(id)) : Effect.succeed(row)
        )

      const unfinished = (workspaceId: string, id: string) =>
        Effect.flatMap(
          found(workspaceId, id),
          (row) => finishedWorkflowStatuses.has(row.status) ? Effect.fail(alreadyFinished(row)) : Effect.succeed(row)
        )

      const prepare = preparing(accounts.exists, network)

      const launch = Effect.fn("Workflows.launch")(function*(prepared: Prepared) {
        const id = crypto.randomUUID()
        const executionId = yield* OutreachWorkflow.executionId({ workflowId: id })
        const row = yield* store.insert({
          id,
          executionId,
          workspaceId: prepared.workspaceId,
          accountId: prepared.accountId,
          automationId: prepared.automationId ?? null,
          person: prepared.person,
          providerId: prepared.providerId,
          steps: prepared.steps,
          stopOnReply: prepared.stopOnReply ?? false
        })
        // Stored first, then started: the engine's run reads the record.
        yield* OutreachWorkflow.execute({ workflowId: id }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        yield* Effect.logInfo("workflow started").pipe(
          Effect.annotateLogs({ workflowId: id, accountId: prepared.accountId, steps: prepared.steps.length })
        )
        return yield* view(row)
      })

      const cancel = Effect.fn("Workflows.cancel")(function*(workspaceId: string, id: string) {
        const row = yield* unfinished(workspaceId, id)
        yield* store.finish(row.id, "cancelled", "cancelled by a caller")
        for (const job of yield* store.jobsOf([row.id])) {
          yield* Effect.ignore(jobs.cancel(workspaceId, job.jobId))
        }
        yield* waits.dropAll(row.executionId)
        yield* OutreachWorkflow.interrupt(row.executionId).pipe(Effect.provideService(WorkflowEngine.WorkflowEngine, engine))
        return yield* view(yield* found(workspaceId, id))
      })

      const setPaused = (paused: boolean) =>
        Effect.fn(paused ? "Workflows.pause" : "Workflows.resume")(function*(workspaceId: string, id: string) {
          const row = yield* unfinished(workspaceId, id)
          yield* store.setPaused([row.id], paused)
          return yield* view(yield* found(workspaceId, id))
        })

      return Workflows.of({
        prepare,
        launch,
        start: (request) => Effect.flatMap(prepare(request), launch),
        get: (workspaceId, id) => Effect.flatMap(found(workspaceId, id), view),
        list: Effect.fn("Workflows.list")(function*(workspaceId, filter) {
          const afterSeq = yield* pageStart(filter.cursor)
          const rows = yield* store.list(workspaceId, {
            automationId: filter.automationId,
            afterSeq,
            limit: filter.limit + 1
          })
          const { page, nextCursor } = pageOf(rows, filter.limit)
          return { workflows: yield* views(page), nextCursor }
        }),
        pause: setPaused(true),
        resume: setPaused(false),
        cancel
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Workflows.layerNoDeps.pipe(Layer.provide([AccountStore.layer, JobStore.layer, Jobs.layer, WorkflowStore.layer, Engine.layer]))
}
