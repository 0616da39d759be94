import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Governor } from "../../src/jobs/Governor.ts"
import { insertAccounts } from "../support/BulkAccounts.ts"
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

const ACCOUNTS = 10_000
const HEAP_LIMIT_BYTES = 200 * 1024 * 1024

layer(serverLayer(), { timeout: 180_000 })("the Governor's memory", (it) => {
  it.effect("10,000 idle accounts, each with its actor, fit in one process with under 200 MB of heap", () =>
    Effect.gen(function*() {
      const governor = yield* Governor
      const sql = yield* SqlClient.SqlClient
      const { workspace } = yield* newWorkspace()
      const ids = yield* insertAccounts(workspace.id, ACCOUNTS)
      const actorsBefore = yield* governor.actors
      const before = yield* heapUsed
      // Each account is woken once: its actor looks at its (empty) queue and waits for work.
      yield* Effect.forEach(ids, (id) => governor.wake(id), { concurrency: 64, discard: true })
      assert.strictEqual((yield* governor.actors) - actorsBefore, ACCOUNTS)
      // Let every actor finish its first look; a statement behind theirs returns once they have.
      yield* sql`SELECT 1`
      yield* settle
      const after = yield* heapUsed
      const grown = after - before
      console.log(
        `heap for ${ACCOUNTS} idle accounts: ${(grown / 1024 / 1024).toFixed(1)} MB ` +
          `(${(grown / ACCOUNTS / 1024).toFixed(2)} KB each)`
      )
      assert.isBelow(grown, HEAP_LIMIT_BYTES)
      assert.isAbove(grown, 0)
    }), { timeout: 180_000 })
})
