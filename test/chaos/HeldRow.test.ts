/**
 * Chaos (issue #29): a stuck peer cannot stall the rest. Three servers on one
 * database under load (20 autopilot accounts, 400 writes created by a client
 * that keeps reading between creations); three times, one job row (the head
 * write of an account, about to be claimed) is locked for 12 s from a
 * separate connection, as a peer frozen in a transaction or an operator's
 * open `psql` would hold it. Requests that touch neither that job nor its
 * account must not notice: none may wait more than 1 s. The writes go on as
 * in every scenario: nothing lost, doubled or stuck.
 *
 * Prints the unrelated requests' slowest answers while a row was held and
 * while none was (the machine's own noise), and the table.
 */
import { assert, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { pgLayer } from "../support/TestDatabase.ts"
import * as Chaos from "./support/Chaos.ts"
import * as Peers from "./support/Peers.ts"

const scenario = "held-row"
const holdSeconds = 12

it.live("chaos: one job row held for 12 s while three servers work", () =>
  Effect.gen(function*() {
    const world = yield* Peers.world(scenario, 20)
    const { began, fleet, jobs, query, receiver, requests, token } = world
    // The row held now (its job and account), and the unrelated requests' answers: while held, and not.
    let held: { readonly jobId: string; readonly accountId: string } | undefined
    const whileHeld: Array<number> = []
    const otherwise: Array<number> = []
    yield* Peers.load({
      fleet,
      requests,
      token,
      jobs,
      accounts: world.accounts,
      perSecond: 8,
      avoid: () => held,
      timed: (ms, touched) => {
        if (touched) return
        ;(held === undefined ? otherwise : whileHeld).push(ms)
      }
    })
    // A connection of the scenario's own, as another session of the database.
    const holder = yield* Layer.build(pgLayer(world.postgres.url))
    const notes: Array<string> = []
    const holding = yield* Effect.forkScoped(Effect.gen(function*() {
      for (let round = 1; round <= 3; round++) {
        while (jobs.filter((job) => job.id !== undefined).length < (jobs.length * round) / 4) yield* Chaos.realSleep(250)
        // The head write of an account, about to be claimed (looked for until one is open).
        const heads = query(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          return yield* sql<{ id: string; account: string }>`
            SELECT DISTINCT ON (account_id) id::text AS id, account_id::text AS account FROM jobs
            WHERE status IN ('queued', 'scheduled') AND is_write ORDER BY account_id, seq LIMIT 1`
        }))
        let [head] = yield* heads
        while (head === undefined && jobs.some((job) => job.id === undefined)) {
          yield* Chaos.realSleep(100)
          ;[head] = yield* heads
        }
        if (head === undefined) continue
        const stalledBefore = whileHeld.length
        const heldAt = Date.now()
        yield* Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`SELECT id FROM jobs WHERE id = ${head.id} FOR UPDATE`
            held = { jobId: head.id, accountId: head.account }
            yield* sql`SELECT pg_sleep(${holdSeconds})`
          }))
        }).pipe(Effect.provideContext(holder), Effect.orDie, Effect.ensuring(Effect.sync(() => (held = undefined))))
        const answers = whileHeld.slice(stalledBefore)
        notes.push(
          `hold ${round}: job ${head.id} held ${Date.now() - heldAt} ms; ${answers.length} unrelated requests meanwhile, ` +
            `slowest ${Math.round(Math.max(0, ...answers))} ms`
        )
        Chaos.log(scenario, notes[notes.length - 1])
      }
    }))

    const driven = yield* Chaos.drive({ scenario, fleet, query, jobs, receiver, wave: 0, budgetMs: 300_000, during: () => Effect.void })
    yield* Fiber.join(holding)
    yield* Chaos.drainWebhooks(scenario, fleet, query, receiver, driven.nowMs)
    const counts = yield* Chaos.count(query, jobs, receiver)
    const overlapping = yield* Peers.overlaps(query)
    const slowestHeld = Math.round(Math.max(0, ...whileHeld))
    const slowestOtherwise = Math.round(Math.max(0, ...otherwise))
    const percentile = (values: ReadonlyArray<number>, p: number) =>
      values.length === 0 ? 0 : Math.round([...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)])
    Chaos.report(`one job row held for ${holdSeconds} s, three times, while three servers work`, counts, [
      `unrelated requests while a row was held: ${whileHeld.length}, p50 ${percentile(whileHeld, 0.5)} ms, ` +
        `p99 ${percentile(whileHeld, 0.99)} ms, slowest ${slowestHeld} ms`,
      `unrelated requests while none was: ${otherwise.length}, p50 ${percentile(otherwise, 0.5)} ms, ` +
        `p99 ${percentile(otherwise, 0.99)} ms, slowest ${slowestOtherwise} ms`,
      `overlaps (two writes of one account running at once): ${overlapping}`,
      requests.describe(),
      ...notes,
      `driving: ${driven.ended} after ${driven.testClockHours.toFixed(1)} h of test clock`,
      `scenario time: ${((Date.now() - began) / 1000).toFixed(0)} s`
    ])
    assert.isAbove(whileHeld.length, 20, "unrelated requests were measured while a row was held")
    assert.deepStrictEqual(
      { ...Peers.verdict(counts, overlapping, requests), unrelatedOver1s: whileHeld.filter((ms) => ms > 1000).length },
      { ...Peers.allZero, unrelatedOver1s: 0 }
    )
  }), 600_000)
