import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { assert, layer } from "@effect/vitest"
import { Effect, Tracer } from "effect"
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

/**
 * Counts the actors' looks at the head of their write queue that have ended: an actor whose look
 * found nothing goes straight on to wait on its mailbox. The actors fork from the fiber that wakes
 * them, so they trace their SQL with the tracer of that fiber.
 */
const looks = { ended: 0 }
const lookCounter = Tracer.make({
  span: (options) => {
    const span = new Tracer.NativeSpan(options)
    let isLook = false
    const attribute = span.attribute.bind(span)
    span.attribute = (key, value) => {
      if (key === "db.query.text" && typeof value === "string" && value.includes("j.is_write")) isLook = true
      attribute(key, value)
    }
    const end = span.end.bind(span)
    span.end = (endTime, exit) => {
      if (isLook) looks.ended++
      end(endTime, exit)
    }
    return span
  }
})

const ACCOUNTS = 10_000
const HEAP_LIMIT_BYTES = 200 * 1024 * 1024

layer(serverLayer(), { timeout: 180_000 })("the Governor's memory", (it) => {
  it.effect("10,000 idle accounts, each with its actor, fit in one process with under 200 MB of heap", () =>
    Effect.gen(function*() {
      const governor = yield* Governor
      const { workspace } = yield* newWorkspace()
      const ids = yield* insertAccounts(workspace.id, ACCOUNTS)
      const actorsBefore = yield* governor.actors
      const before = yield* heapUsed
      // Each account is woken once: its actor looks at its (empty) queue and waits for work.
      yield* Effect.forEach(ids, (id) => governor.wake(id), { concurrency: 64, discard: true }).pipe(
        Effect.withTracer(lookCounter)
      )
      assert.strictEqual((yield* governor.actors) - actorsBefore, ACCOUNTS)
      // Measured once every actor has looked and found nothing: idle, not in the middle of a query.
      while (looks.ended < ACCOUNTS) yield* settle
      yield* settle
      assert.strictEqual(looks.ended, ACCOUNTS)
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
