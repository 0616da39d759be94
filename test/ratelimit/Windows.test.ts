/**
 * The rate windows' one rule (`claim_requests`, migrations 0070 and 0292), as API keys and Unipile
 * seats are counted: at most the limit a minute for a bucket, over all servers, and a minute never
 * goes back. A claim stamped with the minute before (its server read the clock just before the
 * minute began, and its claim arrived after those of the new minute) is counted in the newest
 * minute: it no longer resets the bucket to the old minute, which granted a fresh share each time
 * the two minutes took turns.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as TestDatabase from "../support/TestDatabase.ts"

const limit = 5

/** One request of `bucket` claimed in minute `window`: whether it was granted. */
const claim = (bucket: string, window: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const now = new Date(window * 60_000).toISOString()
    const rows = yield* sql<{ granted: number }>`
      SELECT granted FROM claim_requests('', ${now}::timestamptz, ${bucket}, ${window}, 1, ${limit}::integer, 0)`
    return rows[0].granted > 0
  })

layer(TestDatabase.layer)("a bucket's rate window", (it) => {
  it.effect("grants the limit a minute, and a claim of the minute before counts in the newest", () =>
    Effect.gen(function*() {
      const bucket = `test:${crypto.randomUUID()}`
      const minute = 29_000_000
      // The first minute: its 5.
      const first = yield* Effect.forEach(Array.from({ length: limit + 1 }), () => claim(bucket, minute))
      assert.deepStrictEqual(first, [true, true, true, true, true, false])
      // The next minute: 5 again.
      const next = yield* Effect.forEach(Array.from({ length: limit }), () => claim(bucket, minute + 1))
      assert.deepStrictEqual(next, [true, true, true, true, true])
      // Late claims stamped with the first minute, between more of the next: none is granted.
      const late = yield* Effect.forEach(Array.from({ length: 4 }), (_, i) => claim(bucket, i % 2 === 0 ? minute : minute + 1))
      assert.deepStrictEqual(late, [false, false, false, false])
    }))
})
