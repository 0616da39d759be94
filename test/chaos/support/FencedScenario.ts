/**
 * A fencing scenario from start to verdict (issue #29): the chaos harness's
 * world with the request tally and the watch of unlooked jobs, chaos that may
 * run in the background while the workload goes on (a runner stopped for
 * longer than its lease, a database outage), then the counts of `Counting.ts`.
 */
import { Effect, Fiber, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { begin, type ChaosServer, count, drive, type Drive, log, moveClock, plan, readClock, realSleep, type Scenario, type World } from "./Chaos.ts"
import { attempts, failureMessages, fencingVerdict, reportFencing, Requests, type UnlookedWatch, watchUnlooked } from "./Counting.ts"

export interface FencedWorld extends World {
  readonly requests: Requests
  readonly unlooked: UnlookedWatch
  /** Chaos running in the background (joined before the counts are taken). */
  readonly background: Array<Fiber.Fiber<void>>
}

export interface FencedScenario extends Omit<Scenario, "chaos" | "after" | "deliveriesChecked"> {
  /** Real time the workload may take, in ms. */
  readonly budgetMs: number
  readonly chaos: (world: FencedWorld) => Drive["during"]
}

/** Runs the scenario and answers the counts that must be 0 (lost, doubled, stuck, overlaps), and the longest unlooked wait. */
export const runFenced = (spec: FencedScenario) =>
  Effect.gen(function*() {
    const began = Date.now()
    const base = yield* begin(spec.id, spec.servers, 20)
    const world: FencedWorld = {
      ...base,
      scenario: spec.id,
      jobs: [],
      notes: [],
      requests: new Requests(),
      unlooked: yield* watchUnlooked(base.query),
      background: []
    }
    world.jobs.push(...plan(world.accounts, spec.jobsPerAccount, spec.via ?? (() => 0)))
    const options = {
      scenario: spec.id,
      fleet: world.fleet,
      query: world.query,
      jobs: world.jobs,
      receiver: world.receiver,
      wave: spec.wave,
      answered: (status: number | undefined) => world.requests.record(status),
      ...(spec.stallSteps === undefined ? {} : { stallSteps: spec.stallSteps })
    }
    const driven = yield* drive({ ...options, budgetMs: spec.budgetMs, during: spec.chaos(world) })
    // Chaos still going on in the background ends first; then the work left is driven to its end.
    yield* Fiber.joinAll(world.background)
    const rest = yield* drive({ ...options, budgetMs: 90_000, during: () => Effect.void })
    yield* world.unlooked.stop
    const counts = yield* count(world.query, world.jobs, world.receiver)
    const seen = yield* attempts(world.query)
    const failures = yield* failureMessages(world.query)
    reportFencing(spec.title, counts, seen, world.requests, [
      `driving: ${driven.ended} after ${driven.testClockHours.toFixed(1)} h of test clock, then ${rest.ended} ` +
      `after the chaos ended (${rest.testClockHours.toFixed(1)} h more)`,
      world.fleet.settled(),
      `fencing in the servers' logs: ${world.fleet.logged("shard lease lost")} lease losses, ` +
      `${world.fleet.logged("write given up before it was sent")} writes given up before sending, ` +
      `${world.fleet.logged("write cut off before the network answered")} calls cut off, ` +
      `${world.fleet.logged("the answer to its claim was lost")} claims whose answer was lost`,
      ...failures.map((row) => `failed ${row.n}x: ${row.type}: ${row.message}`),
      world.unlooked.longest() === 0
        ? "longest wait of an open job no actor had looked at: none seen"
        : `longest wait of an open job no actor had looked at: ${world.unlooked.longest()} ms (real time), ` +
          `last seen ${((world.unlooked.longestSeenAt() - began) / 1000).toFixed(1)} s into the scenario`,
      ...world.notes,
      `scenario time: ${((Date.now() - began) / 1000).toFixed(0)} s`
    ])
    return { verdict: fencingVerdict(counts, seen), longestUnlookedMs: world.unlooked.longest() }
  })

/**
 * Stops the server's process with SIGSTOP for `ms` of real time, then SIGCONT: it keeps its connections and
 * its state, and wakes believing it still owns what it owned. While stopped, the harness sends it nothing
 * (it leaves the fleet's live servers); once it runs again its test clock is moved to the others'.
 */
export const pause = (world: FencedWorld, server: ChaosServer, ms: number, step: number) =>
  Effect.gen(function*() {
    const running = server.running
    if (running === undefined) return
    server.running = undefined
    running.child.kill("SIGSTOP")
    const stoppedAt = Date.now()
    log(world.scenario, `SIGSTOP of server ${server.name} at step ${step} for ${ms} ms`)
    yield* realSleep(ms)
    running.child.kill("SIGCONT")
    const resumedAt = Date.now()
    // Its test clock to the others' (theirs moved on meanwhile); then it is one of the live servers again.
    const now = yield* readClock(world.fleet)
    const alone = { ...world.fleet, live: () => [server] }
    server.running = running
    yield* moveClock(alone, now)
    world.notes.push(
      `SIGSTOP of server ${server.name} at step ${step}: SIGCONT after ${resumedAt - stoppedAt} ms; ` +
        `its test clock caught up with the others' ${Date.now() - resumedAt} ms later`
    )
    log(world.scenario, `SIGCONT of server ${server.name}`)
  })

/**
 * Waits (polling every 10 ms, `withinMs` at most) until the server has a write in flight: a running job claimed
 * under the owner epoch its runner took (`account_fences.runner` is its address); true when one was seen.
 */
export const whenWriting = (world: FencedWorld, server: ChaosServer, withinMs: number) =>
  Effect.gen(function*() {
    const runner = `127.0.0.1:${server.port}`
    const until = Date.now() + withinMs
    while (Date.now() < until) {
      const [row] = yield* world.query(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ n: string }>`
          SELECT count(*) AS n FROM jobs j JOIN account_fences f ON f.account_id = j.account_id AND f.epoch = j.fence
          WHERE j.status = 'running' AND j.is_write AND f.runner = ${runner}`
      }))
      if (Number(row.n) > 0) return true
      yield* realSleep(10)
    }
    return false
  })

/** Runs `chaos` in the background of the scenario: the workload goes on meanwhile. */
export const inBackground = (world: FencedWorld, chaos: Effect.Effect<void, Error, Scope.Scope>) =>
  Effect.flatMap(Effect.forkScoped(chaos.pipe(Effect.orDie)), (fiber) => Effect.sync(() => world.background.push(fiber)))
