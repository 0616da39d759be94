/**
 * The sandbox driver on its stored state (a fresh database each test): the shared spec
 * (`SandboxDriverContract.ts`), and what only the stored state shows (every attempt's row).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { sandboxDriverContract } from "./SandboxDriverContract.ts"

const driverLayer = SandboxDriver.layer.pipe(Layer.provideMerge(TestDatabase.layer))

sandboxDriverContract("the stored state", driverLayer)

describe("the sandbox driver's stored state", () => {
  const attemptsOf = (key: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ fence: string; refused: boolean; carried: boolean }>`
        SELECT fence, refused, result IS NOT NULL AS carried FROM sandbox_writes WHERE key = ${key} ORDER BY id`)

  it.effect("records every attempt, carried out or not, stale or not, so a write sent twice shows", () =>
    Effect.andThen(TestClock.setTime(Date.UTC(2026, 10, 21, 9, 30)), Effect.provide(Effect.gen(function*() {
      const network = yield* NetworkDriver
      const id = crypto.randomUUID()
      if (network.accountRecorded === undefined) return assert.fail("the sandbox keeps the accounts it is told of")
      yield* network.accountRecorded({ accountId: id, workspaceId: crypto.randomUUID(), tier: "premium", products: [], removed: false })
      const key = crypto.randomUUID()
      yield* network.write(id, "create_post", { text: "First." }, { key, fence: 1 })
      yield* network.write(id, "create_post", { text: "First." }, { key, fence: 1 })
      const refusedByRule = yield* Effect.flip(network.write(id, "react", { post: "urn:li:activity:9528731723694092345", reaction: "like" }, { key, fence: 1 }))
      assert.strictEqual(refusedByRule.type, "notFound")
      const rows = yield* attemptsOf(key)
      assert.deepStrictEqual(rows.map((row) => [Number(row.fence), row.refused, row.carried]), [[1, false, true], [1, false, true], [1, false, false]])
      const stale = crypto.randomUUID()
      yield* network.write(id, "create_post", { text: "By the owner of epoch 2." }, { key: crypto.randomUUID(), fence: 2 })
      yield* Effect.flip(network.write(id, "create_post", { text: "By a frozen owner." }, { key: stale, fence: 1 }))
      assert.deepStrictEqual((yield* attemptsOf(stale)).map((row) => [Number(row.fence), row.refused]), [[1, true]])
    }), driverLayer)))
})
