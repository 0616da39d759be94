/**
 * Chaos (issue #29): a rolling restart. Three servers on one database, 20
 * autopilot accounts and 600 writes created by a client that keeps its
 * requests going (reads between the creations), retrying on 503 after
 * `retry-after` as a client would; each server is stopped with SIGTERM and
 * started again, one by one, twice. A stopping server must answer 503 (never
 * refuse) while it drains, hand its accounts over before it exits so their due
 * writes go on elsewhere within seconds, and record what it delivered, so no
 * webhook arrives twice; a restart must cost no caller its rate window.
 *
 * Prints lost, doubled, stuck, interrupted, overlaps, answers other than 2xx or
 * 503, the longest an account with due work stood still, and deliveries that
 * arrived twice; fails on any doubled, overlap, lost or stuck job, an answer
 * other than 2xx or 503, an account standing still with due work for more than
 * 10 s, or a delivery arriving twice.
 */
import { assert, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import * as Chaos from "./support/Chaos.ts"
import * as Peers from "./support/Peers.ts"

const scenario = "rolling"

it.live("chaos: a rolling restart of three servers under load, twice", () =>
  Effect.gen(function*() {
    const world = yield* Peers.world(scenario, 30)
    const { began, fleet, jobs, query, receiver, requests, token } = world
    const standstill = yield* Peers.watchStandstill(query)
    yield* Peers.load({ fleet, requests, token, jobs, accounts: world.accounts, perSecond: 6 })

    // The roll: once a tenth of the jobs exist, each server in turn stopped gracefully and started
    // again (once it answers), twice round.
    const stops: Array<string> = []
    const roll = yield* Effect.forkScoped(Effect.gen(function*() {
      while (jobs.filter((job) => job.id !== undefined).length < jobs.length / 10) yield* Chaos.realSleep(250)
      for (let round = 1; round <= 2; round++) {
        for (const server of fleet.servers) {
          const stopped = yield* Peers.stopGracefully(scenario, server)
          const startedAt = Date.now()
          yield* fleet.start(server)
          stops.push(
            `round ${round}, server ${server.name}: SIGTERM to exit ${stopped.ms} ms (exit code ${stopped.code}), ` +
              `ready again ${Date.now() - startedAt} ms later`
          )
          yield* Chaos.realSleep(5000)
        }
      }
    }))

    const driven = yield* Chaos.drive({
      scenario,
      fleet,
      query,
      jobs,
      receiver,
      wave: 0,
      budgetMs: 300_000,
      stallSteps: 25,
      during: () => Effect.void
    })
    const rolled = yield* Fiber.join(roll)
    yield* standstill.stop
    const drained = yield* Chaos.drainWebhooks(scenario, fleet, query, receiver, driven.nowMs)
    const counts = yield* Chaos.count(query, jobs, receiver)
    const overlapping = yield* Peers.overlaps(query)
    const stood = standstill.longest()
    const twice = [...receiver.received].filter(([, times]) => times > 1).map(([id]) => id)
    const open = jobs.filter((job) => job.id !== undefined)
    const stuckJobs = yield* query(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ id: string; account: string; status: string }>`
        SELECT id::text AS id, account_id::text AS account, status FROM jobs
        WHERE status NOT IN ('completed', 'failed', 'cancelled') AND id::text IN ${sql.in(open.map((job) => String(job.id)))}`
    }))
    Chaos.report("rolling restart of three servers (SIGTERM and start, one by one, twice) under load", counts, [
      `overlaps (two writes of one account running at once): ${overlapping}`,
      requests.describe(),
      `longest an account with due work stood still: ${stood.ms} ms (account ${stood.account})`,
      `webhook deliveries that arrived twice: ${counts.redelivered} ${JSON.stringify(twice)}; refused by the receiver: ${receiver.refused}`,
      `jobs not ended: ${JSON.stringify(stuckJobs)}`,
      ...stops,
      `driving: ${driven.ended} after ${driven.testClockHours.toFixed(1)} h of test clock; webhooks given ` +
        `${((drained - driven.nowMs) / 3_600_000).toFixed(1)} h more`,
      fleet.settled(),
      `scenario time: ${((Date.now() - began) / 1000).toFixed(0)} s`
    ])
    assert.strictEqual(rolled, undefined)
    assert.deepStrictEqual({
      ...Peers.verdict(counts, overlapping, requests),
      deliveredTwice: counts.redelivered,
      undelivered: counts.undelivered,
      stoodStillOver10s: stood.ms > 10_000 ? 1 : 0,
      stopsLeft: 6 - stops.length
    }, { ...Peers.allZero, deliveredTwice: 0, undelivered: 0, stoodStillOver10s: 0, stopsLeft: 0 })
  }), 600_000)
