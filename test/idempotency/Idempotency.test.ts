import { assert, describe, it, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Queue, Ref, Result } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { Invalid, WrongState } from "../../src/domain/Failures.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import * as Time from "../../src/domain/Time.ts"
import { bodyHash, canonicalJson, Idempotency } from "../../src/idempotency/Idempotency.ts"
import * as IdempotencyMemory from "../../src/idempotency/IdempotencyMemory.ts"
import * as TestDatabase from "../support/TestDatabase.ts"


const endpoint = "POST /v1/accounts/{id}/{command}"

/** A job as the service hands it out, and its JSON form (unlike plain JSON of it): what gets stored. */
interface Job {
  readonly id: string
  readonly createdAtMs: number
}
const encodeJob = (job: Job) => ({ id: job.id, createdAt: Time.toIso(job.createdAtMs) })

const newWorkspace = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const id = crypto.randomUUID()
  const now = yield* Time.now
  yield* sql`INSERT INTO workspaces ${sql.insert({ id, name: "Test", created_at: now.iso })}`
  return id
}).pipe(Effect.orDie)

/** A `create` that counts its runs and answers 202 with a new job each time. */
const counting = Effect.gen(function*() {
  const runs = yield* Ref.make(0)
  const create = Effect.gen(function*() {
    const n = yield* Ref.updateAndGet(runs, (count) => count + 1)
    const now = yield* Time.now
    return { status: 202, body: { id: `job-${n}`, createdAtMs: now.ms } }
  })
  return { runs: Ref.get(runs), create }
})

/** A `create` that signals when it starts and finishes only when `finish` is completed. */
const held = (id: string) =>
  Effect.gen(function*() {
    const started = yield* Deferred.make<void>()
    const finish = yield* Deferred.make<void>()
    const create = Effect.gen(function*() {
      yield* Deferred.succeed(started, undefined)
      yield* Deferred.await(finish)
      const now = yield* Time.now
      return { status: 202, body: { id, createdAtMs: now.ms } }
    })
    return { started, finish, create }
  })

interface Row {
  readonly key: string
  readonly state: string
  readonly responseStatus: number | null
  readonly responseBody: unknown
}

const rowsOf = (workspaceId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<Row>`
      SELECT key, state, response_status AS "responseStatus", response_body AS "responseBody"
      FROM idempotency_keys WHERE workspace_id = ${workspaceId} ORDER BY key`
  }).pipe(Effect.orDie)

describe("canonical body hash", () => {
  it("ignores key order at every depth, and nothing else", () => {
    const a = { person: "p", options: { b: 1, a: [{ y: 2, x: 1 }] } }
    const b = { options: { a: [{ x: 1, y: 2 }], b: 1 }, person: "p" }
    assert.strictEqual(canonicalJson(a), `{"options":{"a":[{"x":1,"y":2}],"b":1},"person":"p"}`)
    assert.strictEqual(bodyHash(a), bodyHash(b))
    assert.match(bodyHash(a), /^[0-9a-f]{64}$/)
    assert.notStrictEqual(bodyHash(a), bodyHash({ ...a, person: "q" }))
    assert.notStrictEqual(bodyHash([1, 2]), bodyHash([2, 1]))
    assert.notStrictEqual(bodyHash({ n: 1 }), bodyHash({ n: "1" }))
    assert.strictEqual(bodyHash({ a: 1, b: undefined }), bodyHash({ a: 1 }))
    assert.strictEqual(canonicalJson(undefined), "null")
  })
})

/** An implementation of `Idempotency` and how the shared expectations below reach it. */
interface Backend<R> {
  readonly name: string
  readonly services: Layer.Layer<Idempotency | R>
  /** A workspace the keys may belong to. */
  readonly newWorkspace: Effect.Effect<string, never, R>
  /** The keys as stored, where they are stored in rows. */
  readonly rowsOf?: ((workspaceId: string) => Effect.Effect<ReadonlyArray<Row>, never, R>) | undefined
  /** Whether a second request is answered while a first holds its claim (PGlite's one session makes it wait). */
  readonly concurrent: boolean
}

/** The one set of expectations, run against the stored implementation and the in-memory one. */
const expectations = <R>(backend: Backend<R>) =>
  layer(backend.services)(`Idempotency-Key (${backend.name})`, (it) => {
  const newWorkspace = backend.newWorkspace
  /** Checks the stored rows of the workspace, where the backend has rows. */
  const stored = (workspaceId: string, check: (rows: ReadonlyArray<Row>) => void) =>
    backend.rowsOf === undefined ? Effect.void : Effect.map(backend.rowsOf(workspaceId), check)

  it.effect("the first request runs create and stores its encoded response", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const { runs, create } = yield* counting
      const first = yield* idempotency.run({ workspaceId, endpoint, key: "k1", body: { person: "p" } }, create, encodeJob)
      assert.strictEqual(first.replayed, false)
      assert.strictEqual(first.status, 202)
      if (first.replayed) return assert.fail("not a replay")
      // The caller gets create's own value, not the stored JSON.
      assert.deepStrictEqual(first.body, { id: "job-1", createdAtMs: (yield* Time.now).ms })
      assert.strictEqual(yield* runs, 1)
      const body = first.body
      yield* stored(workspaceId, (rows) =>
        assert.deepStrictEqual(rows, [{ key: "k1", state: "done", responseStatus: 202, responseBody: encodeJob(body) }]))
    }))

  it.effect("a repeat with the same body replays the stored response without running create again", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const { runs, create } = yield* counting
      const body = { person: "p", note: { text: "hi", lang: "en" } }
      const first = yield* idempotency.run({ workspaceId, endpoint, key: "k", body }, create, encodeJob)
      yield* TestClock.adjust("1 hour")
      const reordered = { note: { lang: "en", text: "hi" }, person: "p" }
      const again = yield* idempotency.run({ workspaceId, endpoint, key: "k", body: reordered }, create, encodeJob)
      assert.strictEqual(yield* runs, 1)
      assert.strictEqual(again.replayed, true)
      assert.strictEqual(again.status, 202)
      if (first.replayed) return assert.fail("the first request is not a replay")
      assert.deepStrictEqual(again.body, { id: "job-1", createdAt: Time.toIso(first.body.createdAtMs) })
    }))

  it.effect("the same key with a different body is 422 and changes nothing", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const { runs, create } = yield* counting
      yield* idempotency.run({ workspaceId, endpoint, key: "k", body: { person: "p" } }, create, encodeJob)
      const error = yield* Effect.flip(
        idempotency.run({ workspaceId, endpoint, key: "k", body: { person: "q" } }, create, encodeJob)
      )
      assert.instanceOf(error, Invalid)
      assert.strictEqual(error._tag, "Invalid")
      assert.match(error.message, /different body/)
      assert.match(nextOf(error.advice), /new Idempotency-Key/)
      assert.strictEqual(yield* runs, 1)
      const replay = yield* idempotency.run({ workspaceId, endpoint, key: "k", body: { person: "p" } }, create, encodeJob)
      assert.strictEqual(replay.replayed, true)
    }))

  // A request in flight holds its transaction: on PGlite (one session) a second request waits for it.
  it.effect.skipIf(!backend.concurrent)("a repeat while the first request is still being handled is 409; afterwards it replays", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const request = { workspaceId, endpoint, key: "k", body: { person: "p" } }
      const { started, finish, create } = yield* held("job-first")
      const first = yield* Effect.forkChild(idempotency.run(request, create, encodeJob))
      yield* Deferred.await(started)

      const { runs, create: other } = yield* counting
      const conflict = yield* Effect.flip(idempotency.run(request, other, encodeJob))
      assert.instanceOf(conflict, WrongState)
      assert.strictEqual(conflict._tag, "WrongState")
      assert.match(nextOf(conflict.advice), /Retry in a moment/)
      // Even a different body is told about the body, which retrying will not fix.
      const different = yield* Effect.flip(idempotency.run({ ...request, body: { person: "q" } }, other, encodeJob))
      assert.instanceOf(different, Invalid)

      yield* Deferred.succeed(finish, undefined)
      const done = yield* Fiber.join(first)
      assert.strictEqual(done.replayed, false)
      const replay = yield* idempotency.run(request, other, encodeJob)
      assert.strictEqual(replay.replayed, true)
      assert.deepStrictEqual(replay.body, { id: "job-first", createdAt: (yield* Time.now).iso })
      assert.strictEqual(yield* runs, 0)
    }))

  it.effect("of two first requests racing for a new key, one runs create and the other is 409", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const request = { workspaceId, endpoint, key: "k", body: { person: "p" } }
      const runs = yield* Ref.make(0)
      const finish = yield* Deferred.make<void>()
      const create = Effect.gen(function*() {
        yield* Ref.update(runs, (count) => count + 1)
        yield* Deferred.await(finish)
        return { status: 202, body: { id: "job-race", createdAtMs: 0 } }
      })
      const answers = yield* Queue.unbounded<Result.Result<unknown, unknown>>()
      const racer = idempotency.run(request, create, encodeJob).pipe(
        Effect.result,
        Effect.flatMap((answer) => Queue.offer(answers, answer))
      )
      yield* Effect.forkChild(racer)
      yield* Effect.forkChild(racer)

      const loser = yield* Queue.take(answers)
      assert.isTrue(Result.isFailure(loser))
      if (Result.isFailure(loser)) assert.instanceOf(loser.failure, WrongState)
      yield* Deferred.succeed(finish, undefined)
      const winner = yield* Queue.take(answers)
      assert.deepStrictEqual(winner, Result.succeed({ replayed: false, status: 202, body: { id: "job-race", createdAtMs: 0 } }))
      assert.strictEqual(yield* Ref.get(runs), 1)
    }))

  it.effect("create failing drops the claim, so a retry with the same key runs", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const request = { workspaceId, endpoint, key: "k", body: { person: "p" } }
      const error = yield* Effect.flip(idempotency.run(request, Effect.fail("account busy" as const), encodeJob))
      assert.strictEqual(error, "account busy")
      yield* stored(workspaceId, (rows) => assert.deepStrictEqual(rows, []))

      const { runs, create } = yield* counting
      const retried = yield* idempotency.run(request, create, encodeJob)
      assert.strictEqual(retried.replayed, false)
      assert.strictEqual(yield* runs, 1)
    }))

  // A request in flight holds its transaction: on PGlite (one session) a second request waits for it.
  it.effect.skipIf(!backend.concurrent)("an interrupted request drops its claim", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const request = { workspaceId, endpoint, key: "k", body: { person: "p" } }
      const { started, create } = yield* held("never")
      const first = yield* Effect.forkChild(idempotency.run(request, create, encodeJob))
      yield* Deferred.await(started)
      yield* stored(workspaceId, (rows) => assert.strictEqual(rows[0]?.state, "in_progress"))
      yield* Fiber.interrupt(first)
      yield* stored(workspaceId, (rows) => assert.deepStrictEqual(rows, []))

      const { runs, create: again } = yield* counting
      assert.strictEqual((yield* idempotency.run(request, again, encodeJob)).replayed, false)
      assert.strictEqual(yield* runs, 1)
    }))

  it.effect("keys are scoped to the workspace and to the endpoint", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const one = yield* newWorkspace
      const two = yield* newWorkspace
      const { runs, create } = yield* counting
      const body = { person: "p" }
      yield* idempotency.run({ workspaceId: one, endpoint, key: "k", body }, create, encodeJob)
      const otherWorkspace = yield* idempotency.run({ workspaceId: two, endpoint, key: "k", body }, create, encodeJob)
      const otherEndpoint = yield* idempotency.run(
        { workspaceId: one, endpoint: "POST /v1/jobs", key: "k", body: { account: "a" } },
        create,
        encodeJob
      )
      assert.strictEqual(otherWorkspace.replayed, false)
      assert.strictEqual(otherEndpoint.replayed, false)
      assert.strictEqual(yield* runs, 3)
      const replay = yield* idempotency.run({ workspaceId: two, endpoint, key: "k", body }, create, encodeJob)
      assert.strictEqual(replay.replayed, true)
      assert.strictEqual((yield* idempotency.run({ workspaceId: one, endpoint, key: "k", body }, create, encodeJob)).replayed, true)
      assert.strictEqual(yield* runs, 3)
    }))

  it.effect("a key is kept 24 hours, then it is free again and expired keys are removed", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const { runs, create } = yield* counting
      const request = { workspaceId, endpoint, key: "k", body: { person: "p" } }
      yield* idempotency.run(request, create, encodeJob)
      yield* idempotency.run({ ...request, key: "other" }, create, encodeJob)
      yield* TestClock.adjust("86399999 millis")
      assert.strictEqual((yield* idempotency.run(request, create, encodeJob)).replayed, true)
      assert.strictEqual(yield* runs, 2)

      yield* TestClock.adjust("1 millis")
      // A different body too: the old use of the key is forgotten.
      const fresh = yield* idempotency.run({ ...request, body: { person: "q" } }, create, encodeJob)
      assert.strictEqual(fresh.replayed, false)
      assert.strictEqual(yield* runs, 3)
      const nowIso = (yield* Time.now).iso
      yield* stored(workspaceId, (rows) => {
        assert.deepStrictEqual(rows.map((row) => row.key), ["k"], "the expired key \"other\" was removed on the way")
        assert.deepStrictEqual(rows[0]?.responseBody, { id: "job-3", createdAt: nowIso })
      })
    }))

  // A request in flight holds its transaction: on PGlite (one session) a second request waits for it.
  it.effect.skipIf(!backend.concurrent)("a claim left in progress for 2 minutes is taken over, and its late finish does not overwrite", () =>
    Effect.gen(function*() {
      const idempotency = yield* Idempotency
      const workspaceId = yield* newWorkspace
      const request = { workspaceId, endpoint, key: "k", body: { person: "p" } }
      const { started, finish, create } = yield* held("job-stuck")
      const stuck = yield* Effect.forkChild(idempotency.run(request, create, encodeJob))
      yield* Deferred.await(started)
      const { runs, create: retry } = yield* counting

      yield* TestClock.adjust("119999 millis")
      assert.instanceOf(yield* Effect.flip(idempotency.run(request, retry, encodeJob)), WrongState)
      yield* TestClock.adjust("1 millis")
      const takenOver = yield* idempotency.run(request, retry, encodeJob)
      const takenOverAt = yield* Time.now
      assert.strictEqual(takenOver.replayed, false)
      assert.strictEqual(yield* runs, 1)

      // The stuck request still answers its own caller, but the key keeps the taker's response.
      yield* Deferred.succeed(finish, undefined)
      const late = yield* Fiber.join(stuck)
      assert.strictEqual(late.replayed, false)
      const replay = yield* idempotency.run(request, retry, encodeJob)
      assert.strictEqual(replay.replayed, true)
      assert.deepStrictEqual(replay.body, { id: "job-1", createdAt: takenOverAt.iso })
      assert.strictEqual(yield* runs, 1)
    }))
  })

expectations({
  name: TestDatabase.backend,
  services: Idempotency.layer.pipe(Layer.provideMerge(TestDatabase.layer)),
  newWorkspace,
  rowsOf,
  concurrent: TestDatabase.backend !== "pglite"
})

expectations({ name: "in memory", services: IdempotencyMemory.layer, newWorkspace: Effect.sync(() => crypto.randomUUID()), concurrent: true })
