/**
 * Approvals expire as their 72 hours end, on every runner: a loop that sleeps on the `Clock` (the
 * sandbox's test clock too) until the next expiry is due, or until an approval is created on any
 * server (a notice the Governor publishes), then expires what is due. Several runners expiring at
 * once is harmless: an expiry is guarded by the approval's status. `App.ts` runs it beside the
 * Governor, on every server of the core (`layer`).
 */
import { Duration, Effect, Layer, Queue, Stream } from "effect"
import * as Time from "../domain/Time.ts"
import { channels, Notices } from "../platform/Notices.ts"
import { ApprovalStore } from "./ApprovalStore.ts"

/** Runs the expiry for the scope's lifetime. */
export const run = Effect.gen(function*() {
  const approvals = yield* ApprovalStore
  const notices = yield* Notices
  const created = yield* Queue.sliding<true>(1)

  const expireDue = Effect.gen(function*() {
    const expired = yield* approvals.expireDue
    if (expired > 0) yield* Effect.logInfo(`expired ${expired} approvals`)
    const next = yield* approvals.nextExpiry
    const now = yield* Time.now
    const dueSleep = next === null ? Effect.never : Effect.sleep(Duration.millis(Math.max(0, next - now.ms)))
    yield* Effect.raceFirst(Queue.take(created), dueSleep)
  })

  yield* notices.listen(channels.approvalCreated).pipe(
    Stream.runForEach(() => Queue.offer(created, true)),
    Effect.forkScoped
  )
  yield* expireDue.pipe(
    Effect.catchCause((cause) => Effect.logError("approval expiry failed", cause)),
    Effect.forever,
    Effect.forkScoped
  )
})

/** The expiry for the layer's lifetime, with the store it expires through; needs `Notices` and the port `JobApprovals`. */
export const layer = Layer.effectDiscard(run).pipe(Layer.provide(ApprovalStore.layer))
