/**
 * Accounts (connected seats) and their lifecycle: connect (a seat is taken
 * under a lock on the workspace, so concurrent connects never exceed the
 * total), settings, pause and resume, restriction recovery, reconnection, and
 * the limits behind the budgets. Every change is written in one transaction
 * with the events it emits, and told to the network driver.
 *
 * This service sequences; the rules are elsewhere: what each request or
 * network event changes in `Lifecycle.ts` (pure), how it is stored in
 * `AccountStore.ts`.
 */
import { createHash, randomBytes } from "node:crypto"
import { Context, Effect, Layer, type Redacted } from "effect"
import type { Account, Seats } from "../domain/AccountRecord.ts"
import { Forbidden, Invalid, Missing, relayed, WrongState } from "../domain/Failures.ts"
import { limitsFor, type Limit, type LimitUpdate, type Tier } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { defaultWorkingHours, type WorkingHours } from "../domain/WorkingHours.ts"
import { Outbox } from "../events/Outbox.ts"
import { type AccountProfile, driverOf, NetworkDriver, type SignInStep } from "../network/NetworkDriver.ts"
import { capabilitiesOf } from "./Capabilities.ts"
import { AccountChanges } from "./AccountChanges.ts"
import { type AccountRow, toAccount } from "./AccountRow.ts"
import { AccountStore } from "./AccountStore.ts"
import { Invitations } from "./Invitations.ts"
import * as Lifecycle from "./Lifecycle.ts"
import type { AccountPatch, Change, NetworkEvent, SignInLink } from "./Lifecycle.ts"

export { accountNotFound } from "./AccountStore.ts"
export type { AccountPatch, NetworkEvent } from "./Lifecycle.ts"

type AccountView = typeof Account.Type

/** The outcome of a native sign-in step. */
export interface SignInOutcome {
  readonly status: "connected" | "checkpoint"
  readonly checkpoint: { readonly type: "2fa" | "otp" | "captcha" | "in_app_approval"; readonly message: string } | null
  readonly account: AccountView
}

/** How a sign-in link's token is kept: its hash alone. */
export const hashLink = (token: string) => createHash("sha256").update(token).digest("hex")

/** The answer for a sign-in link that is unknown, was used, or has expired. */
export const linkUnknown = () =>
  new Missing({ message: "This sign-in link is unknown or has expired.", advice: { _tag: "AskForNewLink" } })

/** The network turned the sign-in down (a wrong code, say): the person may try again. */
export const signInRejected = (message: string) => new Invalid({ message, advice: { _tag: "RetryCheckpoint" } })

/** A new sign-in link under `baseUrl`: its token is in the address and only its hash is kept. */
export const newLink = (baseUrl: string): SignInLink => {
  const token = randomBytes(24).toString("base64url")
  return { hash: hashLink(token), url: `${baseUrl.replace(/\/$/, "")}/connect/${token}` }
}

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
    Forbidden | Invalid
  >
  readonly get: (workspaceId: string, id: string) => Effect.Effect<AccountView, Missing>
  readonly update: (workspaceId: string, id: string, patch: AccountPatch) => Effect.Effect<
    AccountView,
    Missing | Invalid
  >
  readonly remove: (workspaceId: string, id: string) => Effect.Effect<void, Missing>
  readonly pause: (workspaceId: string, id: string) => Effect.Effect<void, Missing | WrongState>
  readonly resume: (workspaceId: string, id: string) => Effect.Effect<AccountView, Missing | WrongState>
  readonly reconnect: (workspaceId: string, id: string, baseUrl: string) => Effect.Effect<string, Missing | WrongState>
  readonly nativeAuth: (workspaceId: string, id: string, credentials: {
    readonly username: string
    readonly password: Redacted.Redacted<string>
    readonly country?: string | undefined
  }) => Effect.Effect<SignInOutcome, Missing | WrongState | Invalid>
  readonly nativeCheckpoint: (workspaceId: string, id: string, code: string | undefined) => Effect.Effect<
    SignInOutcome,
    Missing | WrongState | Invalid
  >
  readonly limits: (workspaceId: string, id: string) => Effect.Effect<
    { readonly tier: Tier; readonly limits: ReadonlyArray<Limit> },
    Missing
  >
  readonly setLimits: (workspaceId: string, id: string, updates: ReadonlyArray<LimitUpdate>) => Effect.Effect<
    AccountView,
    Missing | Invalid
  >
  /** The person finished signing in through the link (the sandbox page), or the sandbox says so. */
  readonly completeConnection: (
    workspaceId: string,
    id: string,
    profile?: Partial<AccountProfile>
  ) => Effect.Effect<AccountView, Missing | WrongState>
  /** Completes the sign-in of the account a link belongs to. */
  readonly completeLink: (token: string) => Effect.Effect<AccountView, Missing | WrongState>
  /** The account a live sign-in link belongs to. */
  readonly byLink: (token: string) => Effect.Effect<AccountView, Missing>
  /** Applies what the network did to the account. */
  readonly networkEvent: (workspaceId: string, id: string, event: NetworkEvent) => Effect.Effect<
    AccountView,
    Missing | WrongState
  >
}>()("outreach/Accounts") {
  /** The service; its store, the invitations, the outbox, the network driver and `AccountChanges` left open. */
  static readonly layerNoDeps = Layer.effect(
    Accounts,
    Effect.gen(function*() {
      const store = yield* AccountStore
      const outbox = yield* Outbox
      const network = yield* NetworkDriver
      const changes = yield* AccountChanges
      const invitations = yield* Invitations

      /** The accounts' API forms; their pending invitations counted in one query for them all. */
      const views = (rows: ReadonlyArray<AccountRow>) =>
        Effect.gen(function*() {
          const now = yield* Time.now
          const pending = yield* invitations.pendingCounts(rows.map((row) => row.id))
          return yield* Effect.forEach(rows, (row) =>
            Effect.gen(function*() {
              const overrides = yield* store.overrides(row.id)
              const usage = yield* store.usage(row, now.ms)
              // The network of the account's workspace (sandbox or live) says what it can run.
              const capabilities = capabilitiesOf(yield* driverOf(network, row.workspaceId))
              return toAccount(row, overrides, usage, pending.get(row.id) ?? 0, now.ms, capabilities)
            }))
        })
      const view = (row: AccountRow) => Effect.map(views([row]), (found) => found[0])

      /** Tells the network driver what is now recorded of the account (inside the recording transaction). */
      const recorded = (row: AccountRow, removed = false) =>
        network.accountRecorded === undefined ? Effect.void : network.accountRecorded({
          accountId: row.id,
          workspaceId: row.workspaceId,
          tier: row.tier,
          products: row.products,
          removed
        })

      /**
       * Runs `rule` on the locked account in one transaction: writes its update and its events, tells
       * the driver, and after the commit announces the change; answers the account's new view.
       */
      const transition = <E>(
        workspaceId: string,
        id: string,
        rule: (row: AccountRow, nowMs: number) => Effect.Effect<Change, E>
      ) =>
        store.transaction(Effect.gen(function*() {
          const now = yield* Time.now
          const row = yield* store.lock(workspaceId, id)
          const change = yield* rule(row, now.ms)
          if (change.update !== null) yield* store.update(row.id, change.update, now.ms)
          yield* outbox.append(workspaceId, change.events)
          const changed = yield* store.get(workspaceId, id)
          yield* recorded(changed)
          return changed
        })).pipe(
          Effect.tap(() => changes.publish(id)),
          Effect.flatMap(view)
        )

      const list = Effect.fn("Accounts.list")(function*(workspaceId: string) {
        const rows = yield* store.list(workspaceId)
        const accounts = yield* views(rows)
        const total = yield* store.seatsTotal(workspaceId)
        const pending = rows.filter((row) => row.status === "connecting").length
        return { accounts, seats: { used: rows.length - pending, pending, total } }
      })

      const connect = Effect.fn("Accounts.connect")(function*(input: {
        readonly workspaceId: string
        readonly baseUrl: string
        readonly label?: string | undefined
        readonly timezone?: string | undefined
        readonly workingHours?: WorkingHours | undefined
      }) {
        yield* Effect.fromResult(Lifecycle.zonesAgree(input))
        const workingHours = input.workingHours ?? defaultWorkingHours(input.timezone ?? "UTC")
        const now = yield* Time.now
        const id = crypto.randomUUID()
        const own = Lifecycle.issuedLink(newLink(input.baseUrl), now.ms)
        // A network with a sign-in page of its own (a provider's hosted sign-in) answers the link.
        const driver = yield* driverOf(network, input.workspaceId)
        const link = driver.signInLink === undefined ? own : {
          ...own,
          url: yield* driver.signInLink({
            accountId: id,
            workspaceId: input.workspaceId,
            reconnect: false,
            callbackBase: input.baseUrl,
            expiresAtMs: own.expiresAt
          }).pipe(Effect.mapError((error) => new Invalid(relayed(error))))
        }
        yield* store.transaction(Effect.gen(function*() {
          const seats = yield* store.lockSeats(input.workspaceId)
          yield* Effect.fromResult(Lifecycle.seatFree(seats.taken, seats.total))
          yield* store.insert({ id, workspaceId: input.workspaceId, label: input.label ?? "", workingHours, link }, now.ms)
          yield* recorded(yield* store.get(input.workspaceId, id).pipe(Effect.orDie))
        }))
        const account = yield* get(input.workspaceId, id).pipe(Effect.orDie)
        yield* Effect.logInfo("account connecting").pipe(Effect.annotateLogs({ accountId: id }))
        return { account, connectUrl: link.url, expiresAt: Time.toIso(link.expiresAt) }
      })

      const get = Effect.fn("Accounts.get")(function*(workspaceId: string, id: string) {
        return yield* view(yield* store.get(workspaceId, id))
      })

      const patch = Effect.fn("Accounts.update")(function*(workspaceId: string, id: string, input: AccountPatch) {
        yield* Effect.fromResult(Lifecycle.zonesAgree(input))
        return yield* transition(workspaceId, id, (row) => Effect.succeed(Lifecycle.settings(row, input)))
      })

      const remove = Effect.fn("Accounts.remove")(function*(workspaceId: string, id: string) {
        yield* store.transaction(Effect.gen(function*() {
          const now = yield* Time.now
          const row = yield* store.lock(workspaceId, id)
          yield* store.markRemoved(row.id, now.ms)
          yield* recorded(row, true)
        }))
        yield* changes.publish(id)
        yield* Effect.logInfo("account disconnected").pipe(Effect.annotateLogs({ accountId: id }))
      })

      const pause = Effect.fn("Accounts.pause")(function*(workspaceId: string, id: string) {
        yield* transition(workspaceId, id, (row, nowMs) => Effect.fromResult(Lifecycle.pause(row, nowMs)))
      })

      const resume = Effect.fn("Accounts.resume")(function*(workspaceId: string, id: string) {
        return yield* transition(workspaceId, id, (row, nowMs) => Effect.fromResult(Lifecycle.resume(row, nowMs)))
      })

      const reconnect = Effect.fn("Accounts.reconnect")(function*(workspaceId: string, id: string, baseUrl: string) {
        const own = newLink(baseUrl)
        const nowMs = (yield* Time.now).ms
        // An unknown account is refused before the network is asked for a link.
        const driver = yield* driverOf(network, workspaceId)
        if (driver.signInLink !== undefined) yield* store.get(workspaceId, id)
        const link = driver.signInLink === undefined ? own : {
          ...own,
          url: yield* driver.signInLink({
            accountId: id,
            workspaceId,
            reconnect: true,
            callbackBase: baseUrl,
            expiresAtMs: Lifecycle.issuedLink(own, nowMs).expiresAt
          }).pipe(Effect.mapError((error) => new WrongState(relayed(error))))
        }
        yield* transition(workspaceId, id, (row, nowMs) => Effect.fromResult(Lifecycle.reconnect(row, nowMs, link)))
        return link.url
      })

      /** The account signed in with `profile`, if it was waiting for a sign-in. */
      const signedIn = (workspaceId: string, id: string, profile: (row: AccountRow) => AccountProfile) =>
        transition(workspaceId, id, (row, nowMs) =>
          Effect.as(Effect.fromResult(Lifecycle.awaitingSignIn(row, nowMs)), Lifecycle.connected(row, nowMs, profile(row))))

      const completeConnection = Effect.fn("Accounts.completeConnection")(
        function*(workspaceId: string, id: string, profile?: Partial<AccountProfile>) {
          const reported = yield* network.profileOf(id)
          return yield* signedIn(workspaceId, id, (row) => Lifecycle.completedProfile(row, reported, profile))
        }
      )

      const rowByLink = (token: string) =>
        Effect.flatMap(Time.now, (now) => store.byLink(hashLink(token), now.ms)).pipe(
          Effect.flatMap((row) =>
            row === undefined
              ? Effect.fail(linkUnknown())
              : Effect.succeed(row)
          )
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
              const account = yield* signedIn(workspaceId, id, () => step.profile)
              return { status: "connected" as const, checkpoint: null, account }
            }
            case "Checkpoint": {
              const account = yield* transition(workspaceId, id, () =>
                Effect.succeed(Lifecycle.checkpointPending(step.checkpoint)))
              return {
                status: "checkpoint" as const,
                checkpoint: { type: step.checkpoint, message: step.message },
                account
              }
            }
            case "Rejected":
              return yield* signInRejected(step.message)
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
        yield* Effect.flatMap(store.get(workspaceId, id), (row) => Effect.fromResult(Lifecycle.awaitingSignIn(row, now.ms)))
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
        const checkpoint = yield* Effect.fromResult(Lifecycle.checkpointToPass(yield* store.get(workspaceId, id)))
        const step = yield* network.passCheckpoint({ accountId: id, checkpoint, code })
        return yield* signInOutcome(workspaceId, id, step)
      })

      const limits = Effect.fn("Accounts.limits")(function*(workspaceId: string, id: string) {
        const row = yield* store.get(workspaceId, id)
        return { tier: row.tier, limits: limitsFor(row.tier, yield* store.overrides(row.id)) }
      })

      const setLimits = Effect.fn("Accounts.setLimits")(function*(
        workspaceId: string,
        id: string,
        updates: ReadonlyArray<LimitUpdate>
      ) {
        return yield* transition(workspaceId, id, (row) =>
          Effect.gen(function*() {
            const next = yield* Effect.fromResult(Lifecycle.limitOverrides(row, yield* store.overrides(row.id), updates))
            yield* store.replaceOverrides(row.id, next)
            return { update: null, events: [] }
          }))
      })

      const networkEvent = Effect.fn("Accounts.networkEvent")(function*(
        workspaceId: string,
        id: string,
        event: NetworkEvent
      ) {
        return yield* transition(workspaceId, id, (row, nowMs) => Effect.fromResult(Lifecycle.networkEvent(row, nowMs, event)))
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

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Accounts.layerNoDeps.pipe(Layer.provide([AccountChanges.layer, AccountStore.layer, Invitations.layer, Outbox.layer]))
}
