/**
 * Accounts (connected seats) and their lifecycle: connect (a seat is taken
 * under a lock on the workspace, so concurrent connects never exceed the
 * total), settings, pause and resume, restriction recovery, reconnection, and
 * the limits behind the budgets. Every change is written in one transaction
 * with the events it emits.
 *
 * @since 1.0.0
 */
import { createHash, randomBytes } from "node:crypto"
import { Array as Arr, Context, Effect, Layer, type Redacted, Result, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import type { Account, Seats } from "../api/AccountsApi.ts"
import { Conflict, NotAllowed, NotFound, Unprocessable } from "../api/Errors.ts"
import { connectLinkTtlMs, type Mode, type OffHoursPolicy, pausableStatuses, productsOfTier } from "../domain/Account.ts"
import { applyLimitUpdates, type Limit, type LimitOverride, type LimitUpdate, limitsFor, type Tier } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { recoverFromRestriction, startWarmup } from "../domain/Warmup.ts"
import { defaultWorkingHours, type WorkingHours } from "../domain/WorkingHours.ts"
import type { NewEvent } from "../domain/Events.ts"
import { Outbox } from "../events/Outbox.ts"
import { type AccountProfile, NetworkDriver, type SignInStep } from "../network/NetworkDriver.ts"
import { AccountChanges } from "./AccountChanges.ts"
import { limitOverridesOf, usageOf } from "./Budgets.ts"
import { accountColumns, AccountRow, statusAt, toAccount, warmupOf, workingHoursOf } from "./AccountRow.ts"

type AccountView = typeof Account.Type

/** A change of settings (`PATCH /v1/accounts/{id}`). */
export interface AccountPatch {
  readonly label?: string
  readonly timezone?: string
  readonly workingHours?: WorkingHours
  readonly offHoursPolicy?: OffHoursPolicy
  readonly minInviteQuality?: number
  readonly autoWithdrawDays?: number | null
  readonly mode?: Mode
}

/** What the network did to an account (sandbox events, and later the real driver's sync). */
export type NetworkEvent =
  | { readonly type: "signed_out"; readonly reason?: string | undefined }
  | { readonly type: "restricted"; readonly reason?: string | undefined }
  | { readonly type: "health"; readonly level: "green" | "yellow" | "red"; readonly reason?: string | undefined }

/** The outcome of a native sign-in step. */
export interface SignInOutcome {
  readonly status: "connected" | "checkpoint"
  readonly checkpoint: { readonly type: "2fa" | "otp" | "captcha" | "in_app_approval"; readonly message: string } | null
  readonly account: AccountView
}

const decodeAccounts = Schema.decodeUnknownEffect(Schema.Array(AccountRow))

/** The answer for an account that is not in the workspace (or was removed). */
export const accountNotFound = (id: string) =>
  new NotFound({
    error: { message: `No account ${id} in this workspace.`, next: "List the workspace's accounts with GET /v1/accounts." }
  })

/** `timezone` and `workingHours.timezone`, when both are given, must name the same zone. */
const zonesAgree = (input: { readonly timezone?: string | undefined; readonly workingHours?: WorkingHours | undefined }) =>
  input.timezone !== undefined && input.workingHours !== undefined && input.timezone !== input.workingHours.timezone
    ? Effect.fail(
      new Unprocessable({
        error: {
          message: `timezone (${input.timezone}) and workingHours.timezone (${input.workingHours.timezone}) disagree.`,
          next: "Send one of them, or the same zone in both."
        }
      })
    )
    : Effect.void

const hashLink = (token: string) => createHash("sha256").update(token).digest("hex")

export class Accounts extends Context.Service<Accounts, {
  readonly list: (workspaceId: string) => Effect.Effect<{ accounts: ReadonlyArray<AccountView>; seats: typeof Seats.Type }>
  readonly connect: (input: {
    readonly workspaceId: string
    readonly baseUrl: string
    readonly label?: string | undefined
    readonly timezone?: string | undefined
    readonly workingHours?: WorkingHours | undefined
  }) => Effect.Effect<
    { readonly account: AccountView; readonly connectUrl: string; readonly expiresAt: string },
    NotAllowed | Unprocessable
  >
  readonly get: (workspaceId: string, id: string) => Effect.Effect<AccountView, NotFound>
  readonly update: (workspaceId: string, id: string, patch: AccountPatch) => Effect.Effect<
    AccountView,
    NotFound | Unprocessable
  >
  readonly remove: (workspaceId: string, id: string) => Effect.Effect<void, NotFound>
  readonly pause: (workspaceId: string, id: string) => Effect.Effect<void, NotFound | Conflict>
  readonly resume: (workspaceId: string, id: string) => Effect.Effect<AccountView, NotFound | Conflict>
  readonly reconnect: (workspaceId: string, id: string, baseUrl: string) => Effect.Effect<string, NotFound | Conflict>
  readonly nativeAuth: (workspaceId: string, id: string, credentials: {
    readonly username: string
    readonly password: Redacted.Redacted<string>
    readonly country?: string | undefined
  }) => Effect.Effect<SignInOutcome, NotFound | Conflict | Unprocessable>
  readonly nativeCheckpoint: (workspaceId: string, id: string, code: string | undefined) => Effect.Effect<
    SignInOutcome,
    NotFound | Conflict | Unprocessable
  >
  readonly limits: (workspaceId: string, id: string) => Effect.Effect<
    { readonly tier: Tier; readonly limits: ReadonlyArray<Limit> },
    NotFound
  >
  readonly setLimits: (workspaceId: string, id: string, updates: ReadonlyArray<LimitUpdate>) => Effect.Effect<
    AccountView,
    NotFound | Unprocessable
  >
  /** The person finished signing in through the link (the sandbox page), or the sandbox says so. */
  readonly completeConnection: (
    workspaceId: string,
    id: string,
    profile?: Partial<AccountProfile>
  ) => Effect.Effect<AccountView, NotFound | Conflict>
  /** Completes the sign-in of the account a link belongs to. */
  readonly completeLink: (token: string) => Effect.Effect<AccountView, NotFound | Conflict>
  /** The account a live sign-in link belongs to. */
  readonly byLink: (token: string) => Effect.Effect<AccountView, NotFound>
  /** Applies what the network did to the account. */
  readonly networkEvent: (workspaceId: string, id: string, event: NetworkEvent) => Effect.Effect<
    AccountView,
    NotFound | Conflict
  >
}>()("outreach/Accounts") {
  static readonly layerNoDeps = Layer.effect(
    Accounts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const outbox = yield* Outbox
      const network = yield* NetworkDriver
      const changes = yield* AccountChanges
      const select = sql.unsafe(accountColumns)

      const rowsWhere = (where: Statement.Fragment) =>
        sql`SELECT ${select} FROM accounts a WHERE a.removed_at IS NULL AND ${where} ORDER BY a.created_at, a.id`.pipe(
          Effect.flatMap(decodeAccounts),
          Effect.orDie
        )

      const overridesOf = (accountId: string) => limitOverridesOf(sql, accountId)

      const view = (row: AccountRow) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          const overrides: ReadonlyArray<LimitOverride> = yield* overridesOf(row.id)
          const usage = yield* usageOf(sql, row.id, row.timezone, now.ms)
          return toAccount(row, overrides, usage, now.ms)
        })

      /** The account row, locked for the rest of the transaction. */
      const lockRow = (workspaceId: string, id: string) =>
        Effect.flatMap(
          sql`SELECT ${select} FROM accounts a
              WHERE a.id = ${id} AND a.workspace_id = ${workspaceId} AND a.removed_at IS NULL FOR UPDATE`.pipe(
            Effect.flatMap(decodeAccounts),
            Effect.orDie
          ),
          (rows) => rows.length === 0 ? Effect.fail(accountNotFound(id)) : Effect.succeed(rows[0])
        )

      const getRow = (workspaceId: string, id: string) =>
        Effect.flatMap(
          rowsWhere(sql`a.id = ${id} AND a.workspace_id = ${workspaceId}`),
          (rows) => rows.length === 0 ? Effect.fail(accountNotFound(id)) : Effect.succeed(rows[0])
        )

      /** Tells the network driver what is now recorded of the account (inside the recording transaction). */
      const recorded = (row: AccountRow, removed = false) =>
        network.accountRecorded === undefined ? Effect.void : network.accountRecorded({
          accountId: row.id,
          workspaceId: row.workspaceId,
          tier: row.tier,
          products: row.products,
          removed
        })

      /** Runs `change` on the locked row in a transaction, with the events it returns; answers the new view. */
      const transition = <E>(
        workspaceId: string,
        id: string,
        change: (row: AccountRow, nowMs: number) => Effect.Effect<ReadonlyArray<NewEvent>, E>
      ) =>
        sql.withTransaction(Effect.gen(function*() {
          const now = yield* Time.now
          const row = yield* lockRow(workspaceId, id)
          const events = yield* change(row, now.ms)
          yield* outbox.append(workspaceId, events)
          const changed = yield* getRow(workspaceId, id)
          yield* recorded(changed)
          return changed
        })).pipe(
          Effect.catchTag("SqlError", Effect.die),
          Effect.tap(() => changes.publish(id)),
          Effect.flatMap(view)
        )

      const update = (id: string, fields: Record<string, unknown>) =>
        Effect.flatMap(Time.now, (now) =>
          sql`UPDATE accounts SET ${sql.update({ ...fields, updated_at: now.iso })} WHERE id = ${id}`.pipe(
            Effect.asVoid,
            Effect.orDie
          ))

      const newLink = (baseUrl: string, nowMs: number) => {
        const token = randomBytes(24).toString("base64url")
        return {
          url: `${baseUrl.replace(/\/$/, "")}/connect/${token}`,
          fields: {
            link_hash: hashLink(token),
            link_url: `${baseUrl.replace(/\/$/, "")}/connect/${token}`,
            link_expires_at: Time.toIso(nowMs + connectLinkTtlMs)
          }
        }
      }

      const list = Effect.fn("Accounts.list")(function*(workspaceId: string) {
        const rows = yield* rowsWhere(sql`a.workspace_id = ${workspaceId}`)
        const accounts = yield* Effect.forEach(rows, view)
        const seats = yield* sql<{ readonly total: number }>`SELECT seats_total AS total FROM workspaces WHERE id = ${workspaceId}`
          .pipe(Effect.orDie)
        const pending = rows.filter((row) => row.status === "connecting").length
        return {
          accounts,
          seats: { used: rows.length - pending, pending, total: seats[0]?.total ?? 0 }
        }
      })

      const connect = Effect.fn("Accounts.connect")(function*(input: {
        readonly workspaceId: string
        readonly baseUrl: string
        readonly label?: string | undefined
        readonly timezone?: string | undefined
        readonly workingHours?: WorkingHours | undefined
      }) {
        yield* zonesAgree(input)
        const hours = input.workingHours ?? defaultWorkingHours(input.timezone ?? "UTC")
        const now = yield* Time.now
        const id = crypto.randomUUID()
        const link = newLink(input.baseUrl, now.ms)
        yield* sql.withTransaction(Effect.gen(function*() {
          // The workspace row lock serialises connects of one workspace: seats can never be oversold.
          // The count is a statement of its own, so it sees what the previous holder of the lock committed.
          const locked = yield* sql<{ readonly total: number }>`
            SELECT seats_total AS total FROM workspaces WHERE id = ${input.workspaceId} FOR UPDATE`
          const counted = yield* sql<{ readonly taken: number }>`
            SELECT count(*)::int AS taken FROM accounts WHERE workspace_id = ${input.workspaceId} AND removed_at IS NULL`
          const total = locked[0].total
          const taken = counted[0].taken
          if (taken >= total) {
            return yield* new NotAllowed({
              error: {
                message: `Every seat is in use (${taken} of ${total}).`,
                next: "Disconnect an account with DELETE /v1/accounts/{id}, or ask for more seats."
              }
            })
          }
          yield* sql`INSERT INTO accounts ${
            sql.insert({
              id,
              workspace_id: input.workspaceId,
              label: input.label ?? "",
              status: "connecting",
              working_days: JSON.stringify(hours.days),
              work_from: hours.from,
              work_to: hours.to,
              timezone: hours.timezone,
              created_at: now.iso,
              updated_at: now.iso,
              ...link.fields
            })
          }`
          yield* recorded(yield* getRow(input.workspaceId, id).pipe(Effect.orDie))
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        const account = yield* get(input.workspaceId, id).pipe(Effect.orDie)
        yield* Effect.logInfo("account connecting").pipe(Effect.annotateLogs({ accountId: id }))
        return { account, connectUrl: link.url, expiresAt: link.fields.link_expires_at }
      })

      const get = Effect.fn("Accounts.get")(function*(workspaceId: string, id: string) {
        return yield* view(yield* getRow(workspaceId, id))
      })

      const patch = Effect.fn("Accounts.update")(function*(workspaceId: string, id: string, input: AccountPatch) {
        yield* zonesAgree(input)
        return yield* transition(workspaceId, id, (row) => {
          const hours = input.workingHours ?? { ...workingHoursOf(row), timezone: input.timezone ?? row.timezone }
          const fields: Record<string, unknown> = {
            working_days: JSON.stringify(hours.days),
            work_from: hours.from,
            work_to: hours.to,
            timezone: hours.timezone
          }
          if (input.label !== undefined) fields["label"] = input.label
          if (input.offHoursPolicy !== undefined) fields["off_hours_policy"] = input.offHoursPolicy
          if (input.minInviteQuality !== undefined) fields["min_invite_quality"] = input.minInviteQuality
          if (input.autoWithdrawDays !== undefined) fields["auto_withdraw_days"] = input.autoWithdrawDays
          if (input.mode !== undefined) fields["mode"] = input.mode
          return Effect.as(update(row.id, fields), [])
        })
      })

      const remove = Effect.fn("Accounts.remove")(function*(workspaceId: string, id: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const now = yield* Time.now
          const row = yield* lockRow(workspaceId, id)
          yield* update(row.id, { removed_at: now.iso, link_hash: null, link_url: null })
          yield* recorded(row, true)
        })).pipe(Effect.catchTag("SqlError", Effect.die))
        yield* changes.publish(id)
        yield* Effect.logInfo("account disconnected").pipe(Effect.annotateLogs({ accountId: id }))
      })

      const pause = Effect.fn("Accounts.pause")(function*(workspaceId: string, id: string) {
        yield* transition(workspaceId, id, (row, nowMs) => {
          const status = statusAt(row, nowMs)
          if (status === "paused") return Effect.succeed([])
          if (!pausableStatuses.has(status)) {
            return Effect.fail(
              new Conflict({
                error: {
                  message: `The account is ${status}; only a connected account can be paused.`,
                  next: status === "connecting"
                    ? "Finish the sign-in first (connectUrl), or disconnect the account."
                    : "Reconnect the account first (POST /v1/accounts/{id}/reconnect)."
                }
              })
            )
          }
          return Effect.as(update(row.id, { status: "paused", resume_status: row.status }), [
            { type: "account.paused" as const, data: { accountId: row.id, reason: "paused by a person" } }
          ])
        })
      })

      const resume = Effect.fn("Accounts.resume")(function*(workspaceId: string, id: string) {
        return yield* transition(workspaceId, id, (row, nowMs) => {
          const restricted = row.status === "restricted" || (row.status === "paused" && row.resumeStatus === "restricted")
          if (row.status !== "paused" && row.status !== "stopped" && row.status !== "restricted") {
            return Effect.fail(
              new Conflict({
                error: {
                  message: `The account is ${statusAt(row, nowMs)}, not paused, stopped or restricted.`,
                  next: "Nothing to resume; GET /v1/accounts/{id} shows its status."
                }
              })
            )
          }
          const fields: Record<string, unknown> = { resume_status: null }
          if (restricted) {
            const warmup = warmupOf(row) ?? startWarmup(nowMs)
            const recovery = recoverFromRestriction(warmup, row.timezone, row.restrictedAt ?? nowMs)
            const readsOnlyUntil = nowMs + (recovery.readsOnlyUntil - (row.restrictedAt ?? nowMs))
            fields["status"] = "warming"
            fields["reads_only_until"] = Time.toIso(readsOnlyUntil)
            fields["warmup_started_at"] = Time.toIso(readsOnlyUntil)
            fields["warmup_start_day"] = recovery.warmup.startDay
            fields["restricted_at"] = null
            fields["health_reason"] = "recovering from a restriction: reads only until " + Time.toIso(readsOnlyUntil)
          } else {
            fields["status"] = row.status === "paused" ? (row.resumeStatus ?? "warming") : (row.resumeStatus ?? "warming")
            if (row.status === "stopped") {
              fields["health_level"] = "yellow"
              fields["health_reason"] = "resumed by a person after the service stopped it"
            }
          }
          return Effect.as(update(row.id, fields), [
            { type: "account.resumed" as const, data: { accountId: row.id, wasRestricted: restricted } }
          ])
        })
      })

      const reconnect = Effect.fn("Accounts.reconnect")(function*(workspaceId: string, id: string, baseUrl: string) {
        const account = yield* transition(workspaceId, id, (row, nowMs) => {
          if (row.status !== "reconnect_required" && row.status !== "connecting") {
            return Effect.fail(
              new Conflict({
                error: {
                  message: `The account is ${statusAt(row, nowMs)} and connected; it needs no reconnecting.`,
                  next: "Nothing to do; a link is only needed after the network signs the account out."
                }
              })
            )
          }
          return Effect.as(update(row.id, newLink(baseUrl, nowMs).fields), [])
        })
        return yield* getRow(workspaceId, account.id).pipe(
          Effect.map((row) => row.linkUrl ?? ""),
          Effect.orDie
        )
      })

      /** Marks the account connected (first time or again) and emits `account.connected`. */
      const markConnected = (row: AccountRow, nowMs: number, profile: AccountProfile) => {
        const reconnected = row.status === "reconnect_required"
        const fields: Record<string, unknown> = {
          tier: profile.tier,
          products: JSON.stringify(profile.products),
          connections: profile.connections,
          link_hash: null,
          link_url: null,
          link_expires_at: null,
          checkpoint: null
        }
        if (reconnected) {
          fields["status"] = row.resumeStatus ?? "warming"
          fields["resume_status"] = null
        } else {
          const warmup = startWarmup(nowMs)
          fields["status"] = "warming"
          fields["connected_at"] = Time.toIso(nowMs)
          fields["warmup_started_at"] = Time.toIso(warmup.startedAt)
          fields["warmup_start_day"] = warmup.startDay
        }
        return Effect.as(update(row.id, fields), [
          {
            type: "account.connected" as const,
            data: { accountId: row.id, tier: profile.tier, products: profile.products, reconnected }
          }
        ])
      }

      const awaitingSignIn = (row: AccountRow, nowMs: number) =>
        row.status === "connecting" || row.status === "reconnect_required"
          ? Effect.void
          : Effect.fail(
            new Conflict({
              error: {
                message: `The account is ${statusAt(row, nowMs)}; it is already signed in.`,
                next: "Nothing to do."
              }
            })
          )

      const completeConnection = Effect.fn("Accounts.completeConnection")(
        function*(workspaceId: string, id: string, profile?: Partial<AccountProfile>) {
          const reported = yield* network.profileOf(id)
          return yield* transition(workspaceId, id, (row, nowMs) => {
            // A reconnection keeps what is known of the account unless told otherwise.
            const known = row.status === "reconnect_required"
              ? { tier: row.tier, products: row.products, connections: row.connections ?? reported.connections }
              : reported
            // A tier given without products brings that tier's own products, not the network's guess.
            const products = profile?.products ?? (profile?.tier === undefined ? known.products : productsOfTier(profile.tier))
            return Effect.andThen(
              awaitingSignIn(row, nowMs),
              markConnected(row, nowMs, { ...known, ...profile, products })
            )
          })
        }
      )

      const rowByLink = (token: string) =>
        Effect.flatMap(
          Effect.flatMap(Time.now, (now) =>
            rowsWhere(sql`a.link_hash = ${hashLink(token)} AND a.link_expires_at > ${now.iso}::timestamptz`)),
          (rows) =>
            rows.length === 0
              ? Effect.fail(
                new NotFound({
                  error: {
                    message: "This sign-in link is unknown or has expired.",
                    next: "Ask for a new link: POST /v1/accounts/{id}/reconnect."
                  }
                })
              )
              : Effect.succeed(rows[0])
        )

      const byLink = Effect.fn("Accounts.byLink")(function*(token: string) {
        return yield* view(yield* rowByLink(token))
      })

      const completeLink = Effect.fn("Accounts.completeLink")(function*(token: string) {
        const row = yield* rowByLink(token)
        return yield* completeConnection(row.workspaceId, row.id)
      })

      const signInOutcome = (workspaceId: string, id: string, step: SignInStep) =>
        Effect.gen(function*() {
          switch (step._tag) {
            case "Connected": {
              const account = yield* transition(workspaceId, id, (row, nowMs) =>
                Effect.andThen(awaitingSignIn(row, nowMs), markConnected(row, nowMs, step.profile)))
              return { status: "connected" as const, checkpoint: null, account }
            }
            case "Checkpoint": {
              const account = yield* transition(workspaceId, id, (row) =>
                Effect.as(update(row.id, { checkpoint: step.checkpoint }), []))
              return {
                status: "checkpoint" as const,
                checkpoint: { type: step.checkpoint, message: step.message },
                account
              }
            }
            case "Rejected":
              return yield* new Unprocessable({
                error: { message: step.message, next: "Check the code and call native-checkpoint again." }
              })
          }
        })

      const nativeAuth = Effect.fn("Accounts.nativeAuth")(function*(
        workspaceId: string,
        id: string,
        credentials: {
          readonly username: string
          readonly password: Redacted.Redacted<string>
          readonly country?: string | undefined
        }
      ) {
        const now = yield* Time.now
        yield* Effect.flatMap(getRow(workspaceId, id), (row) => awaitingSignIn(row, now.ms))
        const step = yield* network.signIn({
          accountId: id,
          username: credentials.username,
          password: credentials.password,
          country: credentials.country
        })
        return yield* signInOutcome(workspaceId, id, step)
      })

      const nativeCheckpoint = Effect.fn("Accounts.nativeCheckpoint")(function*(
        workspaceId: string,
        id: string,
        code: string | undefined
      ) {
        const row = yield* getRow(workspaceId, id)
        if (
          row.checkpoint !== "2fa" && row.checkpoint !== "otp" && row.checkpoint !== "captcha" &&
          row.checkpoint !== "in_app_approval"
        ) {
          return yield* new Conflict({
            error: {
              message: "No sign-in checkpoint is pending for this account.",
              next: "Start with POST /v1/accounts/{id}/native-auth."
            }
          })
        }
        const step = yield* network.passCheckpoint({ accountId: id, checkpoint: row.checkpoint, code })
        return yield* signInOutcome(workspaceId, id, step)
      })

      const limits = Effect.fn("Accounts.limits")(function*(workspaceId: string, id: string) {
        const row = yield* getRow(workspaceId, id)
        return { tier: row.tier, limits: limitsFor(row.tier, yield* overridesOf(row.id)) }
      })

      const setLimits = Effect.fn("Accounts.setLimits")(function*(
        workspaceId: string,
        id: string,
        updates: ReadonlyArray<LimitUpdate>
      ) {
        return yield* transition(workspaceId, id, (row) =>
          Effect.gen(function*() {
            const current = yield* overridesOf(row.id)
            const next = applyLimitUpdates(row.tier, current, updates)
            if (Result.isFailure(next)) {
              return yield* new Unprocessable({
                error: {
                  message: `The service does not limit ${
                    next.failure.map((u) => `${u.category}/${u.period}`).join(", ")
                  }.`,
                  next: "GET /v1/accounts/{id}/limits lists every category and period that has a limit."
                }
              })
            }
            yield* sql`DELETE FROM account_limits WHERE account_id = ${row.id}`.pipe(Effect.orDie)
            const rows = next.success.map((o) => ({
              account_id: row.id,
              category: o.category,
              period: o.period,
              max_value: o.maxValue,
              is_enabled: o.isEnabled
            }))
            if (Arr.isArrayNonEmpty(rows)) {
              yield* sql`INSERT INTO account_limits ${sql.insert(rows)}`.pipe(Effect.orDie)
            }
            return []
          }))
      })

      const networkEvent = Effect.fn("Accounts.networkEvent")(function*(
        workspaceId: string,
        id: string,
        event: NetworkEvent
      ) {
        return yield* transition(workspaceId, id, (row, nowMs) => {
          const status = statusAt(row, nowMs)
          if (row.status === "connecting") {
            return Effect.fail(
              new Conflict({
                error: { message: "The account is still connecting.", next: "Complete the connection first." }
              })
            )
          }
          switch (event.type) {
            case "signed_out": {
              if (row.status === "reconnect_required") return Effect.succeed([])
              const reason = event.reason ?? "the network signed the account out"
              return Effect.as(
                update(row.id, { status: "reconnect_required", resume_status: status }),
                [{
                  type: "account.reconnection_required" as const,
                  data: { accountId: row.id, reason, needsHuman: true }
                }]
              )
            }
            case "restricted": {
              if (row.status === "restricted") return Effect.succeed([])
              const reason = event.reason ?? "the network restricted the account"
              return Effect.as(
                update(row.id, {
                  status: "restricted",
                  resume_status: null,
                  restricted_at: Time.toIso(nowMs),
                  health_reason: reason
                }),
                [{ type: "account.paused" as const, data: { accountId: row.id, reason } }]
              )
            }
            case "health": {
              const reason = event.reason ?? null
              if (event.level === "red" && row.status !== "stopped") {
                const pausedReason = `health turned red${reason === null ? "" : `: ${reason}`}`
                return Effect.as(
                  update(row.id, {
                    health_level: "red",
                    health_reason: reason,
                    status: "stopped",
                    resume_status: status === "paused" ? row.resumeStatus : status
                  }),
                  [{ type: "account.paused" as const, data: { accountId: row.id, reason: pausedReason } }]
                )
              }
              return Effect.as(update(row.id, { health_level: event.level, health_reason: reason }), [])
            }
          }
        })
      })

      return Accounts.of({
        list,
        connect,
        get,
        update: patch,
        remove,
        pause,
        resume,
        reconnect,
        nativeAuth,
        nativeCheckpoint,
        limits,
        setLimits,
        completeConnection,
        completeLink,
        byLink,
        networkEvent
      })
    })
  )
}
