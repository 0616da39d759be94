/**
 * What operators read of a runner's accounts in memory: a log line
 * `accounts in memory` (with `accounts`, `waiting`: those with nothing to do,
 * `writesWaiting`: writes waiting for a write slot, and the process's memory:
 * `heapMb` used and `heapTotalMb` held by V8's heap, `externalMb` outside it
 * that V8 knows of, of which `arrayBuffersMb` in Buffers and ArrayBuffers, and
 * `rssMb` resident in all) at start, each time their number changed and each
 * time the resident memory moved by {@link rssStepMb} or more since the last
 * line, looked at every few seconds of real time: a runner whose accounts do
 * not change still says where its memory went. A process started with
 * `node --expose-gc` collects its garbage first, at most every 30 seconds, so
 * `heapMb` is what is live then (the scale bench does this; without it the
 * heap counts garbage not yet collected). Accounts whose writes wait for a
 * later instant leave memory (issue #36), so on a large fleet this number is
 * the accounts with work now.
 */
import { Duration, Effect } from "effect"
import * as Time from "../domain/Time.ts"

const every = Duration.seconds(5)
/** A move of the resident memory, up or down, that is reported though the accounts did not change. */
export const rssStepMb = 32

const mb = (bytes: number) => Math.round(bytes / 1_048_576)

/** Reports for the scope's lifetime. */
export const run = (counts: {
  readonly accounts: Effect.Effect<number>
  readonly waiting: Effect.Effect<number>
  readonly writesWaiting: Effect.Effect<number>
}) =>
  Effect.gen(function*() {
    // The first look reports too: the runner's memory before any account.
    let reported = -1
    let reportedRss = 0
    let collectedAt = 0
    const look = Effect.gen(function*() {
      const accounts = yield* counts.accounts
      if (accounts === reported && Math.abs(process.memoryUsage.rss() - reportedRss) < rssStepMb * 1_048_576) return
      reported = accounts
      const now = yield* Time.liveNow
      if (typeof globalThis.gc === "function" && now - collectedAt >= 30_000) {
        collectedAt = now
        globalThis.gc()
      }
      const memory = process.memoryUsage()
      reportedRss = memory.rss
      yield* Effect.logInfo("accounts in memory").pipe(Effect.annotateLogs({
        accounts,
        waiting: yield* counts.waiting,
        writesWaiting: yield* counts.writesWaiting,
        heapMb: mb(memory.heapUsed),
        heapTotalMb: mb(memory.heapTotal),
        externalMb: mb(memory.external),
        arrayBuffersMb: mb(memory.arrayBuffers),
        rssMb: mb(memory.rss)
      }))
    })
    yield* look.pipe(Effect.andThen(Time.liveSleep(every)), Effect.forever, Effect.forkScoped)
  })
