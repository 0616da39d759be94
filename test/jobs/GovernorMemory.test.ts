import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { Governor } from "../../src/jobs/Governor.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import { insertAccounts } from "../support/BulkAccounts.ts"
import { eventually } from "../support/Eventually.ts"
import { layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import { settle } from "./support.ts"

setFlagsFromString("--expose-gc")
const gc: () => void = runInNewContext("gc")

/** The heap in use after full collections, in bytes. */
const heapUsed = Effect.sync(() => {
  gc()
  gc()
  return process.memoryUsage().heapUsed
})

const ACCOUNTS = Number(process.env["MEM_ACCOUNTS"] ?? 10_000)
/**
 * An account in memory costs its entity (mailbox, message server) and its actor: about 26 KB. The bound is 32 KB
 * an account: a keepAlive on every idle account (38-42 KB) went through the 40 KB bound of before on PGlite.
 */
const RESIDENT_LIMIT_BYTES = 32 * 1024 * ACCOUNTS
/** Accounts woken to watch them leave memory; the aim for an idle account is 4 KB or less. */
const PASSIVATED = 1_000

/** Wakes every account once and waits until each actor has looked at its (empty) queue and waits for work. */
const wakeAll = (ids: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const governor = yield* Governor
    const waitingBefore = yield* governor.waiting
    yield* Effect.forEach(ids, (id) => governor.wake(id), { concurrency: 64, discard: true })
    yield* eventually("every actor to wait for work", Effect.all({ waiting: governor.waiting, actors: governor.actors }), ({ waiting }) => waiting - waitingBefore === ids.length, 240_000, 200)
    yield* settle
  })

const report = (what: string, bytes: number, accounts: number) =>
  console.log(`heap for ${accounts} accounts ${what}: ${(bytes / 1024 / 1024).toFixed(1)} MB (${(bytes / accounts / 1024).toFixed(2)} KB each)`)

layer(serverLayer({ accountIdleTime: Duration.minutes(10) }), { timeout: 300_000 })("the Governor's memory", (it) => {
  it.effect("10,000 accounts in memory, waiting for work, fit in one process", () =>
    Effect.gen(function*() {
      const governor = yield* Governor
      const { workspace } = yield* newWorkspace()
      const ids = yield* insertAccounts(workspace.id, ACCOUNTS)
      const actorsBefore = yield* governor.actors
      const before = yield* heapUsed
      yield* wakeAll(ids)
      assert.strictEqual((yield* governor.actors) - actorsBefore, ACCOUNTS)
      const resident = (yield* heapUsed) - before
      report("in memory, waiting for work", resident, ACCOUNTS)
      assert.isBelow(resident, RESIDENT_LIMIT_BYTES)
      assert.isAbove(resident, 0)
    }), { timeout: 300_000 })
})

// Idle for 10 s (real time, as the cluster keeps it): waking 1,000 accounts takes under a second.
layer(serverLayer({ accountIdleTime: Duration.seconds(10) }), { timeout: 300_000 })("idle accounts", (it) => {
  it.effect("an account without work leaves memory once idle, and comes back with its next message", () =>
    Effect.gen(function*() {
      const governor = yield* Governor
      const { workspace } = yield* newWorkspace()
      const ids = yield* insertAccounts(workspace.id, PASSIVATED)
      const actorsBefore = yield* governor.actors
      const before = yield* heapUsed
      yield* wakeAll(ids)
      const resident = (yield* heapUsed) - before
      yield* eventually("the idle accounts to leave memory", governor.actors, (n) => n === actorsBefore, 60_000, 200)
      yield* settle
      const left = (yield* heapUsed) - before
      report("in memory", resident, PASSIVATED)
      report("once idle and gone from memory", left, PASSIVATED)
      assert.isBelow(left, 4 * 1024 * PASSIVATED)
      assert.isBelow(left, resident)
      yield* wakeAll(ids.slice(0, 10))
      assert.strictEqual((yield* governor.actors) - actorsBefore, 10)
      // An account whose last job was a read (one of the ten) leaves memory too once it ran.
      const read = yield* Jobs.use((jobs) => jobs.create({ workspaceId: workspace.id, accountId: ids[0], command: "ssi", input: {} }))
      yield* eventually("the read to run", Jobs.use((jobs) => Effect.orDie(jobs.get(workspace.id, read.id))), (job) => job.status === "completed", 30_000, 100)
      yield* eventually("the woken accounts, the read's too, to leave memory", governor.actors, (n) => n === actorsBefore, 60_000, 200)
    }), { timeout: 300_000 })
})
