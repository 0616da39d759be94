/**
 * Chaos 5 (issue #29): a runner frozen with its writes in flight. Three
 * servers on one PostgreSQL, 800 jobs, each server creating the jobs of its
 * own accounts;
 * three times a server is stopped with SIGSTOP for 25 to 40 seconds (longer
 * than its 10-second shard lease: the others take its accounts over and
 * settle its running writes), at a moment one of its writes is in flight
 * when one shows, then resumed with SIGCONT, while the workload goes on on
 * the others. A resumed runner must send nothing its successor
 * settled: no job key attempted twice on the network, no two writes of one
 * account in flight at once, nothing lost or stuck.
 */
import { assert, it } from "@effect/vitest"
import { randomInt } from "node:crypto"
import { Effect } from "effect"
import { realSleep } from "./support/Chaos.ts"
import { inBackground, pause, runFenced, whenWriting } from "./support/FencedScenario.ts"

it.live("chaos 5: a runner stopped longer than its lease, three rounds under load", () =>
  Effect.gen(function*() {
    let rounds = 0
    let busyUntil = 0
    const { verdict } = yield* runFenced({
      id: "5",
      title: "5. SIGSTOP of one of three servers for 25-40 s, three rounds under load (then SIGCONT)",
      servers: ["a", "b", "c"],
      jobsPerAccount: 40,
      via: (a) => a % 3,
      wave: 40,
      budgetMs: 300_000,
      stallSteps: 30,
      chaos: (world) => (step, _done, moved) =>
        // A round once the last one ended, when a write of the server shows; each step lasts 1.2 s of real time
        // at least, so the workload spans the three rounds (a minute or two of test clock a second).
        rounds >= 3 || step < 2 || Date.now() < busyUntil ? realSleep(1_200) : inBackground(
          world,
          Effect.gen(function*() {
            const server = world.fleet.servers[rounds % 3]
            rounds++
            const ms = randomInt(25_000, 40_001)
            busyUntil = Date.now() + ms + 5_000
            yield* moved
            // Stopped with a write in flight when one shows within 3 s, else at that moment.
            const writing = yield* whenWriting(world, server, 3_000)
            world.notes.push(`round ${rounds}: server ${server.name} stopped ${writing ? "with a write in flight" : "with no write seen in flight"}`)
            yield* pause(world, server, ms, step)
          })
        )
    })
    assert.deepStrictEqual(verdict, { lost: 0, doubled: 0, stuck: 0, overlaps: 0 })
  }), 600_000)
