/**
 * What `Accounts` promises its callers, run against the stored accounts (`Accounts.test.ts`, on a
 * database, with the sandbox's driver) and against the in-memory ones the fast route tests use
 * (`AccountsMemory.test.ts`): the same expectations, so the fake cannot drift from the service it
 * stands in for. Accounts go by the fiber's clock (the `TestClock` the tests of a layer share).
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { Accounts } from "../../src/accounts/Accounts.ts"
import { connectLinkTtlMs } from "../../src/domain/Account.ts"
import { Forbidden, Invalid, Missing, WrongState } from "../../src/domain/Failures.ts"
import * as Time from "../../src/domain/Time.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { passingCode } from "../../src/sandbox/SandboxDriver.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

const baseUrl = "http://outreach.test"

/** A new account of `workspaceId`, connecting; its id and the token of its sign-in link. */
const connecting = (workspaceId: string, label = "Ada") =>
  Effect.gen(function*() {
    const { account, connectUrl } = yield* (yield* Accounts).connect({ workspaceId, baseUrl, label })
    return { id: account.id, token: connectUrl.slice(connectUrl.lastIndexOf("/") + 1) }
  })

/** A new account of `workspaceId`, signed in as a premium seat. */
const connected = (workspaceId: string, label = "Ada") =>
  Effect.gen(function*() {
    const { id } = yield* connecting(workspaceId, label)
    return yield* (yield* Accounts).completeConnection(workspaceId, id, { tier: "premium", connections: 900 })
  })

export const accountsExpectations = <R>(backend: Backend<R, Accounts, TwoWorkspaces>) =>
  layer(backend.services)(`Accounts (${backend.name})`, (it) => {
    it.effect("connect takes a seat for an account connecting, with a sign-in link valid one hour", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const now = yield* Time.now
          const made = yield* accounts.connect({ workspaceId, baseUrl: `${baseUrl}/`, label: "Ada Lovelace", timezone: "Europe/Berlin" })
          assert.match(made.connectUrl, /^http:\/\/outreach\.test\/connect\/[A-Za-z0-9_-]{32}$/)
          assert.strictEqual(made.expiresAt, Time.toIso(now.ms + connectLinkTtlMs))
          const { account } = made
          assert.deepStrictEqual(
            [account.status, account.label, account.tier, account.mode, account.offHoursPolicy, account.budgets, account.connectedAt],
            ["connecting", "Ada Lovelace", "free", "approve", "queue", null, null]
          )
          assert.deepStrictEqual(account.settings, { minInviteQuality: 30, autoWithdrawDays: 21 })
          assert.deepStrictEqual(
            [account.workingHours.days, account.workingHours.from, account.workingHours.to, account.workingHours.timezone],
            [[1, 2, 3, 4, 5], "09:00", "18:00", "Europe/Berlin"]
          )
          assert.strictEqual(account.capabilities.network, "sandbox")
          assert.deepStrictEqual(yield* accounts.get(workspaceId, account.id), account)
          assert.deepStrictEqual(yield* accounts.get(workspaceId, account.id.toUpperCase()), account)
          assert.deepStrictEqual(yield* accounts.list(workspaceId), { accounts: [account], seats: { used: 0, pending: 1, total: 5 } })
          assert.deepStrictEqual(yield* accounts.list(otherWorkspaceId), { accounts: [], seats: { used: 0, pending: 0, total: 5 } })
          const elsewhere = yield* Effect.flip(accounts.get(otherWorkspaceId, account.id))
          assert.instanceOf(elsewhere, Missing)
          assert.strictEqual(elsewhere.message, `No account ${account.id} in this workspace.`)
          assert.match(nextOf(elsewhere.advice), /GET \/v1\/accounts/)
        })))

    it.effect("two time zones that disagree are refused and take no seat", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const workingHours = { days: [1, 2, 3], from: "08:00", to: "16:00", timezone: "America/New_York" }
          const refused = yield* Effect.flip(accounts.connect({ workspaceId, baseUrl, timezone: "UTC", workingHours }))
          assert.instanceOf(refused, Invalid)
          assert.strictEqual(refused.message, "timezone (UTC) and workingHours.timezone (America/New_York) disagree.")
          assert.deepStrictEqual((yield* accounts.list(workspaceId)).accounts, [])
          const { account } = yield* accounts.connect({ workspaceId, baseUrl, workingHours })
          assert.strictEqual(account.label, "")
          assert.deepStrictEqual([account.workingHours.days, account.workingHours.from], [[1, 2, 3], "08:00"])
        })))

    it.effect("every seat in use refuses a connect until one is freed; accounts are listed oldest first", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const ids: Array<string> = []
          for (const label of ["a", "b", "c", "d", "e"]) {
            ids.push((yield* connecting(workspaceId, label)).id)
            yield* TestClock.adjust("1 second")
          }
          const full = yield* Effect.flip(accounts.connect({ workspaceId, baseUrl }))
          assert.instanceOf(full, Forbidden)
          assert.strictEqual(full.message, "Every seat is in use (5 of 5).")
          // Another workspace's seats are its own.
          yield* connecting(otherWorkspaceId)
          const listed = yield* accounts.list(workspaceId)
          assert.deepStrictEqual(listed.accounts.map((account) => account.id), ids)
          assert.deepStrictEqual(listed.seats, { used: 0, pending: 5, total: 5 })
          yield* accounts.completeConnection(workspaceId, ids[0] ?? "")
          assert.deepStrictEqual((yield* accounts.list(workspaceId)).seats, { used: 1, pending: 4, total: 5 })
          yield* accounts.remove(workspaceId, ids[1] ?? "")
          assert.instanceOf(yield* Effect.flip(accounts.get(workspaceId, ids[1] ?? "")), Missing)
          assert.instanceOf(yield* Effect.flip(accounts.remove(workspaceId, ids[1] ?? "")), Missing)
          yield* connecting(workspaceId, "f")
          assert.deepStrictEqual((yield* accounts.list(workspaceId)).seats, { used: 1, pending: 4, total: 5 })
          assert.instanceOf(yield* Effect.flip(accounts.connect({ workspaceId, baseUrl })), Forbidden)
        })))

    it.effect("completing the sign-in starts the warm-up with the profile given; the link works once", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const now = yield* Time.now
          const { id, token } = yield* connecting(workspaceId)
          assert.strictEqual((yield* accounts.byLink(token)).id, id)
          assert.instanceOf(yield* Effect.flip(accounts.completeConnection(otherWorkspaceId, id)), Missing)
          const account = yield* accounts.completeLink(token)
          assert.deepStrictEqual([account.status, account.connectedAt, account.warmup.day], ["warming", now.iso, 1])
          assert.isNotNull(account.budgets)
          const unknown = yield* Effect.flip(accounts.byLink(token))
          assert.strictEqual(unknown.message, "This sign-in link is unknown or has expired.")
          const again = yield* Effect.flip(accounts.completeConnection(workspaceId, id))
          assert.instanceOf(again, WrongState)
          const premium = yield* connected(workspaceId)
          assert.deepStrictEqual([premium.tier, premium.connections], ["premium", 900])
          // A link is good for an hour.
          const late = yield* connecting(workspaceId)
          yield* TestClock.adjust(connectLinkTtlMs)
          assert.instanceOf(yield* Effect.flip(accounts.completeLink(late.token)), Missing)
        })))

    it.effect("settings change what is given; a new zone alone moves the working hours", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const { id } = yield* connected(workspaceId)
          const changed = yield* accounts.update(workspaceId, id, {
            mode: "autopilot",
            label: "Ada L.",
            minInviteQuality: 40,
            autoWithdrawDays: null,
            offHoursPolicy: "run",
            timezone: "Asia/Tokyo"
          })
          assert.deepStrictEqual(
            [changed.mode, changed.label, changed.offHoursPolicy, changed.workingHours.timezone, changed.workingHours.from],
            ["autopilot", "Ada L.", "run", "Asia/Tokyo", "09:00"]
          )
          assert.deepStrictEqual(changed.settings, { minInviteQuality: 40, autoWithdrawDays: null })
          assert.deepStrictEqual(yield* accounts.get(workspaceId, id), changed)
          const hours = { days: [6, 7], from: "10:00", to: "12:00", timezone: "UTC" }
          const moved = yield* accounts.update(workspaceId, id, { workingHours: hours })
          assert.deepStrictEqual([moved.workingHours.days, moved.workingHours.to, moved.mode], [[6, 7], "12:00", "autopilot"])
          assert.instanceOf(yield* Effect.flip(accounts.update(workspaceId, id, { timezone: "Asia/Tokyo", workingHours: hours })), Invalid)
          assert.instanceOf(yield* Effect.flip(accounts.update(otherWorkspaceId, id, { label: "x" })), Missing)
          assert.strictEqual((yield* accounts.get(workspaceId, id)).label, "Ada L.")
        })))

    it.effect("pause and resume move a connected account; any other status is refused", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const waiting = yield* connecting(workspaceId)
          const early = yield* Effect.flip(accounts.pause(workspaceId, waiting.id))
          assert.instanceOf(early, WrongState)
          assert.strictEqual(early.message, "The account is connecting; only a connected account can be paused.")
          const { id } = yield* connected(workspaceId)
          assert.instanceOf(yield* Effect.flip(accounts.pause(otherWorkspaceId, id)), Missing)
          yield* accounts.pause(workspaceId, id)
          yield* accounts.pause(workspaceId, id)
          assert.strictEqual((yield* accounts.get(workspaceId, id)).status, "paused")
          assert.strictEqual((yield* accounts.resume(workspaceId, id)).status, "warming")
          const twice = yield* Effect.flip(accounts.resume(workspaceId, id))
          assert.instanceOf(twice, WrongState)
          assert.strictEqual(twice.message, "The account is warming, not paused, stopped or restricted.")
          // Restricted by the network, it recovers reading only, for 7 days.
          yield* accounts.networkEvent(workspaceId, id, { type: "restricted", reason: "too many invites" })
          assert.strictEqual((yield* accounts.get(workspaceId, id)).status, "restricted")
          const recovering = yield* accounts.resume(workspaceId, id)
          assert.strictEqual(recovering.status, "warming")
          assert.isString(recovering.health.readsOnlyUntil)
          // Red health stops it; resumed, it comes back yellow.
          yield* accounts.networkEvent(workspaceId, id, { type: "health", level: "red" })
          assert.strictEqual((yield* accounts.get(workspaceId, id)).status, "stopped")
          assert.strictEqual((yield* accounts.resume(workspaceId, id)).health.level, "yellow")
        })))

    it.effect("a signed-out account must reconnect: a new link, refused while it is connected", () =>
      backend.withFixture(({ workspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const { id } = yield* connected(workspaceId)
          const needless = yield* Effect.flip(accounts.reconnect(workspaceId, id, baseUrl))
          assert.instanceOf(needless, WrongState)
          const out = yield* accounts.networkEvent(workspaceId, id, { type: "signed_out" })
          assert.strictEqual(out.status, "reconnect_required")
          const url = yield* accounts.reconnect(workspaceId, id, baseUrl)
          assert.strictEqual((yield* accounts.get(workspaceId, id)).reconnectUrl, url)
          const back = yield* accounts.completeLink(url.slice(url.lastIndexOf("/") + 1))
          assert.deepStrictEqual([back.status, back.tier, back.connections, back.reconnectUrl], ["warming", "premium", 900, null])
          assert.instanceOf(yield* Effect.flip(accounts.pause(workspaceId, (yield* connecting(workspaceId)).id)), WrongState)
        })))

    it.effect("a native sign-in stops at the sandbox's checkpoint; a wrong code may be retried", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const { id } = yield* connecting(workspaceId)
          const password = Redacted.make("secret")
          assert.instanceOf(yield* Effect.flip(accounts.nativeAuth(otherWorkspaceId, id, { username: "ada-2fa", password })), Missing)
          const none = yield* Effect.flip(accounts.nativeCheckpoint(workspaceId, id, passingCode))
          assert.instanceOf(none, WrongState)
          const stopped = yield* accounts.nativeAuth(workspaceId, id, { username: "ada-2fa@example.com", password })
          assert.deepStrictEqual([stopped.status, stopped.checkpoint?.type, stopped.account.status], ["checkpoint", "2fa", "connecting"])
          const wrong = yield* Effect.flip(accounts.nativeCheckpoint(workspaceId, id, "123456"))
          assert.instanceOf(wrong, Invalid)
          assert.strictEqual(wrong.message, "The code is not right.")
          const passed = yield* accounts.nativeCheckpoint(workspaceId, id, passingCode)
          assert.deepStrictEqual([passed.status, passed.checkpoint, passed.account.status], ["connected", null, "warming"])
          assert.instanceOf(yield* Effect.flip(accounts.nativeAuth(workspaceId, id, { username: "ada", password })), WrongState)
          const direct = yield* accounts.nativeAuth(workspaceId, (yield* connecting(workspaceId)).id, { username: "grace", password })
          assert.deepStrictEqual([direct.status, direct.account.status], ["connected", "warming"])
        })))

    it.effect("limits: a value above the tier's ceiling is capped, a lower one kept, an unlimited pair refused", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId }) =>
        Effect.gen(function*() {
          const accounts = yield* Accounts
          const { id } = yield* connected(workspaceId)
          const before = yield* accounts.limits(workspaceId, id)
          assert.strictEqual(before.tier, "premium")
          const weekly = (limits: typeof before.limits) => limits.find((l) => l.category === "invites" && l.period === "weekly")
          const ceiling = weekly(before.limits)?.ceiling ?? 0
          yield* accounts.setLimits(workspaceId, id, [{ category: "invites", period: "weekly", maxValue: ceiling + 1000 }])
          assert.deepStrictEqual(
            [weekly((yield* accounts.limits(workspaceId, id)).limits)?.maxValue, weekly((yield* accounts.limits(workspaceId, id)).limits)?.source],
            [ceiling, "user"]
          )
          yield* accounts.setLimits(workspaceId, id, [{ category: "invites", period: "weekly", maxValue: 7 }])
          assert.strictEqual(weekly((yield* accounts.limits(workspaceId, id)).limits)?.maxValue, 7)
          const unlimited = yield* Effect.flip(accounts.setLimits(workspaceId, id, [{ category: "invites", period: "monthly", maxValue: 1 }]))
          assert.instanceOf(unlimited, Invalid)
          assert.strictEqual(unlimited.message, "The service does not limit invites/monthly.")
          assert.instanceOf(yield* Effect.flip(accounts.limits(otherWorkspaceId, id)), Missing)
          assert.instanceOf(yield* Effect.flip(accounts.setLimits(otherWorkspaceId, id, [])), Missing)
        })))
  })
