/**
 * What `Workflows` promises its callers about a workflow's record, run against the stored workflows
 * on the durable engine (`WorkflowsStored.test.ts`, the core on a database) and against the
 * in-memory ones the fast route tests use (`WorkflowsMemory.test.ts`): a request checked before
 * anything is stored (the account, the person, every command step's input), the record started,
 * read, listed newest first a page at a time, paused, resumed and cancelled, never another
 * workspace's. What the steps then do is the engine's (the stored side runs them: a workflow here
 * starts with a day's wait, so its status is `running` or `waiting` and it creates no job).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Invalid, Missing, WrongState } from "../../src/domain/Failures.ts"
import type { Step } from "../../src/domain/Workflow.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { memberFrom } from "../../src/sandbox/SandboxPeople.ts"
import { Workflows } from "../../src/workflows/Workflows.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** The two workspaces, and how an account of one is made on the backend. */
export interface WorkflowsFixture extends TwoWorkspaces {
  /** A new account of the workspace; its id. */
  readonly account: (workspaceId: string) => Effect.Effect<string>
}

/** A day's wait, then a message: the stored engine waits, and creates no job while the test runs. */
const steps: ReadonlyArray<Step> = [
  { type: "wait", seconds: 86_400 },
  { type: "command", command: "send_message", input: { text: "Hello again" } }
]

/** A made-up member of the sandbox network: their profile address. */
export const person = (salt: string, i = 0) => memberFrom(rng(salt, i)).profileUrl

const notFoundNext = "List the workspace's workflows with GET /v1/workflows."

/** The log entries of the workflow itself (its steps' own entries, which only the engine writes, left out). */
const ownLog = (log: ReadonlyArray<{ readonly path: string | null; readonly entry: string }>) =>
  log.filter((line) => line.path === null).map((line) => line.entry)

export const workflowsExpectations = <R>(backend: Backend<R, Workflows, WorkflowsFixture>) =>
  layer(backend.services)(`Workflows (${backend.name})`, (it) => {
    it.effect("a workflow is started on an account of the workspace, for the person the network identifies, and read back", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const workflows = yield* Workflows
          const accountId = yield* account(workspaceId)
          const address = person("workflows-start", 0)
          const started = yield* workflows.start({ workspaceId, accountId, person: address.replace("https://", ""), steps })
          assert.deepInclude(started.row, {
            workspaceId,
            accountId,
            automationId: null,
            person: address,
            paused: false,
            stopOnReply: false,
            outcome: null,
            finishedAt: null
          })
          assert.include(["running", "waiting"], started.row.status)
          assert.deepStrictEqual(started.steps, steps)
          assert.deepStrictEqual(started.jobs, [])
          assert.deepStrictEqual(ownLog(started.log), ["created"])

          const read = yield* workflows.get(workspaceId, started.row.id)
          assert.strictEqual(read.row.id, started.row.id)
          assert.strictEqual(read.row.createdAt, started.row.createdAt)
          assert.deepStrictEqual(read.steps, steps)
          assert.deepStrictEqual((yield* workflows.get(workspaceId, started.row.id.toUpperCase())).row.id, started.row.id)

          // Another workspace never reads it, and no workflow answers Missing with the way to the list.
          const foreign = yield* Effect.flip(workflows.get(otherWorkspaceId, started.row.id))
          assert.instanceOf(foreign, Missing)
          assert.strictEqual(foreign.message, `No workflow ${started.row.id} in this workspace.`)
          assert.strictEqual(nextOf(foreign.advice), notFoundNext)
          assert.instanceOf(yield* Effect.flip(workflows.get(workspaceId, crypto.randomUUID())), Missing)
        })))

    it.effect("a request is checked before anything is stored: the account, the person and every step's input", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const workflows = yield* Workflows
          const accountId = yield* account(workspaceId)
          const foreignAccount = yield* account(otherWorkspaceId)
          const request = { workspaceId, accountId, person: person("workflows-checks", 0), steps }

          for (const unknown of [foreignAccount, crypto.randomUUID()]) {
            const missing = yield* Effect.flip(workflows.start({ ...request, accountId: unknown }))
            assert.instanceOf(missing, Missing)
            assert.include(missing.message, unknown)
          }

          const nobody = yield* Effect.flip(workflows.start({ ...request, person: "not a profile address" }))
          assert.instanceOf(nobody, Invalid)
          assert.match(nobody.message, /^body\.person: /)

          const badInputs = yield* Effect.flip(workflows.start({
            ...request,
            steps: [
              { type: "command", command: "send_message", input: { text: "Fine" } },
              {
                type: "waitFor",
                condition: { type: "replied" },
                timeoutSeconds: 3_600,
                else: [{ type: "command", command: "send_message", input: { colour: "red" } }]
              }
            ]
          }))
          assert.instanceOf(badInputs, Invalid)
          assert.include(badInputs.message, "body.steps[1].else[0].input")
          assert.notInclude(badInputs.message, "body.steps[0]")
          assert.deepStrictEqual(badInputs.advice, { _tag: "FixStepInputs" })

          // `prepare` checks alone: nothing was stored by any of these.
          const prepared = yield* workflows.prepare(request)
          assert.strictEqual(prepared.person, request.person)
          assert.isString(prepared.providerId)
          assert.deepStrictEqual((yield* workflows.list(workspaceId, { limit: 10 })).workflows, [])
        })))

    it.effect("workflows are listed newest first, a page at a time, each once, never another workspace's", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const workflows = yield* Workflows
          const accountId = yield* account(workspaceId)
          const ids: Array<string> = []
          for (let i = 0; i < 5; i++) {
            ids.push((yield* workflows.start({ workspaceId, accountId, person: person("workflows-list", i), steps })).row.id)
          }
          const foreignAccount = yield* account(otherWorkspaceId)
          const foreign = yield* workflows.start({ workspaceId: otherWorkspaceId, accountId: foreignAccount, person: person("workflows-list", 0), steps })

          const all = yield* workflows.list(workspaceId, { limit: 10 })
          assert.deepStrictEqual(all.workflows.map((view) => view.row.id), [...ids].reverse())
          assert.isNull(all.nextCursor)
          assert.deepStrictEqual(all.workflows.map((view) => view.steps), ids.map(() => steps))
          for (const limit of [1, 2, 3]) {
            const walked: Array<string> = []
            let cursor: string | undefined
            do {
              const page = yield* workflows.list(workspaceId, { limit, ...(cursor === undefined ? {} : { cursor }) })
              assert.isAtMost(page.workflows.length, limit)
              walked.push(...page.workflows.map((view) => view.row.id))
              cursor = page.nextCursor ?? undefined
            } while (cursor !== undefined)
            assert.deepStrictEqual(walked, [...ids].reverse(), `limit ${limit}`)
          }
          assert.deepStrictEqual((yield* workflows.list(otherWorkspaceId, { limit: 10 })).workflows.map((view) => view.row.id), [foreign.row.id])
          assert.deepStrictEqual((yield* workflows.list(workspaceId, { automationId: crypto.randomUUID(), limit: 10 })).workflows, [])

          const wrongCursor = yield* Effect.flip(workflows.list(workspaceId, { limit: 2, cursor: "not-a-cursor" }))
          assert.instanceOf(wrongCursor, Invalid)
        })))

    it.effect("a workflow is paused, resumed and cancelled while it runs, each logged; once ended, every change is refused", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const workflows = yield* Workflows
          const accountId = yield* account(workspaceId)
          const { row } = yield* workflows.start({ workspaceId, accountId, person: person("workflows-change", 0), steps })

          const paused = yield* workflows.pause(workspaceId, row.id)
          assert.isTrue(paused.row.paused)
          assert.deepStrictEqual(ownLog(paused.log), ["created", "paused"])
          const resumed = yield* workflows.resume(workspaceId, row.id)
          assert.isFalse(resumed.row.paused)
          assert.deepStrictEqual(ownLog(resumed.log), ["created", "paused", "resumed"])

          for (const change of [workflows.pause, workflows.resume, workflows.cancel]) {
            assert.instanceOf(yield* Effect.flip(change(otherWorkspaceId, row.id)), Missing)
            assert.instanceOf(yield* Effect.flip(change(workspaceId, crypto.randomUUID())), Missing)
          }

          const cancelled = yield* workflows.cancel(workspaceId, row.id)
          assert.deepInclude(cancelled.row, { status: "cancelled", outcome: "cancelled by a caller" })
          assert.isNotNull(cancelled.row.finishedAt)
          assert.deepStrictEqual(ownLog(cancelled.log), ["created", "paused", "resumed", "cancelled: cancelled by a caller"])
          assert.deepStrictEqual((yield* workflows.get(workspaceId, row.id)).row.status, "cancelled")

          for (const change of [workflows.pause, workflows.resume, workflows.cancel]) {
            const ended = yield* Effect.flip(change(workspaceId, row.id))
            assert.instanceOf(ended, WrongState)
            assert.strictEqual(ended.message, `Workflow ${row.id} has already ended (cancelled).`)
            assert.deepStrictEqual(ended.advice, { _tag: "StartNewWorkflow" })
          }
          assert.deepStrictEqual(ownLog((yield* workflows.get(workspaceId, row.id)).log), ownLog(cancelled.log))
        })))
  })
