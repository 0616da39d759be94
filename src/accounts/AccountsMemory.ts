/**
 * `Accounts` in memory, for fast tests of the account routes without a database: the stored
 * service's rules (`Lifecycle.ts` decides every change, `AccountRow.ts` gives the API form, the
 * links are made and hashed by `Accounts.ts`), for one process. Every workspace has the seats it
 * is given (the tests give what a new workspace gets), and a connect takes one only while one is
 * free; removed accounts are gone. Accounts sign in through the network's sign-in it is given (the
 * tests give the sandbox's, `SandboxDriver.sandboxSignIn`, so the checkpoints, codes and profiles
 * are the stored service's on the sandbox) and show that network's capabilities. What comes from
 * elsewhere in the stored service is left out: no job runs here, so nothing is spent of a budget;
 * no sync runs, so no invitation is pending; and the events a change emits are not kept (there is
 * no outbox).
 */
import { Context, Effect, Layer, Result } from "effect"
import type { LimitOverride, LimitUpdate } from "../domain/Limits.ts"
import { limitsFor } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import { defaultWorkingHours, type WorkingHours } from "../domain/WorkingHours.ts"
import type { AccountProfile, NetworkDriverShape, SignInStep } from "../network/NetworkDriver.ts"
import { type AccountRow, toAccount } from "./AccountRow.ts"
import { accountNotFound, Accounts, hashLink, linkUnknown, newLink, signInRejected } from "./Accounts.ts"
import { capabilitiesOf } from "./Capabilities.ts"
import * as Lifecycle from "./Lifecycle.ts"
import type { AccountPatch, AccountUpdate, Change, NetworkEvent } from "./Lifecycle.ts"

/** An account as kept here: its row, the hash of its live sign-in link, its limit overrides. */
interface Kept {
  readonly row: AccountRow
  readonly linkHash: string | null
  readonly overrides: ReadonlyArray<LimitOverride>
}

const iso = (ms: number | null) => ms === null ? null : Time.toIso(ms)

/** The account after `update`, as the store writes it: a field left out is kept. */
const updated = (kept: Kept, update: AccountUpdate): Kept => {
  const { link, workingHours, connectedAt, ...same } = update
  return {
    ...kept,
    row: {
      ...kept.row,
      ...same,
      ...(connectedAt === undefined ? {} : { connectedAt: iso(connectedAt) }),
      ...(link === undefined ? {} : { linkUrl: link?.url ?? null, linkExpiresAt: iso(link?.expiresAt ?? null) }),
      ...(workingHours === undefined ? {} : {
        workingDays: workingHours.days,
        workFrom: workingHours.from,
        workTo: workingHours.to,
        timezone: workingHours.timezone
      })
    },
    ...(link === undefined ? {} : { linkHash: link?.hash ?? null })
  }
}

/** A new account, connecting, as the table's defaults make it. */
const newRow = (input: {
  readonly id: string
  readonly workspaceId: string
  readonly label: string
  readonly workingHours: WorkingHours
  readonly linkUrl: string
  readonly linkExpiresAt: number
  readonly nowMs: number
}): AccountRow => ({
  id: input.id,
  workspaceId: input.workspaceId,
  label: input.label,
  status: "connecting",
  resumeStatus: null,
  tier: "free",
  products: [],
  healthLevel: "green",
  healthReason: null,
  pausedUntil: null,
  readsOnlyUntil: null,
  restrictedAt: null,
  connections: null,
  minInviteQuality: 30,
  autoWithdrawDays: 21,
  warmupStartedAt: null,
  warmupStartDay: 1,
  workingDays: input.workingHours.days,
  workFrom: input.workingHours.from,
  workTo: input.workingHours.to,
  timezone: input.workingHours.timezone,
  offHoursPolicy: "queue",
  mode: "approve",
  linkUrl: input.linkUrl,
  linkExpiresAt: Time.toIso(input.linkExpiresAt),
  checkpoint: null,
  connectedAt: null,
  createdAt: Time.toIso(input.nowMs)
})

/** The part of a network driver the accounts sign in through. */
export type SignIn = Pick<NetworkDriverShape, "name" | "capabilities" | "signIn" | "passCheckpoint" | "profileOf">

/** The rows the in-memory accounts keep, for the in-memory services that read an account's row (the reports' warm-up). */
export class AccountRowsMemory extends Context.Service<AccountRowsMemory, {
  /** The account's row; undefined once it is removed. */
  readonly row: (id: string) => Effect.Effect<AccountRow | undefined>
  /** The account's stored limit settings (none once it is removed), as the in-memory forecast plans with them. */
  readonly overrides: (id: string) => Effect.Effect<ReadonlyArray<LimitOverride>>
}>()("outreach/AccountRowsMemory") {}

/**
 * The in-memory `Accounts`, empty, signing in through `network`, with `seats` in every workspace, and
 * {@link AccountRowsMemory} over its rows; needs nothing.
 */
export const layer = (options: { readonly network: SignIn; readonly seats: number }) => Layer.effectContext(Effect.sync(() => {
  const { network, seats } = options
  const accounts = new Map<string, Kept>()
  const capabilities = capabilitiesOf(network)

  const inWorkspace = (workspaceId: string) =>
    [...accounts.values()]
      .filter((kept) => kept.row.workspaceId === workspaceId)
      .toSorted((a, b) =>
        a.row.createdAt === b.row.createdAt ? (a.row.id < b.row.id ? -1 : 1) : (a.row.createdAt < b.row.createdAt ? -1 : 1)
      )

  const view = (kept: Kept) => Effect.map(Time.now, (now) => toAccount(kept.row, kept.overrides, {}, 0, now.ms, capabilities))

  const find = (workspaceId: string, id: string) =>
    Effect.suspend(() => {
      const kept = accounts.get(id.toLowerCase())
      return kept === undefined || kept.row.workspaceId !== workspaceId ? Effect.fail(accountNotFound(id)) : Effect.succeed(kept)
    })

  /** Runs `rule` on the account and keeps what it changes; answers the account's new view. */
  const transition = <E>(workspaceId: string, id: string, rule: (kept: Kept, nowMs: number) => Result.Result<Change, E>) =>
    Effect.gen(function*() {
      const kept = yield* find(workspaceId, id)
      const now = yield* Time.now
      const change = yield* Effect.fromResult(rule(kept, now.ms))
      const after = change.update === null ? kept : updated(kept, change.update)
      accounts.set(kept.row.id, after)
      return yield* view(after)
    })

  const get = (workspaceId: string, id: string) => Effect.flatMap(find(workspaceId, id), view)

  const signedIn = (workspaceId: string, id: string, profile: (row: AccountRow) => AccountProfile) =>
    transition(workspaceId, id, (kept, nowMs) =>
      Result.map(Lifecycle.awaitingSignIn(kept.row, nowMs), () => Lifecycle.connected(kept.row, nowMs, profile(kept.row))))

  const completeConnection = (workspaceId: string, id: string, profile?: Partial<AccountProfile>) =>
    Effect.gen(function*() {
      const reported = yield* network.profileOf(id)
      return yield* signedIn(workspaceId, id, (row) => Lifecycle.completedProfile(row, reported, profile))
    })

  const byLinkKept = (token: string) =>
    Effect.gen(function*() {
      const now = yield* Time.now
      const hash = hashLink(token)
      const kept = [...accounts.values()].find((candidate) =>
        candidate.linkHash === hash && candidate.row.linkExpiresAt !== null && Date.parse(candidate.row.linkExpiresAt) > now.ms
      )
      return kept === undefined ? yield* Effect.fail(linkUnknown()) : kept
    })

  const signInOutcome = (workspaceId: string, id: string, step: SignInStep) =>
    Effect.gen(function*() {
      switch (step._tag) {
        case "Connected":
          return { status: "connected" as const, checkpoint: null, account: yield* signedIn(workspaceId, id, () => step.profile) }
        case "Checkpoint": {
          const account = yield* transition(workspaceId, id, () => Result.succeed(Lifecycle.checkpointPending(step.checkpoint)))
          return { status: "checkpoint" as const, checkpoint: { type: step.checkpoint, message: step.message }, account }
        }
        case "Rejected":
          return yield* signInRejected(step.message)
      }
    })

  const accountsOf = Accounts.of({
    list: (workspaceId) =>
      Effect.gen(function*() {
        const kept = inWorkspace(workspaceId)
        const pending = kept.filter((one) => one.row.status === "connecting").length
        return {
          accounts: yield* Effect.forEach(kept, view),
          seats: { used: kept.length - pending, pending, total: seats }
        }
      }),

    connect: (input) =>
      Effect.gen(function*() {
        yield* Effect.fromResult(Lifecycle.zonesAgree(input))
        const workingHours = input.workingHours ?? defaultWorkingHours(input.timezone ?? "UTC")
        const now = yield* Time.now
        const link = Lifecycle.issuedLink(newLink(input.baseUrl), now.ms)
        yield* Effect.fromResult(Lifecycle.seatFree(inWorkspace(input.workspaceId).length, seats))
        const id = crypto.randomUUID()
        const row = newRow({
          id,
          workspaceId: input.workspaceId,
          label: input.label ?? "",
          workingHours,
          linkUrl: link.url,
          linkExpiresAt: link.expiresAt,
          nowMs: now.ms
        })
        accounts.set(id, { row, linkHash: link.hash, overrides: [] })
        return { account: yield* get(input.workspaceId, id).pipe(Effect.orDie), connectUrl: link.url, expiresAt: Time.toIso(link.expiresAt) }
      }),

    get,

    update: (workspaceId, id, patch: AccountPatch) =>
      Effect.flatMap(
        Effect.fromResult(Lifecycle.zonesAgree(patch)),
        () => transition(workspaceId, id, (kept) => Result.succeed(Lifecycle.settings(kept.row, patch)))
      ),

    remove: (workspaceId, id) => Effect.map(find(workspaceId, id), (kept) => void accounts.delete(kept.row.id)),

    pause: (workspaceId, id) => Effect.asVoid(transition(workspaceId, id, (kept, nowMs) => Lifecycle.pause(kept.row, nowMs))),

    resume: (workspaceId, id) => transition(workspaceId, id, (kept, nowMs) => Lifecycle.resume(kept.row, nowMs)),

    reconnect: (workspaceId, id, baseUrl) =>
      Effect.gen(function*() {
        const link = newLink(baseUrl)
        yield* transition(workspaceId, id, (kept, nowMs) => Lifecycle.reconnect(kept.row, nowMs, link))
        return link.url
      }),

    nativeAuth: (workspaceId, id, credentials) =>
      Effect.gen(function*() {
        const kept = yield* find(workspaceId, id)
        yield* Effect.fromResult(Lifecycle.awaitingSignIn(kept.row, (yield* Time.now).ms))
        const step = yield* network.signIn({
          accountId: kept.row.id,
          username: credentials.username,
          password: credentials.password,
          country: credentials.country
        })
        return yield* signInOutcome(workspaceId, id, step)
      }),

    nativeCheckpoint: (workspaceId, id, code) =>
      Effect.gen(function*() {
        const kept = yield* find(workspaceId, id)
        const checkpoint = yield* Effect.fromResult(Lifecycle.checkpointToPass(kept.row))
        const step = yield* network.passCheckpoint({ accountId: kept.row.id, checkpoint, code })
        return yield* signInOutcome(workspaceId, id, step)
      }),

    limits: (workspaceId, id) =>
      Effect.map(find(workspaceId, id), (kept) => ({ tier: kept.row.tier, limits: limitsFor(kept.row.tier, kept.overrides) })),

    setLimits: (workspaceId, id, updates: ReadonlyArray<LimitUpdate>) =>
      Effect.gen(function*() {
        const kept = yield* find(workspaceId, id)
        const overrides = yield* Effect.fromResult(Lifecycle.limitOverrides(kept.row, kept.overrides, updates))
        accounts.set(kept.row.id, { ...kept, overrides })
        return yield* get(workspaceId, id)
      }),

    completeConnection,

    completeLink: (token) =>
      Effect.flatMap(byLinkKept(token), (kept) => completeConnection(kept.row.workspaceId, kept.row.id)),

    byLink: (token) => Effect.flatMap(byLinkKept(token), view),

    networkEvent: (workspaceId, id, event: NetworkEvent) =>
      transition(workspaceId, id, (kept, nowMs) => Lifecycle.networkEvent(kept.row, nowMs, event))
  })
  return Context.make(Accounts, accountsOf).pipe(
    Context.add(
      AccountRowsMemory,
      AccountRowsMemory.of({
        row: (id) => Effect.sync(() => accounts.get(id.toLowerCase())?.row),
        overrides: (id) => Effect.sync(() => accounts.get(id.toLowerCase())?.overrides ?? [])
      })
    )
  )
}))
