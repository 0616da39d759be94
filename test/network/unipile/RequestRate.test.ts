/**
 * Unipile's rate limit respected by servers together (issue #30, `RequestRate.ts`): two instances
 * of the Unipile driver, each with its own client and memory as two servers have, on one database,
 * send one seat's reads to the provider double, which limits each linked account to 5 requests a
 * minute (fixed windows, as Unipile does) and answers 429 past it. With the service's limit at the
 * same 5 a minute, counted in PostgreSQL, the two together never pass it: the requests past the
 * seat's share wait for the next minute, and the provider refuses none. Without it, the same reads
 * meet the provider's 429s.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { NetworkDriver } from "../../../src/network/NetworkDriver.ts"
import * as Store from "../../../src/network/unipile/Store.ts"
import * as UnipileDriver from "../../../src/network/unipile/UnipileDriver.ts"
import { eventually } from "../../support/Eventually.ts"
import * as TestDatabase from "../../support/TestDatabase.ts"
import { posts } from "../../support/unipile/Directory.ts"
import * as ProviderDouble from "../../support/unipile/ProviderDouble.ts"

const apiKey = "request-rate-key"
const perMinute = 5
let clockNow = () => Date.now()
const double = await ProviderDouble.start({ apiKey, now: () => clockNow(), rateLimit: { limit: perMinute, windowMs: 60_000 } })
afterAll(() => double.close())

/** Two servers' drivers on one database, with `requestsPerMinute` (none: only the provider's 429s slow them down). */
const twoServers = (requestsPerMinute: number | undefined) =>
  Effect.gen(function*() {
    // The double stamps with the test's clock, as a real provider shares real time with the service.
    yield* Effect.clockWith((clock) => Effect.sync(() => (clockNow = () => clock.currentTimeMillisUnsafe())))
    const database = yield* Layer.build(TestDatabase.layer)
    const settings = { dsn: double.dsn, apiKey: Redacted.make(apiKey), validation: "error" as const, requestsPerMinute }
    const server = Effect.map(Layer.build(UnipileDriver.layer(settings)).pipe(Effect.provideContext(database)), (built) => Context.get(built, NetworkDriver))
    const a = yield* server
    const b = yield* server
    // A seat signed in through the first (its own profile read: 2 of its requests).
    const accountId = crypto.randomUUID()
    const step = yield* a.signIn({ accountId, username: `busy-${accountId.slice(0, 8)}@x.io`, password: Redacted.make("pw"), country: undefined })
    assert.strictEqual(step._tag, "Connected")
    const providerAccount = (yield* Effect.provideContext(Store.make, database).pipe(Effect.flatMap((store) => store.providerAccountOf(accountId)))) ?? ""
    /** 12 reads of the seat at once, half through each server. */
    const reads = yield* Effect.forkChild(Effect.forEach(
      Array.from({ length: 12 }, (_, i) => i % 2 === 0 ? a : b),
      (network) => network.read(accountId, "get_post", { post: posts[0].id }),
      { concurrency: "unbounded" }
    ))
    return { providerAccount, reads }
  })

/** The seat's reads the provider answered. */
const answered = Effect.sync(() => double.calls.filter((call) => call.route === "posts.get").length)

describe("Unipile's rate limit, respected by two servers together", () => {
  it.effect("the seat's requests past its share of the minute wait for the next; the provider refuses none", () =>
    Effect.gen(function*() {
      const before = yield* answered
      const { providerAccount, reads } = yield* twoServers(perMinute)
      // Minute 1: the sign-in's 2 requests and 3 reads; minute 2: 5 more; minute 3: the last 4.
      yield* eventually("3 reads in the first minute", answered, (n) => n - before === 3, 20_000)
      yield* TestClock.adjust("1 minute")
      yield* eventually("8 reads by the second minute", answered, (n) => n - before === 8, 20_000)
      yield* TestClock.adjust("1 minute")
      const results = yield* Fiber.join(reads)
      assert.strictEqual(results.length, 12)
      assert.strictEqual((yield* answered) - before, 12)
      assert.strictEqual(double.limited.get(providerAccount) ?? 0, 0, "the provider answered 429")
      assert.deepStrictEqual(double.violations, [])
    }), { timeout: 60_000 })

  it.effect("without it, the two servers meet the provider's 429s", () =>
    Effect.gen(function*() {
      const { providerAccount, reads } = yield* twoServers(undefined)
      yield* eventually("a 429 from the provider", Effect.sync(() => double.limited.get(providerAccount) ?? 0), (n) => n > 0)
      yield* Fiber.interrupt(reads)
    }), { timeout: 30_000 })
})
