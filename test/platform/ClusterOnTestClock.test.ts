/**
 * A server on the sandbox's test clock is a runner like any other: when the
 * cluster's routing refuses a message to an account's owner (its runner cannot
 * be reached, or its shard is moving, as when servers start together), the
 * cluster retries on real time, and a request that waits for the owner (an
 * account change) answers while the test clock stands still. The chaos suite's
 * three servers hung on this for 90 s now and then; here the owner is a runner
 * that is registered and kept healthy in the database but never answers, so
 * every message to its accounts is refused.
 */
import { assert, it } from "@effect/vitest"
import { Context, Effect, Fiber, Layer } from "effect"
import { EntityId, Runner, RunnerAddress, RunnerStorage, Sharding } from "effect/cluster"
import * as Time from "../../src/domain/Time.ts"
import * as Migrations from "../../src/platform/Migrations.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { eventually } from "../support/Eventually.ts"
import { ownPostgres, postgresBin } from "../support/OwnPostgres.ts"
import { freePort, serverOn } from "../support/Runners.ts"
import { pgLayer } from "../support/TestDatabase.ts"
import { call } from "../support/TestServer.ts"

const owns = (context: Context.Context<Sharding.Sharding>, accountId: string) => {
  const sharding = Context.get(context, Sharding.Sharding)
  return sharding.hasShardId(sharding.getShardId(EntityId.make(accountId), "default"))
}

it.effect.skipIf(postgresBin === undefined)("an account change answers on the test clock while its owner cannot be reached", () =>
  Effect.gen(function*() {
    const postgres = yield* ownPostgres(postgresBin ?? "")
    const database = Layer.fresh(Layer.orDie(Layer.provideMerge(Migrations.layer, pgLayer(postgres.url))))
    const server = yield* Layer.build(serverOn(database, yield* freePort, { clock: "test" }))
    const probes = Array.from({ length: 300 }, (_, i) => `probe-${i}`)
    const owned = Effect.sync(() => probes.filter((probe) => owns(server, probe)).length)
    yield* eventually("the server to own every shard", owned, (n) => n === probes.length, 60_000, 100)

    // A second runner, registered and kept healthy (the server's health checks find it dead every 2 s), that
    // never answers: the accounts of its shards cannot be reached.
    const storage = Context.get(server, RunnerStorage.RunnerStorage)
    const silent = Runner.make({ address: RunnerAddress.make("127.0.0.1", yield* freePort), groups: ["default"], weight: 1 })
    yield* storage.register(silent, true)
    yield* storage.setRunnerHealth(silent.address, true).pipe(
      Effect.andThen(Time.liveSleep(100)),
      Effect.forever,
      Effect.forkScoped
    )
    yield* eventually("the silent runner to be given shards", owned, (n) => n < probes.length, 60_000, 100)

    const { keyValue: token } = yield* Context.get(server, Workspaces).create({ name: "silent", seats: 40 }).pipe(
      Effect.provideContext(server)
    )
    const request = (method: "POST" | "PATCH", path: string, body: unknown) =>
      call(method, path, { token, body }).pipe(
        Effect.provideContext(server),
        // Waited for apart, so that a request stuck where it cannot be interrupted still fails the test at once.
        Effect.forkDetach,
        Effect.flatMap(Fiber.join),
        // Far more than the 5 s a change waits for its owner, in real time (the server's clock stands still).
        Effect.timeoutOption("30 seconds"),
        Time.onRealTime,
        Effect.map((answer) => answer._tag === "Some" ? answer.value.status : "no answer in 30 s")
      )
    let changed = 0
    for (let i = 0; i < 40 && changed === 0; i++) {
      const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: `silent ${i}` } }).pipe(
        Effect.provideContext(server)
      )
      assert.strictEqual(created.status, 201, JSON.stringify(created.body))
      const id = String(created.body.account.id)
      if (owns(server, id)) continue
      // The account's shard is the silent runner's: the change's message to its owner is refused, again and again.
      assert.strictEqual(yield* request("POST", `/v1/sandbox/accounts/${id}/complete-connection`, { tier: "premium" }), 200)
      assert.strictEqual(yield* request("PATCH", `/v1/accounts/${id}`, { mode: "autopilot" }), 200)
      changed++
    }
    assert.strictEqual(changed, 1, "an account owned by the silent runner")
  }), { timeout: 180_000 })
