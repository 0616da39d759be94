/**
 * Unipile's rate limit respected by every server of a deployment together: at most
 * `requestsPerMinute` requests a calendar minute for each seat (Unipile limits each linked account's
 * calls in fixed windows; `docs/networks.md`). Counted in PostgreSQL by the very rule that counts
 * API keys' requests (`ratelimit/RateLimit.ts`): the `claim_requests` function (migrations/0070)
 * on `rate_limit_windows`, with the bucket `unipile:<Unipile account id>` as its caller's address.
 * A request past the seat's share of the minute waits for the next minute (the service's `Clock`).
 */
import { Clock, Duration, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Time from "../../domain/Time.ts"
import * as RateLimit from "../../ratelimit/RateLimit.ts"

const Granted = Schema.Array(Schema.Struct({ granted: Schema.Number }))
const decodeGranted = Schema.decodeUnknownEffect(Granted)

/** The bucket of a seat's requests in `rate_limit_windows`. */
export const bucketOf = (providerAccount: string) => `unipile:${providerAccount}`

/** Waits, when needed, until the seat may send one more request; `undefined`: no limit of our own. */
export const make = (requestsPerMinute: number | undefined) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** One request of the seat counted in the current minute: true when it fits. */
    const claim = (providerAccount: string, nowMs: number) =>
      sql`SELECT granted FROM claim_requests('', ${Time.toIso(nowMs)}::timestamptz, ${bucketOf(providerAccount)},
            ${RateLimit.windowOf(nowMs)}, 1, ${requestsPerMinute ?? 0}::integer, 0)`.pipe(
        Effect.flatMap(decodeGranted),
        Effect.map((rows) => (rows[0]?.granted ?? 0) > 0),
        Effect.orDie
      )
    const before = (providerAccount: string): Effect.Effect<void> =>
      requestsPerMinute === undefined ? Effect.void : Effect.gen(function*() {
        for (;;) {
          const nowMs = yield* Clock.currentTimeMillis
          if (yield* claim(providerAccount, nowMs)) return
          // Until the next minute begins, read afresh: the claim took time, and the clock may have moved past it.
          const nextMinute = (RateLimit.windowOf(nowMs) + 1) * 60_000
          yield* Effect.sleep(Duration.millis(Math.max(0, nextMinute - (yield* Clock.currentTimeMillis))))
        }
      }).pipe(Effect.withSpan("Unipile.requestRate", { attributes: { providerAccount } }))
    return { before }
  })
