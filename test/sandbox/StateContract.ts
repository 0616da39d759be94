/**
 * The sandbox network's state store's shared spec, for what the driver's spec
 * (`SandboxDriverContract.ts`) cannot see from outside: transactions undo what they wrote when they
 * fail (a nested one only its own part), fencing tokens only rise, and a write's outcome is its
 * first attempt that reached the network. Run by `StateStored.test.ts` on the stored store (db tier)
 * and by `StateMemory.test.ts` on the in-memory one (fast tier).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, type Layer } from "effect"
import type { State } from "../../src/sandbox/State.ts"

const invitation = (accountId: string, providerId: string, sentAtMs: number) => ({
  id: crypto.randomUUID(),
  accountId,
  providerId,
  note: null,
  sentAtMs,
  withdrawnAtMs: null,
  forcedAcceptedAtMs: null
})

/** The spec, on the store `make` builds in `layer`'s context (a fresh one each test). */
export const stateContract = <R>(store: string, make: Effect.Effect<State, never, R>, layer: Layer.Layer<R>) => {
  const withState = <A, E>(body: (state: State) => Effect.Effect<A, E>) => Effect.provide(Effect.flatMap(make, body), layer)

  describe(`the sandbox's state, ${store}`, () => {
    it.effect("a failed transaction keeps nothing it wrote; a failed nested one undoes only its own part", () =>
      withState((state) =>
        Effect.gen(function*() {
          const accountId = crypto.randomUUID()
          const kept = invitation(accountId, "person-kept", 1_000)
          const undone = invitation(accountId, "person-undone", 2_000)
          const lost = invitation(accountId, "person-lost", 3_000)
          yield* state.transaction(Effect.gen(function*() {
            yield* state.insertInvitation(kept)
            const inner = yield* Effect.flip(state.transaction(Effect.andThen(state.insertInvitation(undone), Effect.fail("refused"))))
            assert.strictEqual(inner, "refused")
          }))
          const failed = yield* Effect.flip(state.transaction(Effect.gen(function*() {
            yield* state.insertInvitation(lost)
            yield* state.forceAcceptance(kept.id, 5_000)
            return yield* Effect.fail("refused")
          })))
          assert.strictEqual(failed, "refused")
          assert.deepStrictEqual(yield* state.invitationsActiveSince(accountId, 0), [kept])
          assert.isUndefined(yield* state.invitation(accountId, undone.id))
          assert.isUndefined(yield* state.invitation(accountId, lost.id))
        })
      ))

    it.effect("invitations read back newest first per person, by id only for a well-formed id, and as withdrawn or accepted", () =>
      withState((state) =>
        Effect.gen(function*() {
          const accountId = crypto.randomUUID()
          const older = invitation(accountId, "person-a", 1_000)
          const newer = invitation(accountId, "person-a", 2_000)
          const other = { ...invitation(accountId, "person-b", 1_500), note: "Hello" }
          for (const sent of [older, newer, other]) yield* state.insertInvitation(sent)
          assert.deepStrictEqual(yield* state.invitationsTo(accountId, "person-a"), [newer, older])
          assert.isUndefined(yield* state.invitation(accountId, "not-an-id"))
          assert.isUndefined(yield* state.invitation(crypto.randomUUID(), older.id))
          yield* state.withdraw(older.id, 3_000)
          yield* state.forceAcceptance(newer.id, 4_000)
          assert.deepStrictEqual(yield* state.invitationsActiveSince(accountId, 2_500), [
            { ...older, withdrawnAtMs: 3_000 },
            { ...newer, forcedAcceptedAtMs: 4_000 }
          ])
          assert.strictEqual(yield* state.notesSentBetween(accountId, 1_000, 1_500), 0)
          assert.strictEqual(yield* state.notesSentBetween(accountId, 1_000, 1_501), 1)
        })
      ))

    it.effect("a fencing token only rises; a write's outcome is its first attempt that reached the network, read back as JSON", () =>
      withState((state) =>
        Effect.gen(function*() {
          const accountId = crypto.randomUUID()
          assert.strictEqual(yield* state.raiseFence(accountId, 2), 2)
          assert.strictEqual(yield* state.raiseFence(accountId, 1), 2)
          assert.strictEqual(yield* state.raiseFence(accountId, 5), 5)
          const key = crypto.randomUUID()
          const attempt = { key, accountId, command: "create_post", atMs: 1_000, fence: 1, beganRealMs: 0, endedRealMs: 1 }
          assert.isUndefined(yield* state.writeOf(accountId, key))
          yield* state.recordWrite({ ...attempt, result: undefined, refused: true })
          yield* state.recordWrite({ ...attempt, result: undefined, refused: false })
          assert.isUndefined(yield* state.writeOf(accountId, key))
          yield* state.recordWrite({ ...attempt, result: { postId: "p-1", at: undefined }, refused: false })
          yield* state.recordWrite({ ...attempt, result: { postId: "p-2" }, refused: false })
          assert.deepStrictEqual(yield* state.writeOf(accountId, key), { result: { postId: "p-1" }, refusal: null })
          assert.isUndefined(yield* state.writeOf(crypto.randomUUID(), key))
          const refusedKey = crypto.randomUUID()
          yield* state.recordWrite({ ...attempt, key: refusedKey, result: undefined, refused: false, refusal: { type: "notFound" } })
          assert.deepStrictEqual(yield* state.writeOf(accountId, refusedKey), { result: null, refusal: { type: "notFound" } })
        })
      ))
  })
}
