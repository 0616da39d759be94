/**
 * PostgreSQL stops under the service and comes back: requests that need it
 * answer 503 `unavailable` with `retry-after` (never 500), `/healthz` says 503,
 * and the service reconnects by itself. Runs against a PostgreSQL server of
 * its own (Debian's binaries, as CI installs them), on the PostgreSQL pass.
 */
import { assert, it } from "@effect/vitest"
import { Effect } from "effect"
import { ownPostgres, postgresBin } from "../support/OwnPostgres.ts"
import { keyIn, startServer } from "../support/Processes.ts"
import { serverDatabaseUrl } from "../support/TestDatabase.ts"

const request = (url: string, token: string | undefined) =>
  Effect.promise(async () => {
    const response = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
    const body: any = await response.json()
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body }
  })

it.live.skipIf(serverDatabaseUrl === undefined || postgresBin === undefined)(
  "PostgreSQL stops under the service: 503 unavailable with retry-after, /healthz 503, then it reconnects by itself",
  () =>
    Effect.gen(function*() {
      const postgres = yield* ownPostgres(postgresBin ?? "")
      const server = yield* startServer({ DATABASE_URL: postgres.url, DATA_DIR: postgres.dir })
      const key = keyIn(server.output())
      assert.strictEqual((yield* request(`${server.base}/v1/accounts`, key)).status, 200)

      // A request on its way while the database stops, and requests after it.
      const during = Effect.runPromise(request(`${server.base}/v1/accounts`, key))
      yield* postgres.control("stop")
      const inFlight = yield* Effect.promise(() => during)
      assert.oneOf(inFlight.status, [200, 503], JSON.stringify(inFlight.body))
      for (const path of ["/v1/accounts", "/v1/jobs"]) {
        const down = yield* request(`${server.base}${path}`, key)
        assert.strictEqual(down.status, 503, JSON.stringify(down.body))
        assert.strictEqual(down.body.error.type, "unavailable")
        assert.strictEqual(down.retryAfter, "5")
      }
      assert.strictEqual((yield* request(`${server.base}/healthz`, undefined)).status, 503)

      yield* postgres.control("start")
      let health = 0
      for (let i = 0; i < 60 && health !== 200; i++) {
        health = (yield* request(`${server.base}/healthz`, undefined)).status
        if (health !== 200) yield* Effect.sleep("500 millis")
      }
      assert.strictEqual(health, 200, "the service did not reconnect within 30 s")
      assert.strictEqual((yield* request(`${server.base}/v1/accounts`, key)).status, 200)
    }),
  120_000
)
