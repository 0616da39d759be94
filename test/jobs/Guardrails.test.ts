import { assert, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { JobError } from "../../src/api/JobsApi.ts"
import { commands, type CommandName, writeCommands } from "../../src/domain/Commands.ts"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { memberFrom, relationTo } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import { connectedAccount, jobAfter, strangers, workspaceWithAccount } from "./support.ts"

/**
 * The spec's mode table, written out here on its own (not derived from the
 * code under test): which writes wait for a person in each mode.
 */
const expectedApproval: Record<"approve" | "assist" | "autopilot", (command: string) => boolean> = {
  approve: (command) => command !== "withdraw_invite" && command !== "decline_invite",
  assist: () => true,
  autopilot: () => false
}

/** The first example of a command's input, as the OpenAPI document shows it. */
const exampleInput = (command: CommandName): unknown => {
  const example = Schema.resolveAnnotations(commands[command].input)?.examples?.[0]
  assert.isDefined(example, `${command} has an input example`)
  return example
}

/** People the account is already connected to, as profile addresses. */
const connectionsOf = (accountId: string, count: number): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (let i = 0; found.length < count && i < 50_000; i++) {
    const ref = memberFrom(rng("guardrails-test", accountId, i))
    if (relationTo(accountId, ref.providerId).connectionDegree === 1) found.push(ref.profileUrl)
  }
  return found
}

/** A failed job's error, checked against the API's job error schema. */
const errorOf = (job: { readonly error: unknown }) => Schema.decodeUnknownSync(JobError)(job.error)

/** Lets the next write of an account pass its pacing gate. */
const afterPacing = TestClock.adjust(PACING_MAX_MS)

layer(serverLayer())("the Governor's approvals and guardrails", (it) => {
  it.effect("each mode x each write kind: the write waits for a person exactly where the spec says", () =>
    Effect.gen(function*() {
      assert.strictEqual(writeCommands.length, 10)
      const jobs = yield* Jobs
      for (const mode of ["approve", "assist", "autopilot"] as const) {
        const { workspaceId, accountId } = yield* workspaceWithAccount({ mode })
        for (const command of writeCommands) {
          const job = yield* jobs.create({ workspaceId, accountId, command, input: exampleInput(command) })
          const waits = expectedApproval[mode](command)
          assert.strictEqual(job.status === "awaiting_approval", waits, `${mode} ${command}: ${job.status}`)
          assert.strictEqual(job.approvalId !== null, waits, `${mode} ${command}: approvalId`)
          if (waits) assert.strictEqual(job.waitingFor?.reason, "approval")
        }
        // Reads never wait for a person, whatever the mode.
        const read = yield* jobs.create({ workspaceId, accountId, command: "get_profile", input: exampleInput("get_profile") })
        assert.notStrictEqual(read.status, "awaiting_approval", `${mode} get_profile`)
        assert.isNull(read.approvalId)
      }
    }))

  it.effect("a target below minInviteQuality fails the connect with lowInviteQuality and its score", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount({ minInviteQuality: 100 })
      const [person] = strangers(accountId, 1, "guardrails-quality")
      const job = yield* (yield* Jobs).create({ workspaceId, accountId, command: "connect", input: { person } })
      const done = yield* jobAfter(workspaceId, job.id)
      assert.strictEqual(done.status, "failed", JSON.stringify(done))
      assert.strictEqual(errorOf(done).type, "lowInviteQuality")
      assert.isNumber(errorOf(done).score)
      assert.isBelow(errorOf(done).score ?? 100, 100)
      assert.isNull(done.result)
    }))

  it.effect("inviting a connection fails with guardrail; re-inviting within 3 weeks of a withdrawal with cannotResendYet", () =>
    Effect.gen(function*() {
      const { workspaceId, accountId } = yield* workspaceWithAccount()
      const jobs = yield* Jobs
      const [friend] = connectionsOf(accountId, 1)
      const toFriend = yield* jobAfter(
        workspaceId,
        (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person: friend } })).id
      )
      assert.strictEqual(toFriend.status, "failed")
      assert.strictEqual(errorOf(toFriend).type, "guardrail")
      assert.include(errorOf(toFriend).message, "already a connection")

      const [person] = strangers(accountId, 1, "guardrails-resend")
      yield* afterPacing
      const sent = yield* jobAfter(
        workspaceId,
        (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })).id
      )
      assert.strictEqual(sent.status, "completed", JSON.stringify(sent.error))
      const invitationId = (sent.result as { invitationId: string }).invitationId
      yield* afterPacing
      const withdrawn = yield* jobAfter(
        workspaceId,
        (yield* jobs.create({ workspaceId, accountId, command: "withdraw_invite", input: { invitationId } })).id
      )
      assert.strictEqual(withdrawn.status, "completed", JSON.stringify(withdrawn.error))
      yield* afterPacing
      const again = yield* jobAfter(
        workspaceId,
        (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })).id
      )
      assert.strictEqual(again.status, "failed")
      assert.strictEqual(errorOf(again).type, "cannotResendYet")
      const until = Date.parse(errorOf(again).until ?? "")
      assert.isTrue(until > Date.parse(again.finishedAt ?? ""), `until ${errorOf(again).until}`)
    }))

  it.effect("two seats of one workspace never invite the same person at once: the second fails naming the first", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const second = yield* connectedAccount(token, {}, "Grace")
      const jobs = yield* Jobs
      const [person] = strangers(accountId, 1, "guardrails-seats")
      const first = yield* jobAfter(
        workspaceId,
        (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person } })).id
      )
      assert.strictEqual(first.status, "completed", JSON.stringify(first.error))
      const other = yield* jobAfter(
        workspaceId,
        (yield* jobs.create({ workspaceId, accountId: second, command: "connect", input: { person } })).id
      )
      assert.strictEqual(other.status, "failed")
      assert.strictEqual(errorOf(other).type, "guardrail")
      assert.include(errorOf(other).message, "Ada")
    }))

  it.effect("a free account's sixth invitation note in a month fails with noteQuotaExhausted, not silently dropped", () =>
    Effect.gen(function*() {
      const { keyValue: token, workspace } = yield* newWorkspace()
      const workspaceId = workspace.id
      const accountId = yield* connectedAccount(token, {}, "Free", "free")
      const jobs = yield* Jobs
      const people = strangers(accountId, 6, "guardrails-notes")
      const results: Array<string> = []
      for (const person of people) {
        const done = yield* jobAfter(
          workspaceId,
          (yield* jobs.create({ workspaceId, accountId, command: "connect", input: { person, note: "Hello there" } })).id
        )
        results.push(done.status === "failed" ? errorOf(done).type : done.status)
        yield* afterPacing
      }
      assert.deepStrictEqual(results, ["completed", "completed", "completed", "completed", "completed", "noteQuotaExhausted"])
    }))
})
