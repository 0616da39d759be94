/**
 * The account routes' contract, fast: the service's own handlers (`http/AccountsHandlers.ts`)
 * behind the contract's middleware, called with the typed client in memory (`HttpApiTest`), on the
 * in-memory `Accounts` (held to the stored one by `test/accounts/AccountsContract.ts`), `Jobs` and
 * `ActivityLog`. Each test checks status codes, the envelope and error types as the spec states
 * them, bad input included. Accounts sign in through `native-auth` as the sandbox's do. The caller
 * is a stand-in owner key; which roles may manage seats is the gate's, tested with the whole
 * service (`test/http/Roles.test.ts`). The workspace's five seats are shared by the tests, so each
 * starts by disconnecting what the last one left.
 */
import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { HttpApiTest } from "effect/http-api"
import { Accounts } from "../../src/accounts/Accounts.ts"
import * as AccountsMemory from "../../src/accounts/AccountsMemory.ts"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import { Api } from "../../src/api/Api.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import { AccountsHandlers } from "../../src/http/AccountsHandlers.ts"
import * as JobsMemory from "../../src/jobs/JobsMemory.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { passingCode, sandboxSignIn } from "../../src/sandbox/SandboxDriver.ts"
import { defaultSeats } from "../../src/workspaces/Workspaces.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { assertEnvelope, inMemory, read, sending } from "../support/RouteCalls.ts"

const foreignWorkspaceId = "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f"

const services = inMemory(AccountsHandlers.pipe(
  Layer.provideMerge(Layer.mergeAll(AccountsMemory.layer({ network: sandboxSignIn, seats: defaultSeats }), ActivityMemory.layer, JobsMemory.layer([]))),
  Layer.provide([Notices.layer, ApprovalsMemory.tableLayer, AppConfig.layerWith({})])
))

const client = HttpApiTest.groups(Api, ["accounts"])

const password = Redacted.make("correct horse battery staple")

/** The workspace's seats all free again: every account left by an earlier test disconnected. */
const emptied = Effect.gen(function*() {
  const api = yield* client
  for (const account of (yield* api.accounts.list()).accounts) yield* api.accounts.remove({ params: { id: account.id } })
  return api
})

/** A new account of the caller's, connecting; its id. */
const connecting = (label = "Ada") =>
  Effect.gen(function*() {
    const api = yield* client
    return (yield* api.accounts.connect({ payload: { label } })).account.id
  })

/** A new account of the caller's, signed in (natively, without a checkpoint); its id. */
const connected = (label = "Ada") =>
  Effect.gen(function*() {
    const api = yield* client
    const id = yield* connecting(label)
    const outcome = yield* api.accounts.nativeAuth({ params: { id }, payload: { username: "grace@example.com", password } })
    assert.strictEqual(outcome.status, "connected")
    return id
  })

const unknownId = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"

layer(services)("the account routes in memory", (it) => {
  it.effect("POST connect answers 201 with the account connecting and its sign-in link; GET lists it with the seats", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const [made, response] = yield* api.accounts.connect({
        payload: { label: "Ada Lovelace", timezone: "Europe/Berlin" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 201)
      assert.isTrue(made.ok)
      assert.deepStrictEqual([made.account.status, made.account.label, made.account.workingHours.timezone], [
        "connecting",
        "Ada Lovelace",
        "Europe/Berlin"
      ])
      assert.match(made.connectUrl, /^http:\/\/.+\/connect\/[A-Za-z0-9_-]+$/)
      assert.isString(made.expiresAt)
      const [listed, listing] = yield* api.accounts.list({ responseMode: "decoded-and-response" })
      assert.strictEqual(listing.status, 200)
      assert.deepStrictEqual(listed, { ok: true, accounts: [made.account], seats: { used: 0, pending: 1, total: 5 } })
      const [got, getting] = yield* api.accounts.get({ params: { id: made.account.id }, responseMode: "decoded-and-response" })
      assert.strictEqual(getting.status, 200)
      assert.deepStrictEqual(got, { ok: true, account: made.account })
      // An empty body is a connect with the defaults.
      const plain = yield* api.accounts.connect({ payload: {} })
      assert.deepStrictEqual([plain.account.label, plain.account.workingHours.timezone], ["", "UTC"])
    })))

  it.effect("a connect with every seat in use is 403 notAllowed; one with two zones that disagree is 422 unprocessable", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const hours = { days: [1, 2, 3], from: "08:00", to: "16:00", timezone: "America/New_York" }
      const zones = yield* api.accounts.connect({ payload: { timezone: "UTC", workingHours: hours }, responseMode: "response-only" })
      const disagree = assertEnvelope(yield* read(zones), 422, "unprocessable")
      assert.strictEqual(disagree.message, "timezone (UTC) and workingHours.timezone (America/New_York) disagree.")
      assert.strictEqual(disagree.next, "Send one of them, or the same zone in both.")
      for (const label of ["a", "b", "c", "d", "e"]) yield* connecting(label)
      const full = assertEnvelope(yield* read(yield* api.accounts.connect({ payload: {}, responseMode: "response-only" })), 403, "notAllowed")
      assert.strictEqual(full.message, "Every seat is in use (5 of 5).")
      assert.strictEqual(full.next, "Disconnect an account with DELETE /v1/accounts/{id}, or ask for more seats.")
      assert.strictEqual((yield* Effect.flip(api.accounts.connect({ payload: {} })))._tag, "NotAllowed")
      assert.deepStrictEqual((yield* api.accounts.list()).seats, { used: 0, pending: 5, total: 5 })
    })))

  it.effect("an unknown account, or another workspace's, is 404 notFound on every route", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const foreign = (yield* (yield* Accounts).connect({ workspaceId: foreignWorkspaceId, baseUrl: "http://elsewhere.test" })).account.id
      for (const id of [unknownId, foreign]) {
        const params = { id }
        const answers = [
          yield* api.accounts.get({ params, responseMode: "response-only" }),
          yield* api.accounts.update({ params, payload: { label: "x" }, responseMode: "response-only" }),
          yield* api.accounts.remove({ params, responseMode: "response-only" }),
          yield* api.accounts.pause({ params, responseMode: "response-only" }),
          yield* api.accounts.resume({ params, responseMode: "response-only" }),
          yield* api.accounts.reconnect({ params, responseMode: "response-only" }),
          yield* api.accounts.nativeAuth({ params, payload: { username: "ada", password }, responseMode: "response-only" }),
          yield* api.accounts.nativeCheckpoint({ params, payload: { code: passingCode }, responseMode: "response-only" }),
          yield* api.accounts.limits({ params, responseMode: "response-only" }),
          yield* api.accounts.setLimits({
            params,
            payload: { limits: [{ category: "invites", period: "weekly", maxValue: 10 }] },
            responseMode: "response-only"
          })
        ]
        for (const answer of answers) {
          const error = assertEnvelope(yield* read(answer), 404, "notFound")
          assert.strictEqual(error.message, `No account ${id} in this workspace.`)
          assert.strictEqual(error.next, "List the workspace's accounts with GET /v1/accounts.")
        }
      }
      assert.strictEqual((yield* Effect.flip(api.accounts.get({ params: { id: foreign } })))._tag, "NotFound")
      // Nothing of the other workspace's account changed.
      assert.strictEqual((yield* (yield* Accounts).get(foreignWorkspaceId, foreign)).status, "connecting")
    })))

  it.effect("PATCH answers 200 with the settings changed and records them; two zones that disagree are 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connected()
      const [changed, response] = yield* api.accounts.update({
        params: { id },
        payload: { mode: "autopilot", minInviteQuality: 0, autoWithdrawDays: null, timezone: "Asia/Tokyo" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(
        [changed.account.mode, changed.account.settings, changed.account.workingHours.timezone],
        ["autopilot", { minInviteQuality: 0, autoWithdrawDays: null }, "Asia/Tokyo"]
      )
      const recorded = (yield* (yield* ActivityLog).list(callerWorkspaceId, { limit: 10 })).entries.map((entry) => entry.action)
      assert.includeMembers(recorded, ["seat.mode_changed", "seat.settings_changed"])
      const hours = { days: [6, 7], from: "10:00", to: "12:00", timezone: "UTC" }
      const zones = yield* api.accounts.update({ params: { id }, payload: { timezone: "Asia/Tokyo", workingHours: hours }, responseMode: "response-only" })
      assertEnvelope(yield* read(zones), 422, "unprocessable")
      assert.strictEqual((yield* api.accounts.get({ params: { id } })).account.workingHours.timezone, "Asia/Tokyo")
    })))

  it.effect("pause and resume answer 200; a status they cannot move from is 409 conflict", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const waiting = yield* connecting()
      const early = assertEnvelope(yield* read(yield* api.accounts.pause({ params: { id: waiting }, responseMode: "response-only" })), 409, "conflict")
      assert.strictEqual(early.message, "The account is connecting; only a connected account can be paused.")
      assert.strictEqual(early.next, "Finish the sign-in first (connectUrl), or disconnect the account.")
      const id = yield* connected()
      const [paused, pausing] = yield* api.accounts.pause({ params: { id }, responseMode: "decoded-and-response" })
      assert.strictEqual(pausing.status, 200)
      assert.deepStrictEqual(paused, { ok: true })
      assert.strictEqual((yield* api.accounts.get({ params: { id } })).account.status, "paused")
      const [resumed, resuming] = yield* api.accounts.resume({ params: { id }, responseMode: "decoded-and-response" })
      assert.strictEqual(resuming.status, 200)
      assert.strictEqual(resumed.account.status, "warming")
      const twice = assertEnvelope(yield* read(yield* api.accounts.resume({ params: { id }, responseMode: "response-only" })), 409, "conflict")
      assert.strictEqual(twice.next, "Nothing to resume; GET /v1/accounts/{id} shows its status.")
      assert.strictEqual((yield* Effect.flip(api.accounts.resume({ params: { id } })))._tag, "Conflict")
    })))

  it.effect("reconnect answers 200 with a link for an account still connecting, 409 for a connected one", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const [link, response] = yield* api.accounts.reconnect({ params: { id: yield* connecting() }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.match(link.reconnectUrl, /^http:\/\/.+\/connect\/[A-Za-z0-9_-]+$/)
      const id = yield* connected()
      const needless = assertEnvelope(yield* read(yield* api.accounts.reconnect({ params: { id }, responseMode: "response-only" })), 409, "conflict")
      assert.strictEqual(needless.next, "Nothing to do; a link is only needed after the network signs the account out.")
    })))

  it.effect("native sign-in answers a checkpoint; a wrong code is 422 to retry, a right one connects, none pending is 409", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connecting()
      const none = assertEnvelope(
        yield* read(yield* api.accounts.nativeCheckpoint({ params: { id }, payload: { code: passingCode }, responseMode: "response-only" })),
        409,
        "conflict"
      )
      assert.strictEqual(none.next, "Start with POST /v1/accounts/{id}/native-auth.")
      const [stopped, response] = yield* api.accounts.nativeAuth({
        params: { id },
        payload: { username: "ada-otp@example.com", password, country: "GB" },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual([stopped.status, stopped.checkpoint?.type, stopped.account.status], ["checkpoint", "otp", "connecting"])
      const wrong = assertEnvelope(
        yield* read(yield* api.accounts.nativeCheckpoint({ params: { id }, payload: { code: "123456" }, responseMode: "response-only" })),
        422,
        "unprocessable"
      )
      assert.deepStrictEqual([wrong.message, wrong.next], ["The code is not right.", "Check the code and call native-checkpoint again."])
      const passed = yield* api.accounts.nativeCheckpoint({ params: { id }, payload: { code: passingCode } })
      assert.deepStrictEqual([passed.status, passed.checkpoint, passed.account.status], ["connected", null, "warming"])
      const signedIn = yield* api.accounts.nativeAuth({ params: { id }, payload: { username: "ada", password }, responseMode: "response-only" })
      assert.strictEqual(assertEnvelope(yield* read(signedIn), 409, "conflict").next, "Nothing to do.")
    })))

  it.effect("limits: GET answers 200 with the tier's; PUT caps at the ceiling, and an unlimited pair is 422", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connected()
      const [before, response] = yield* api.accounts.limits({ params: { id }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      const weekly = before.limits.find((limit) => limit.category === "invites" && limit.period === "weekly")
      assert.isDefined(weekly)
      const ceiling = weekly?.ceiling ?? 0
      const [set, setting] = yield* api.accounts.setLimits({
        params: { id },
        payload: { limits: [{ category: "invites", period: "weekly", maxValue: ceiling + 500 }] },
        responseMode: "decoded-and-response"
      })
      assert.strictEqual(setting.status, 200)
      assert.strictEqual(set.account.id, id)
      const after = (yield* api.accounts.limits({ params: { id } })).limits.find((l) => l.category === "invites" && l.period === "weekly")
      assert.deepStrictEqual([after?.maxValue, after?.source], [ceiling, "user"])
      const unlimited = yield* api.accounts.setLimits({
        params: { id },
        payload: { limits: [{ category: "invites", period: "monthly", maxValue: 1 }] },
        responseMode: "response-only"
      })
      const error = assertEnvelope(yield* read(unlimited), 422, "unprocessable")
      assert.strictEqual(error.message, "The service does not limit invites/monthly.")
      assert.strictEqual(error.next, "GET /v1/accounts/{id}/limits lists every category and period that has a limit.")
    })))

  it.effect("DELETE answers 200 and frees the seat; the account is 404 afterwards", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const id = yield* connected()
      const [removed, response] = yield* api.accounts.remove({ params: { id }, responseMode: "decoded-and-response" })
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(removed, { ok: true })
      assertEnvelope(yield* read(yield* api.accounts.get({ params: { id }, responseMode: "response-only" })), 404, "notFound")
      assertEnvelope(yield* read(yield* api.accounts.remove({ params: { id }, responseMode: "response-only" })), 404, "notFound")
      assert.deepStrictEqual((yield* api.accounts.list()).seats, { used: 0, pending: 0, total: 5 })
    })))

  it.effect("a malformed body or id is 400 badRequest naming what is wrong, and changes nothing", () =>
    Effect.scoped(Effect.gen(function*() {
      const api = yield* emptied
      const connect = api.accounts.connect({ payload: {}, responseMode: "response-only" })
      for (
        const [body, field] of [
          [{ label: "x".repeat(81) }, "label"],
          [{ label: 7 }, "label"],
          [{ timezone: "Mars/Olympus" }, "timezone"],
          [{ workingHours: { days: [8], from: "09:00", to: "18:00", timezone: "UTC" } }, "days"],
          [{ workingHours: { days: [1], from: "9am", to: "18:00", timezone: "UTC" } }, "from"]
        ] as const
      ) {
        const error = assertEnvelope(yield* read(yield* connect.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, field, JSON.stringify(body))
      }
      assert.deepStrictEqual((yield* api.accounts.list()).accounts, [])
      const id = yield* connected()
      const update = api.accounts.update({ params: { id }, payload: {}, responseMode: "response-only" })
      for (
        const [body, field] of [
          [{ minInviteQuality: 101 }, "minInviteQuality"],
          [{ autoWithdrawDays: 0 }, "autoWithdrawDays"],
          [{ mode: "turbo" }, "mode"],
          [{ offHoursPolicy: "never" }, "offHoursPolicy"]
        ] as const
      ) {
        const error = assertEnvelope(yield* read(yield* update.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, field, JSON.stringify(body))
      }
      const setLimits = api.accounts.setLimits({
        params: { id },
        payload: { limits: [{ category: "invites", period: "weekly", maxValue: 1 }] },
        responseMode: "response-only"
      })
      for (
        const body of [
          { limits: [] },
          { limits: [{ category: "invites", period: "weekly", maxValue: -1 }] },
          { limits: [{ category: "hugs", period: "weekly", maxValue: 1 }] }
        ]
      ) {
        const error = assertEnvelope(yield* read(yield* setLimits.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, "limits", JSON.stringify(body))
      }
      const nativeAuth = api.accounts.nativeAuth({ params: { id }, payload: { username: "ada", password }, responseMode: "response-only" })
      for (
        const [body, field] of [
          [{ username: "ada" }, "password"],
          [{ username: "ada", password: "x", country: "GBR" }, "country"],
          [{ username: "x".repeat(321), password: "x" }, "username"]
        ] as const
      ) {
        const error = assertEnvelope(yield* read(yield* nativeAuth.pipe(sending({ body }))), 400, "badRequest")
        assert.include(error.message, field, JSON.stringify(body))
      }
      const notUuid = yield* api.accounts.get({ params: { id }, responseMode: "response-only" }).pipe(sending({ path: "/v1/accounts/not-an-id" }))
      assert.include(assertEnvelope(yield* read(notUuid), 400, "badRequest").message, "id")
      const account = (yield* api.accounts.get({ params: { id } })).account
      assert.deepStrictEqual([account.mode, account.settings.minInviteQuality, account.offHoursPolicy], ["approve", 30, "queue"])
      const limits = (yield* api.accounts.limits({ params: { id } })).limits
      assert.isTrue(limits.every((limit) => limit.source !== "user"))
    })))
})
