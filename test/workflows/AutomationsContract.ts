/**
 * What `Automations` promises its callers, run against the stored automations on the stored
 * workflows and the durable engine (`AutomationsStored.test.ts`) and against the in-memory ones on
 * the in-memory workflows (`AutomationsMemory.test.ts`): every person checked before anything is
 * kept, one run (a workflow of the automation, stopping on a reply) per person in the order given,
 * read, listed newest first, paused, resumed and stopped by the status rules, never another
 * workspace's. The accounts are in `approve` mode (the stored default), so on the engine a run's
 * first message waits for its approval while the test runs: no run ends by itself.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Invalid, Missing, WrongState } from "../../src/domain/Failures.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { Automations } from "../../src/workflows/Automations.ts"
import { Workflows } from "../../src/workflows/Workflows.ts"
import type { Backend } from "../support/Backends.ts"
import { person, type WorkflowsFixture } from "./WorkflowsContract.ts"

/** A message and a follow-up, as InMails (which reach anyone, so no connection is needed). */
const messages = [{ text: "Hello", inmail: true }, { text: "Following up", afterDays: 3, inmail: true }]

const notFoundNext = "List the workspace's automations with GET /v1/automations."

export const automationsExpectations = <R>(backend: Backend<R, Automations | Workflows, WorkflowsFixture>) =>
  layer(backend.services)(`Automations (${backend.name})`, (it) => {
    it.effect("an automation starts one run per person, in the order given, each a workflow of it that stops on a reply", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const automations = yield* Automations
          const workflows = yield* Workflows
          const accountId = yield* account(workspaceId)
          const people = [person("automations-start", 0), person("automations-start", 1)]
          const started = yield* automations.start({ workspaceId, accountId, name: "Spring follow-up", people, messages })
          assert.deepInclude(started.row, { accountId, name: "Spring follow-up", status: "active" })
          assert.strictEqual(started.status, "active")
          assert.deepStrictEqual(started.messages, messages)
          assert.deepStrictEqual(started.runs.map((run) => run.person), people)
          for (const run of started.runs) assert.deepInclude(run, { automationId: started.row.id, stopOnReply: true, accountId })

          const runs = yield* workflows.list(workspaceId, { automationId: started.row.id, limit: 10 })
          assert.deepStrictEqual(runs.workflows.map((view) => view.row.id), started.runs.map((run) => run.id).reverse())

          const read = yield* automations.get(workspaceId, started.row.id.toUpperCase())
          assert.strictEqual(read.row.id, started.row.id)
          assert.deepStrictEqual(read.runs.map((run) => run.id), started.runs.map((run) => run.id))

          const foreign = yield* Effect.flip(automations.get(otherWorkspaceId, started.row.id))
          assert.instanceOf(foreign, Missing)
          assert.strictEqual(foreign.message, `No automation ${started.row.id} in this workspace.`)
          assert.strictEqual(nextOf(foreign.advice), notFoundNext)
          assert.instanceOf(yield* Effect.flip(automations.get(workspaceId, crypto.randomUUID())), Missing)
          assert.deepStrictEqual(yield* automations.list(otherWorkspaceId), [])
        })))

    it.effect("every person is checked before anything is kept: a bad address names its place, another workspace's account is missing", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const automations = yield* Automations
          const workflows = yield* Workflows
          const accountId = yield* account(workspaceId)
          const foreignAccount = yield* account(otherWorkspaceId)
          const request = { workspaceId, accountId, name: "Checked", people: [person("automations-check", 0)], messages }

          const bad = yield* Effect.flip(automations.start({ ...request, people: [person("automations-check", 0), "nobody at all"] }))
          assert.instanceOf(bad, Invalid)
          assert.match(bad.message, /^body\.people\[1\]: /)
          const missing = yield* Effect.flip(automations.start({ ...request, accountId: foreignAccount }))
          assert.instanceOf(missing, Missing)
          assert.include(missing.message, foreignAccount)

          assert.deepStrictEqual(yield* automations.list(workspaceId), [])
          assert.deepStrictEqual((yield* workflows.list(workspaceId, { limit: 10 })).workflows, [])
        })))

    it.effect("automations are listed newest first", () =>
      backend.withFixture(({ account, workspaceId }) =>
        Effect.gen(function*() {
          const automations = yield* Automations
          const accountId = yield* account(workspaceId)
          const ids: Array<string> = []
          for (let i = 0; i < 3; i++) {
            ids.push((yield* automations.start({ workspaceId, accountId, name: `Run ${i}`, people: [person("automations-list", i)], messages })).row.id)
          }
          const listed = yield* automations.list(workspaceId)
          const order = listed.map((view) => [Date.parse(view.row.createdAt), view.row.id] as const)
          assert.deepStrictEqual(order, [...order].sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? 1 : -1)))
          assert.sameMembers(listed.map((view) => view.row.id), ids)
        })))

    it.effect("pausing holds every running run, resuming frees them, stopping cancels them; the status decides what is allowed", () =>
      backend.withFixture(({ account, otherWorkspaceId, workspaceId }) =>
        Effect.gen(function*() {
          const automations = yield* Automations
          const accountId = yield* account(workspaceId)
          const { row } = yield* automations.start({
            workspaceId,
            accountId,
            name: "Changes",
            people: [person("automations-change", 0), person("automations-change", 1)],
            messages
          })

          const refused = (change: typeof automations.resume, status: string, advice: "ResumeAutomation" | "StartNewAutomation") =>
            Effect.gen(function*() {
              const error = yield* Effect.flip(change(workspaceId, row.id))
              assert.instanceOf(error, WrongState)
              assert.strictEqual(error.message, `Automation ${row.id} is ${status}.`)
              assert.deepStrictEqual(error.advice, { _tag: advice })
            })

          yield* refused(automations.resume, "active", "StartNewAutomation")
          const paused = yield* automations.pause(workspaceId, row.id)
          assert.strictEqual(paused.status, "paused")
          assert.deepStrictEqual(paused.runs.map((run) => run.paused), [true, true])
          yield* refused(automations.pause, "paused", "ResumeAutomation")

          const resumed = yield* automations.resume(workspaceId, row.id)
          assert.strictEqual(resumed.status, "active")
          assert.deepStrictEqual(resumed.runs.map((run) => run.paused), [false, false])

          for (const change of [automations.pause, automations.resume, automations.stop]) {
            assert.instanceOf(yield* Effect.flip(change(otherWorkspaceId, row.id)), Missing)
          }

          const stopped = yield* automations.stop(workspaceId, row.id)
          assert.strictEqual(stopped.status, "stopped")
          assert.deepStrictEqual(stopped.runs.map((run) => run.status), ["cancelled", "cancelled"])
          for (const change of [automations.pause, automations.resume, automations.stop]) {
            yield* refused(change, "stopped", "StartNewAutomation")
          }
        })))
  })
