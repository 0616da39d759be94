/**
 * `Workflows` in memory, for fast tests of the workflow routes without a database or the durable
 * engine: a request is checked by the service's own rules (`preparing`: the account, the person as
 * the network identifies them, every command step's input), stored as the stored workflows store
 * it (`running`, not paused, logged `created`), read, listed newest first a page at a time with the
 * service's cursors (`pageStart`, `pageOf`), paused, resumed and cancelled by the same state rules
 * (`workflowNotFound`, `alreadyFinished`), each change logged as `WorkflowStore` logs it.
 *
 * Nothing runs the steps: a workflow stays `running` with no step under way and no jobs until it is
 * cancelled. Running them (jobs through the Governor, waits, conditions, replays after a restart) is
 * the engine's, tested on the database (`test/workflows/*.test.ts`). The workspaces' accounts stand
 * in through {@link WorkflowSeeds}, as `AccountStore.exists` answers for the stored service.
 */
import { Context, Effect, Layer } from "effect"
import { finishedWorkflowStatuses, type Step } from "../domain/Workflow.ts"
import * as Time from "../domain/Time.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"
import {
  alreadyFinished,
  pageOf,
  pageStart,
  type Prepared,
  preparing,
  workflowNotFound,
  Workflows,
  type WorkflowView
} from "./Workflows.ts"
import type { WorkflowRow } from "./WorkflowStore.ts"

/** What the in-memory workflows know of the other owners the stored ones ask. */
export class WorkflowSeeds extends Context.Service<WorkflowSeeds, {
  /** A new account of the workspace; its id. */
  readonly account: (workspaceId: string) => Effect.Effect<string>
}>()("outreach/WorkflowSeeds") {}

interface Stored {
  readonly row: WorkflowRow
  readonly steps: ReadonlyArray<Step>
  readonly log: ReadonlyArray<WorkflowView["log"][number]>
}

/** The in-memory `Workflows` and {@link WorkflowSeeds}; needs the `NetworkDriver` that identifies a workflow's person. */
export const layer = Layer.effectContext(Effect.gen(function*() {
  const network = yield* NetworkDriver
  const accounts = new Map<string, string>()
  /** Oldest first; a workflow's `seq` is its place here, from 1. */
  const workflows: Array<Stored> = []

  const view = ({ log, row, steps }: Stored): WorkflowView => ({ row, steps, jobs: [], log })

  // A uuid, whatever the case of its letters (as the table's uuid column compares).
  const indexOf = (workspaceId: string, id: string) =>
    workflows.findIndex(({ row }) => row.workspaceId === workspaceId && row.id === id.toLowerCase())

  const found = (workspaceId: string, id: string) => {
    const index = indexOf(workspaceId, id)
    return index === -1 ? Effect.fail(workflowNotFound(id)) : Effect.succeed(index)
  }

  const unfinished = (workspaceId: string, id: string) =>
    Effect.flatMap(found(workspaceId, id), (index) => {
      const { row } = workflows[index]
      return finishedWorkflowStatuses.has(row.status) ? Effect.fail(alreadyFinished(row)) : Effect.succeed(index)
    })

  /** The workflow at `index` changed by `change` at the clock's time, with `entry` logged. */
  const changed = (index: number, change: (row: WorkflowRow, at: string) => WorkflowRow, entry: string) =>
    Effect.map(Time.now, (now) => {
      const stored = workflows[index]
      workflows[index] = {
        ...stored,
        row: { ...change(stored.row, now.iso), updatedAt: now.iso },
        log: [...stored.log, { at: now.iso, path: null, entry }]
      }
      return view(workflows[index])
    })

  const prepare = preparing(
    (workspaceId, accountId) => Effect.sync(() => accounts.get(accountId.toLowerCase()) === workspaceId),
    network
  )

  const launch = (prepared: Prepared) =>
    Effect.map(Time.now, (now) => {
      const id = crypto.randomUUID()
      const stored: Stored = {
        row: {
          id,
          seq: workflows.length + 1,
          executionId: id,
          workspaceId: prepared.workspaceId,
          accountId: prepared.accountId.toLowerCase(),
          automationId: prepared.automationId ?? null,
          person: prepared.person,
          providerId: prepared.providerId,
          steps: prepared.steps,
          stopOnReply: prepared.stopOnReply ?? false,
          paused: false,
          status: "running",
          step: null,
          waitingFor: null,
          waitingReason: null,
          waitingUntil: null,
          outcome: null,
          error: null,
          createdAt: now.iso,
          updatedAt: now.iso,
          finishedAt: null
        },
        steps: prepared.steps,
        log: [{ at: now.iso, path: null, entry: "created" }]
      }
      workflows.push(stored)
      return view(stored)
    })

  const setPaused = (paused: boolean) => (workspaceId: string, id: string) =>
    Effect.flatMap(unfinished(workspaceId, id), (index) => changed(index, (row) => ({ ...row, paused }), paused ? "paused" : "resumed"))

  const outcome = "cancelled by a caller"

  return Context.make(
    Workflows,
    Workflows.of({
      prepare,
      launch,
      start: (request) => Effect.flatMap(prepare(request), launch),
      get: (workspaceId, id) => Effect.map(found(workspaceId, id), (index) => view(workflows[index])),
      list: Effect.fn("WorkflowsMemory.list")(function*(workspaceId, filter) {
        const afterSeq = yield* pageStart(filter.cursor)
        const rows = workflows
          .filter(({ row }) =>
            row.workspaceId === workspaceId &&
            (filter.automationId === undefined || row.automationId === filter.automationId) &&
            (afterSeq === undefined || row.seq < afterSeq)
          )
          .reverse()
          .slice(0, filter.limit + 1)
        const { page, nextCursor } = pageOf(rows.map((stored) => ({ ...stored, seq: stored.row.seq })), filter.limit)
        return { workflows: page.map(view), nextCursor }
      }),
      pause: setPaused(true),
      resume: setPaused(false),
      cancel: (workspaceId, id) =>
        Effect.flatMap(unfinished(workspaceId, id), (index) =>
          changed(index, (row, at) => ({ ...row, status: "cancelled", outcome, finishedAt: at }), `cancelled: ${outcome}`))
    })
  ).pipe(
    Context.add(WorkflowSeeds, WorkflowSeeds.of({
      account: (workspaceId) =>
        Effect.sync(() => {
          const id = crypto.randomUUID()
          accounts.set(id, workspaceId)
          return id
        })
    }))
  )
}))
