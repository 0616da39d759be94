/**
 * The lifecycle rules on their own, without a database: what each request or
 * network event changes of an account, what it emits, and what it refuses.
 */
import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import type { AccountRow } from "../../src/accounts/AccountRow.ts"
import * as Lifecycle from "../../src/accounts/Lifecycle.ts"
import { accountRow } from "./support.ts"

const now = Date.UTC(2026, 0, 20, 10)

const account = (overrides: Partial<AccountRow>): AccountRow => accountRow(Date.UTC(2026, 0, 19, 10), overrides)

const changed = <E>(result: Result.Result<Lifecycle.Change, E>): Lifecycle.Change => {
  assert.isTrue(Result.isSuccess(result), "the rule refused")
  return Result.getOrThrow(result)
}

const refused = <A, E extends { readonly _tag: string }>(result: Result.Result<A, E>): string => {
  assert.isTrue(Result.isFailure(result), "the rule allowed it")
  return Result.isFailure(result) ? result.failure._tag : ""
}

describe("the account lifecycle rules", () => {
  it("pause: a connected account pauses and remembers its status; a paused one stays; a connecting one is refused", () => {
    const paused = changed(Lifecycle.pause(account({ status: "warming" }), now))
    assert.deepStrictEqual(paused.update, { status: "paused", resumeStatus: "warming" })
    assert.deepStrictEqual(paused.events.map((event) => event.type), ["account.paused"])
    assert.deepStrictEqual(changed(Lifecycle.pause(account({ status: "paused" }), now)), { update: null, events: [] })
    assert.strictEqual(refused(Lifecycle.pause(account({ status: "connecting" }), now)), "WrongState")
  })

  it("resume: back to the status it was paused from; a stopped account comes back yellow", () => {
    const resumed = changed(Lifecycle.resume(account({ status: "paused", resumeStatus: "active" }), now))
    assert.deepStrictEqual(resumed.update, { resumeStatus: null, status: "active" })
    const stopped = changed(Lifecycle.resume(account({ status: "stopped", resumeStatus: "warming" }), now))
    assert.strictEqual(stopped.update?.healthLevel, "yellow")
    assert.strictEqual(refused(Lifecycle.resume(account({ status: "warming" }), now)), "WrongState")
  })

  it("resume after a restriction: reads only for a while, then the warm-up again", () => {
    const row = account({ status: "restricted", restrictedAt: now - 3_600_000 })
    const { update } = changed(Lifecycle.resume(row, now))
    assert.strictEqual(update?.status, "warming")
    assert.isNull(update?.restrictedAt)
    assert.isAbove(update?.readsOnlyUntil ?? 0, now)
    assert.strictEqual(update?.warmupStartedAt, update?.readsOnlyUntil)
  })

  it("network events: signed out needs a reconnection, red health stops, and both are refused while connecting", () => {
    const signedOut = changed(Lifecycle.networkEvent(account({ status: "active" }), now, { type: "signed_out" }))
    assert.deepStrictEqual(signedOut.update, { status: "reconnect_required", resumeStatus: "active" })
    assert.deepStrictEqual(signedOut.events.map((event) => event.type), ["account.reconnection_required"])
    const red = changed(Lifecycle.networkEvent(account({ status: "active" }), now, { type: "health", level: "red" }))
    assert.strictEqual(red.update?.status, "stopped")
    assert.strictEqual(red.update?.resumeStatus, "active")
    const yellow = changed(Lifecycle.networkEvent(account({}), now, { type: "health", level: "yellow", reason: "slow" }))
    assert.deepStrictEqual(yellow, { update: { healthLevel: "yellow", healthReason: "slow" }, events: [] })
    assert.strictEqual(
      refused(Lifecycle.networkEvent(account({ status: "connecting" }), now, { type: "restricted" })),
      "WrongState"
    )
  })

  it("sign-in: a first connection starts the warm-up; a reconnection returns to where it was", () => {
    const profile = { tier: "sales_nav", products: ["sales_navigator"], connections: 900 } as const
    const first = Lifecycle.connected(account({ status: "connecting", connectedAt: null }), now, profile)
    assert.strictEqual(first.update?.status, "warming")
    assert.strictEqual(first.update?.connectedAt, now)
    assert.isNull(first.update?.link)
    const again = Lifecycle.connected(account({ status: "reconnect_required", resumeStatus: "paused" }), now, profile)
    assert.strictEqual(again.update?.status, "paused")
    assert.isUndefined(again.update?.connectedAt)
    assert.strictEqual(refused(Lifecycle.awaitingSignIn(account({ status: "active" }), now)), "WrongState")
  })

  it("a completed sign-in: a tier given without products brings its own; a reconnection keeps what is known", () => {
    const reported = { tier: "free", products: [], connections: 120 } as const
    assert.deepStrictEqual(
      Lifecycle.completedProfile(account({ status: "connecting" }), reported, { tier: "sales_nav" }),
      { tier: "sales_nav", products: ["sales_navigator"], connections: 120 }
    )
    assert.deepStrictEqual(
      Lifecycle.completedProfile(account({ status: "reconnect_required", tier: "premium", connections: 700 }), reported, undefined),
      { tier: "premium", products: [], connections: 700 }
    )
  })

  it("seats and zones: no seat past the total, and two zones that disagree are refused", () => {
    assert.isTrue(Result.isSuccess(Lifecycle.seatFree(2, 3)))
    assert.strictEqual(refused(Lifecycle.seatFree(3, 3)), "Forbidden")
    const hours = { days: [1, 2, 3, 4, 5], from: "09:00", to: "18:00", timezone: "Europe/Berlin" }
    assert.strictEqual(refused(Lifecycle.zonesAgree({ timezone: "UTC", workingHours: hours })), "Invalid")
    assert.isTrue(Result.isSuccess(Lifecycle.zonesAgree({ timezone: "Europe/Berlin", workingHours: hours })))
  })
})
