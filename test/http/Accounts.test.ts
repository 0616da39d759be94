import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { commandNames } from "../../src/domain/Commands.ts"
import { Outbox } from "../../src/events/Outbox.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const connected = (token: string, body: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const created = yield* call("POST", "/v1/accounts/connect", { token, body: { label: "Ada", ...body } })
    assert.strictEqual(created.status, 201, JSON.stringify(created.body))
    const id: string = created.body.account.id
    const done = yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, {
      token,
      body: { tier: "premium", connections: 900 }
    })
    assert.strictEqual(done.status, 200, JSON.stringify(done.body))
    return { id, account: done.body.account }
  })

const eventsOf = (workspaceId: string) =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    return yield* outbox.list(workspaceId)
  })

layer(serverLayer())("accounts", (it) => {
  it.effect("connect takes a seat and returns a sign-in link; completing it starts the warm-up", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", {
        token: keyValue,
        body: { label: "Ada Lovelace", timezone: "Europe/Berlin" }
      })
      assert.strictEqual(created.status, 201)
      assert.strictEqual(created.body.account.status, "connecting")
      assert.strictEqual(created.body.account.label, "Ada Lovelace")
      assert.strictEqual(created.body.account.workingHours.timezone, "Europe/Berlin")
      assert.deepStrictEqual(created.body.account.workingHours.days, [1, 2, 3, 4, 5])
      assert.isNull(created.body.account.budgets)
      // The sandbox runs every command, and says so before any job does.
      assert.deepStrictEqual(created.body.account.capabilities, { network: "sandbox", commands: commandNames, notSupported: [] })
      assert.isNull(created.body.account.connectedAt)
      assert.match(created.body.connectUrl, /^http:\/\/.+\/connect\/[A-Za-z0-9_-]+$/)
      assert.isString(created.body.expiresAt)

      const listed = yield* call("GET", "/v1/accounts", { token: keyValue })
      assert.deepStrictEqual(listed.body.seats, { used: 0, pending: 1, total: 5 })

      const id = created.body.account.id
      const done = yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, {
        token: keyValue,
        body: { tier: "sales_nav", products: ["sales_navigator"], connections: 1200 }
      })
      assert.strictEqual(done.status, 200)
      const account = done.body.account
      assert.strictEqual(account.status, "warming")
      assert.strictEqual(account.tier, "sales_nav")
      assert.deepStrictEqual(account.products, ["sales_navigator"])
      assert.strictEqual(account.connections, 1200)
      assert.deepStrictEqual(account.warmup, { day: 1, of: 14 })
      assert.isString(account.connectedAt)
      // Day 1 of the ramp: 20% of sales_nav's 25 invites a day.
      assert.strictEqual(account.budgets.invites.today, 5)
      const after = yield* call("GET", "/v1/accounts", { token: keyValue })
      assert.deepStrictEqual(after.body.seats, { used: 1, pending: 0, total: 5 })

      const events = yield* eventsOf(workspace.id)
      assert.deepStrictEqual(events.map((e) => [e.type, e.data]), [
        ["account.connected", { accountId: id, tier: "sales_nav", products: ["sales_navigator"], reconnected: false }]
      ])
      const again = yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, { token: keyValue, body: {} })
      assert.strictEqual(again.status, 409)
    }))

  it.effect("the sign-in page: the person finishes connecting by hand, once", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const created = yield* call("POST", "/v1/accounts/connect", { token: keyValue, body: { label: "Grace <Hopper>" } })
      const path = new URL(created.body.connectUrl).pathname
      const form = yield* call("GET", path)
      assert.strictEqual(form.status, 200)
      assert.include(form.headers["content-type"], "text/html")
      assert.include(form.body, "Grace &lt;Hopper&gt;")
      assert.include(form.body, "<form method=\"post\">")
      const done = yield* call("POST", path)
      assert.strictEqual(done.status, 200)
      assert.include(done.body, "Connected")
      const account = yield* call("GET", `/v1/accounts/${created.body.account.id}`, { token: keyValue })
      assert.strictEqual(account.body.account.status, "warming")
      // A used (or expired, or unknown) link is a plain page for the person, not an API error.
      for (const used of [yield* call("GET", path), yield* call("POST", path), yield* call("GET", "/connect/no-such-link")]) {
        assert.strictEqual(used.status, 404)
        assert.include(used.headers["content-type"], "text/html")
        assert.include(used.body, "This sign-in link no longer works")
        assert.include(used.body, "ask for a new link")
      }
      const events = yield* eventsOf(workspace.id)
      assert.deepStrictEqual(events.map((e) => e.type), ["account.connected"])
    }))

  it.effect("never sells more seats than the workspace has, even when connects race", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      yield* (yield* Workspaces).setSeats(workspace.id, 3)
      const replies = yield* Effect.forEach(
        Array.from({ length: 8 }, () => undefined),
        () => call("POST", "/v1/accounts/connect", { token: keyValue, body: {} }),
        { concurrency: "unbounded" }
      )
      const statuses = replies.map((r) => r.status).sort()
      assert.deepStrictEqual(statuses, [201, 201, 201, 403, 403, 403, 403, 403])
      const refused = replies.find((r) => r.status === 403)!
      assert.strictEqual(refused.body.error.type, "notAllowed")
      const listed = yield* call("GET", "/v1/accounts", { token: keyValue })
      assert.deepStrictEqual(listed.body.seats, { used: 0, pending: 3, total: 3 })

      const removed = yield* call("DELETE", `/v1/accounts/${listed.body.accounts[0].id}`, { token: keyValue })
      assert.deepStrictEqual(removed.body, { ok: true })
      assert.strictEqual((yield* call("GET", `/v1/accounts/${listed.body.accounts[0].id}`, { token: keyValue })).status, 404)
      assert.strictEqual((yield* call("POST", "/v1/accounts/connect", { token: keyValue, body: {} })).status, 201)
    }))

  describe("PATCH ranges", () => {
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, number]> = [
      ["label of 80", { label: "x".repeat(80) }, 200],
      ["label of 81", { label: "x".repeat(81) }, 400],
      ["minInviteQuality 0", { minInviteQuality: 0 }, 200],
      ["minInviteQuality 100", { minInviteQuality: 100 }, 200],
      ["minInviteQuality 101", { minInviteQuality: 101 }, 400],
      ["minInviteQuality -1", { minInviteQuality: -1 }, 400],
      ["autoWithdrawDays null", { autoWithdrawDays: null }, 200],
      ["autoWithdrawDays 1", { autoWithdrawDays: 1 }, 200],
      ["autoWithdrawDays 90", { autoWithdrawDays: 90 }, 200],
      ["autoWithdrawDays 0", { autoWithdrawDays: 0 }, 400],
      ["autoWithdrawDays 91", { autoWithdrawDays: 91 }, 400],
      ["bad timezone", { timezone: "Mars/Olympus" }, 400],
      ["from after to", { workingHours: { days: [1], from: "18:00", to: "09:00", timezone: "UTC" } }, 400],
      ["from equal to", { workingHours: { days: [1], from: "09:00", to: "09:00", timezone: "UTC" } }, 400],
      ["bad mode", { mode: "yolo" }, 400],
      ["offHoursPolicy run", { offHoursPolicy: "run" }, 200],
      ["mode autopilot", { mode: "autopilot" }, 200],
      ["zones disagree", { timezone: "UTC", workingHours: { days: [1], from: "09:00", to: "17:00", timezone: "Asia/Tokyo" } }, 422]
    ]
    for (const [name, body, status] of cases) {
      it.effect(name, () =>
        Effect.gen(function*() {
          const { keyValue } = yield* newWorkspace()
          const { id } = yield* connected(keyValue)
          const reply = yield* call("PATCH", `/v1/accounts/${id}`, { token: keyValue, body })
          assert.strictEqual(reply.status, status, JSON.stringify(reply.body))
          if (status === 200) {
            const account = reply.body.account
            for (const [key, value] of Object.entries(body)) {
              if (key === "minInviteQuality" || key === "autoWithdrawDays") assert.deepStrictEqual(account.settings[key], value)
              else if (key !== "timezone" && key !== "workingHours") assert.deepStrictEqual(account[key], value)
            }
          } else {
            assert.strictEqual(reply.body.ok, false)
          }
        }))
    }

    it.effect("a timezone moves the working hours; the hours are reported open or not", () =>
      Effect.gen(function*() {
        const { keyValue } = yield* newWorkspace()
        const { id } = yield* connected(keyValue)
        const reply = yield* call("PATCH", `/v1/accounts/${id}`, {
          token: keyValue,
          body: { workingHours: { days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59", timezone: "Asia/Tokyo" } }
        })
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.body.account.workingHours.timezone, "Asia/Tokyo")
        const moved = yield* call("PATCH", `/v1/accounts/${id}`, { token: keyValue, body: { timezone: "America/New_York" } })
        assert.strictEqual(moved.body.account.workingHours.timezone, "America/New_York")
        assert.deepStrictEqual(moved.body.account.workingHours.days, [1, 2, 3, 4, 5, 6, 7])
        assert.isBoolean(moved.body.account.workingHours.openNow)
      }))
  })

  it.effect("pause and resume emit their events; pausing a connecting account is a conflict", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const { id } = yield* connected(keyValue)
      assert.deepStrictEqual((yield* call("POST", `/v1/accounts/${id}/pause`, { token: keyValue })).body, { ok: true })
      assert.strictEqual((yield* call("GET", `/v1/accounts/${id}`, { token: keyValue })).body.account.status, "paused")
      assert.strictEqual((yield* call("POST", `/v1/accounts/${id}/pause`, { token: keyValue })).status, 200)
      const resumed = yield* call("POST", `/v1/accounts/${id}/resume`, { token: keyValue })
      assert.strictEqual(resumed.status, 200)
      assert.strictEqual(resumed.body.account.status, "warming")
      assert.strictEqual((yield* call("POST", `/v1/accounts/${id}/resume`, { token: keyValue })).status, 409)
      const events = yield* eventsOf(workspace.id)
      assert.deepStrictEqual(events.map((e) => e.type), ["account.connected", "account.paused", "account.resumed"])
      assert.deepStrictEqual(events[2].data, { accountId: id, wasRestricted: false })

      const pending = yield* call("POST", "/v1/accounts/connect", { token: keyValue, body: {} })
      const conflict = yield* call("POST", `/v1/accounts/${pending.body.account.id}/pause`, { token: keyValue })
      assert.strictEqual(conflict.status, 409)
      assert.strictEqual(conflict.body.error.type, "conflict")
    }))

  it.effect("a restricted account resumes to reads only for 7 days, then warms up again at half its level", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const { id } = yield* connected(keyValue)
      // Finish the 14-day ramp: the account is active at full budgets.
      yield* TestClock.adjust("15 days")
      const active = yield* call("GET", `/v1/accounts/${id}`, { token: keyValue })
      assert.strictEqual(active.body.account.status, "active")
      assert.strictEqual(active.body.account.budgets.invites.today, 20)

      const restricted = yield* call("POST", `/v1/sandbox/accounts/${id}/events`, {
        token: keyValue,
        body: { type: "restricted", reason: "too many invitations" }
      })
      assert.strictEqual(restricted.body.account.status, "restricted")
      const resumed = yield* call("POST", `/v1/accounts/${id}/resume`, { token: keyValue })
      assert.strictEqual(resumed.status, 200)
      const readsOnlyUntil = Date.parse(resumed.body.account.health.readsOnlyUntil)
      const now = Date.parse(resumed.body.account.workingHours.nextOpening ?? new Date(0).toISOString())
      assert.isAbove(readsOnlyUntil, 0)
      assert.isAbove(readsOnlyUntil, now - 8 * 86_400_000)

      yield* TestClock.adjust("7 days")
      yield* TestClock.adjust("1 hour")
      const recovered = yield* call("GET", `/v1/accounts/${id}`, { token: keyValue })
      assert.isNull(recovered.body.account.health.readsOnlyUntil)
      assert.strictEqual(recovered.body.account.status, "warming")
      // Half of a finished ramp: day 5 (45%) of 20 invites = 9.
      assert.strictEqual(recovered.body.account.warmup.day, 5)
      assert.strictEqual(recovered.body.account.budgets.invites.today, 9)

      const events = yield* eventsOf(workspace.id)
      assert.deepStrictEqual(events.slice(-2).map((e) => [e.type, e.data]), [
        ["account.paused", { accountId: id, reason: "too many invitations" }],
        ["account.resumed", { accountId: id, wasRestricted: true }]
      ])
    }))

  it.effect("signed out: reconnect_required with a link; signing in again emits connected with reconnected", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const { id } = yield* connected(keyValue)
      const out = yield* call("POST", `/v1/sandbox/accounts/${id}/events`, { token: keyValue, body: { type: "signed_out" } })
      assert.strictEqual(out.body.account.status, "reconnect_required")
      const link = yield* call("POST", `/v1/accounts/${id}/reconnect`, { token: keyValue })
      assert.strictEqual(link.status, 200)
      assert.match(link.body.reconnectUrl, /\/connect\//)
      const view = yield* call("GET", `/v1/accounts/${id}`, { token: keyValue })
      assert.strictEqual(view.body.account.reconnectUrl, link.body.reconnectUrl)
      const back = yield* call("POST", `/v1/sandbox/accounts/${id}/complete-connection`, { token: keyValue, body: {} })
      assert.strictEqual(back.body.account.status, "warming")
      assert.isNull(back.body.account.reconnectUrl)
      const events = yield* eventsOf(workspace.id)
      assert.deepStrictEqual(events.slice(-2).map((e) => [e.type, e.data]), [
        ["account.reconnection_required", { accountId: id, reason: "the network signed the account out", needsHuman: true }],
        ["account.connected", { accountId: id, tier: "premium", products: [], reconnected: true }]
      ])
      assert.strictEqual((yield* call("POST", `/v1/accounts/${id}/reconnect`, { token: keyValue })).status, 409)
    }))

  it.effect("health: yellow halves budgets, red stops the account and emits account.paused", () =>
    Effect.gen(function*() {
      const { keyValue, workspace } = yield* newWorkspace()
      const { id } = yield* connected(keyValue)
      yield* TestClock.adjust("15 days")
      const yellow = yield* call("POST", `/v1/sandbox/accounts/${id}/events`, {
        token: keyValue,
        body: { type: "health", level: "yellow", reason: "low acceptance" }
      })
      assert.strictEqual(yellow.body.account.health.level, "yellow")
      assert.strictEqual(yellow.body.account.budgets.invites.today, 10)
      const red = yield* call("POST", `/v1/sandbox/accounts/${id}/events`, {
        token: keyValue,
        body: { type: "health", level: "red", reason: "warning from the network" }
      })
      assert.strictEqual(red.body.account.status, "stopped")
      assert.strictEqual(red.body.account.budgets.invites.today, 0)
      const resumed = yield* call("POST", `/v1/accounts/${id}/resume`, { token: keyValue })
      assert.strictEqual(resumed.body.account.status, "active")
      assert.strictEqual(resumed.body.account.health.level, "yellow")
      const events = yield* eventsOf(workspace.id)
      assert.deepStrictEqual(events.slice(-2).map((e) => e.type), ["account.paused", "account.resumed"])
      assert.strictEqual((events.at(-2)!.data as { reason: string }).reason, "health turned red: warning from the network")
    }))

  it.effect("native sign-in: checkpoints by username, the code 000000 passes, a wrong code is 422", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const direct = yield* call("POST", "/v1/accounts/connect", { token: keyValue, body: {} })
      const signedIn = yield* call("POST", `/v1/accounts/${direct.body.account.id}/native-auth`, {
        token: keyValue,
        body: { username: "ada@example.com", password: "secret", country: "GB" }
      })
      assert.strictEqual(signedIn.status, 200, JSON.stringify(signedIn.body))
      assert.strictEqual(signedIn.body.status, "connected")
      assert.strictEqual(signedIn.body.account.status, "warming")

      for (const [username, type] of [["ada+2fa@x.io", "2fa"], ["otp.ada@x.io", "otp"], ["captcha@x.io", "captcha"], ["app@x.io", "in_app_approval"]]) {
        const pending = yield* call("POST", "/v1/accounts/connect", { token: keyValue, body: {} })
        const id = pending.body.account.id
        const step = yield* call("POST", `/v1/accounts/${id}/native-auth`, {
          token: keyValue,
          body: { username, password: "secret" }
        })
        assert.strictEqual(step.body.status, "checkpoint")
        assert.strictEqual(step.body.checkpoint.type, type)
        if (type !== "in_app_approval") {
          const wrong = yield* call("POST", `/v1/accounts/${id}/native-checkpoint`, { token: keyValue, body: { code: "123456" } })
          assert.strictEqual(wrong.status, 422)
        }
        const passed = yield* call("POST", `/v1/accounts/${id}/native-checkpoint`, {
          token: keyValue,
          body: type === "in_app_approval" ? {} : { code: "000000" }
        })
        assert.strictEqual(passed.body.status, "connected")
        const none = yield* call("POST", `/v1/accounts/${id}/native-checkpoint`, { token: keyValue, body: { code: "000000" } })
        assert.strictEqual(none.status, 409)
        yield* call("DELETE", `/v1/accounts/${id}`, { token: keyValue })
      }
      const tooLong = yield* call("POST", `/v1/accounts/${direct.body.account.id}/native-auth`, {
        token: keyValue,
        body: { username: "x".repeat(321), password: "y".repeat(201), country: "GBR" }
      })
      assert.strictEqual(tooLong.status, 400)
      for (const field of ["body.username", "body.password", "body.country"]) assert.include(tooLong.body.error.message, field)
      assert.notInclude(tooLong.body.error.message, "y".repeat(201))
    }))

  it.effect("limits: every category with default and ceiling; PUT caps at the ceiling and keeps lower values", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const { id } = yield* connected(keyValue)
      const limits = yield* call("GET", `/v1/accounts/${id}/limits`, { token: keyValue })
      assert.strictEqual(limits.body.tier, "premium")
      const invitesWeekly = limits.body.limits.find((l: { category: string; period: string }) =>
        l.category === "invites" && l.period === "weekly"
      )
      assert.deepStrictEqual(invitesWeekly, {
        category: "invites",
        period: "weekly",
        default: 100,
        ceiling: 200,
        maxValue: 100,
        isEnabled: true,
        source: "default"
      })
      const put = yield* call("PUT", `/v1/accounts/${id}/limits`, {
        token: keyValue,
        body: { limits: [{ category: "invites", period: "weekly", maxValue: 500 }, { category: "invites", period: "daily", maxValue: 3 }] }
      })
      assert.strictEqual(put.status, 200, JSON.stringify(put.body))
      const after = yield* call("GET", `/v1/accounts/${id}/limits`, { token: keyValue })
      const find = (category: string, period: string) =>
        after.body.limits.find((l: { category: string; period: string }) => l.category === category && l.period === period)
      assert.strictEqual(find("invites", "weekly").maxValue, 200)
      assert.strictEqual(find("invites", "weekly").source, "user")
      assert.strictEqual(find("invites", "daily").maxValue, 3)
      // Day 1 of the warm-up: 20% of 3 rounds down to 0.
      assert.strictEqual(put.body.account.budgets.invites.today, 0)

      const empty = yield* call("PUT", `/v1/accounts/${id}/limits`, { token: keyValue, body: { limits: [] } })
      assert.strictEqual(empty.status, 400)
      const negative = yield* call("PUT", `/v1/accounts/${id}/limits`, {
        token: keyValue,
        body: { limits: [{ category: "invites", period: "daily", maxValue: -1 }] }
      })
      assert.strictEqual(negative.status, 400)
      const unknown = yield* call("PUT", `/v1/accounts/${id}/limits`, {
        token: keyValue,
        body: { limits: [{ category: "posts", period: "monthly", maxValue: 1 }] }
      })
      assert.strictEqual(unknown.status, 422)
    }))

  it.effect("unknown and malformed account ids: 404 and 400 in the envelope", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      const missing = yield* call("GET", `/v1/accounts/${crypto.randomUUID()}`, { token: keyValue })
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(missing.body.error.type, "notFound")
      const malformed = yield* call("GET", "/v1/accounts/not-a-uuid", { token: keyValue })
      assert.strictEqual(malformed.status, 400)
      const other = yield* newWorkspace("Other")
      const theirs = yield* connected(other.keyValue)
      assert.strictEqual((yield* call("GET", `/v1/accounts/${theirs.id}`, { token: keyValue })).status, 404)
    }))
})
