/**
 * Workspaces (organisations): created by the operator CLI or at first start,
 * each with its seats and an owner key. People and their sessions belong here
 * too, ready for the dashboard's sign-in.
 */
import { Context, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { type Workspace, type WorkspaceChange, WorkspaceTable } from "../accounts/WorkspaceTable.ts"
import { Invalid, Missing } from "../domain/Failures.ts"
import { Credentials } from "../auth/Credentials.ts"
import { isKeyValue, newSessionToken } from "../auth/Tokens.ts"
import type { Role } from "../domain/Principal.ts"
import * as Time from "../domain/Time.ts"
import { defaultFor, type WorkspaceNetwork } from "../domain/WorkspaceNetwork.ts"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { liveRefusal } from "../network/unipile/Config.ts"
import { Sessions } from "../team/Sessions.ts"
import { Users } from "../team/Users.ts"
import { AppConfig, type AppSettings } from "../platform/AppConfig.ts"

/** The default number of seats of a new workspace. */
export const defaultSeats = 5

export { Workspace } from "../accounts/WorkspaceTable.ts"

/** The failure of a workspace that is not there. */
export const workspaceNotFound = (id: string) =>
  new Missing({ message: `No workspace ${id}.`, advice: { _tag: "ListWorkspaces" } })

/**
 * The network of a new workspace: the one asked for, or the default `OUTREACH_NETWORK` names;
 * a live one is refused when this server cannot reach real seats (no Unipile settings, or the test clock).
 */
export const networkOfNew = (config: AppSettings, asked: WorkspaceNetwork | undefined) => {
  const network = asked ?? defaultFor(config.network)
  const refused = network === "live" ? liveRefusal(config) : undefined
  return refused === undefined
    ? Effect.succeed(network)
    : Effect.fail(new Invalid({ message: `${refused}.`, advice: { _tag: "SandboxWorkspace" } }))
}

/** A workspace to create (`Workspaces.create`). */
export interface NewWorkspace {
  readonly name: string
  readonly seats?: number | undefined
  readonly network?: WorkspaceNetwork | undefined
  readonly keyValue?: string | undefined
}

/** A person to add and sign in (`Workspaces.createSession`). */
export interface NewSession {
  readonly workspaceId: string
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly ttlHours?: number | undefined
}

export class Workspaces extends Context.Service<Workspaces, {
  /**
   * Creates a workspace on its network (the given one, or the default `OUTREACH_NETWORK` names)
   * with an owner key (the given value, or a new one) and returns the key value once. A live
   * workspace is refused when this server cannot reach real seats (no Unipile settings, or the test clock).
   */
  readonly create: (input: NewWorkspace) => Effect.Effect<{ readonly workspace: Workspace; readonly keyValue: string }, Invalid>
  readonly list: Effect.Effect<ReadonlyArray<Workspace>>
  readonly get: (id: string) => Effect.Effect<Workspace, Missing>
  readonly setSeats: (id: string, seats: number) => Effect.Effect<Workspace, Missing>
  readonly setStatus: (id: string, status: Workspace["status"]) => Effect.Effect<Workspace, Missing>
  /** Adds a person and signs them in: returns a session token (shown once). */
  readonly createSession: (input: NewSession) => Effect.Effect<{ readonly userId: string; readonly token: string }, Missing>
}>()("outreach/Workspaces") {
  static readonly layerNoDeps = Layer.effect(
    Workspaces,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const keys = yield* ApiKeys
      const credentials = yield* Credentials
      const sessions = yield* Sessions
      const users = yield* Users
      const table = yield* WorkspaceTable
      const config = yield* AppConfig

      const create = Effect.fn("Workspaces.create")(function*(input: NewWorkspace) {
        const network = yield* networkOfNew(config, input.network)
        const now = yield* Time.now
        return yield* sql.withTransaction(Effect.gen(function*() {
          const workspace = yield* table.insert({
            id: crypto.randomUUID(),
            name: input.name,
            seatsTotal: input.seats ?? defaultSeats,
            network,
            nowIso: now.iso
          })
          const created = yield* keys.create({ workspaceId: workspace.id, name: "Owner key", value: input.keyValue })
          return { workspace, keyValue: created.value }
        })).pipe(Effect.orDie)
      })

      const list = table.list.pipe(Effect.withSpan("Workspaces.list"))

      const found = (id: string) => (row: Workspace | undefined) =>
        row === undefined ? Effect.fail(workspaceNotFound(id)) : Effect.succeed(row)
      const update = (id: string, change: WorkspaceChange) => Effect.flatMap(table.update(id, change), found(id))

      const get = Effect.fn("Workspaces.get")((id: string) => Effect.flatMap(table.get(id), found(id)))

      const setSeats = Effect.fn("Workspaces.setSeats")((id: string, seats: number) => update(id, { seatsTotal: seats }))
      const setStatus = Effect.fn("Workspaces.setStatus")((id: string, status: Workspace["status"]) =>
        update(id, { status }).pipe(Effect.tap(() => credentials.forgetWorkspace(id)))
      )

      const createSession = Effect.fn("Workspaces.createSession")(function*(input: NewSession) {
        yield* get(input.workspaceId)
        const now = yield* Time.now
        const token = yield* newSessionToken
        const expires = Time.toIso(now.ms + (input.ttlHours ?? 12) * 3_600_000)
        const userId = yield* sql.withTransaction(Effect.gen(function*() {
          const userId = yield* users.upsert({
            workspaceId: input.workspaceId,
            email: input.email,
            name: input.name,
            role: input.role,
            nowIso: now.iso
          })
          yield* sessions.record({ userId, token, createdAt: now.iso, expiresAt: expires })
          return userId
        })).pipe(Effect.orDie)
        return { userId, token }
      })

      return Workspaces.of({ create, list, get, setSeats, setStatus, createSession })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Workspaces.layerNoDeps.pipe(Layer.provide([ApiKeys.layer, Credentials.layer, Sessions.layer, Users.layer, WorkspaceTable.layer]))
}

/**
 * Makes sure there is a way in at start: with `OUTREACH_BOOTSTRAP_KEY`, a
 * workspace owning that key (idempotent); without it, on an empty database, a
 * new workspace whose key is printed once.
 */
export const bootstrap = Effect.gen(function*() {
  const config = yield* AppConfig
  const workspaces = yield* Workspaces
  const keys = yield* ApiKeys
  if (Option.isSome(config.bootstrapKey)) {
    const value = Redacted.value(config.bootstrapKey.value)
    if (!isKeyValue(value)) {
      return yield* Effect.die(
        new Error("OUTREACH_BOOTSTRAP_KEY must be `svc_` followed by 43 base64url characters (256 random bits).")
      )
    }
    if (yield* keys.exists(value)) return
    const { workspace } = yield* workspaces.create({ name: "Default workspace", keyValue: value }).pipe(Effect.orDie)
    yield* Effect.logInfo("created a workspace for OUTREACH_BOOTSTRAP_KEY").pipe(
      Effect.annotateLogs({ workspaceId: workspace.id })
    )
    return
  }
  const existing = yield* workspaces.list
  if (existing.length > 0) return
  const { keyValue, workspace } = yield* workspaces.create({ name: "Default workspace" }).pipe(Effect.orDie)
  yield* Effect.logInfo("first start: created a workspace").pipe(Effect.annotateLogs({ workspaceId: workspace.id }))
  // Printed once, on stdout, so the operator can copy it; it is never stored in clear.
  yield* Effect.sync(() => process.stdout.write(`\nYour API key (shown once, keep it safe):\n\n  ${keyValue}\n\n`))
}).pipe(Effect.withSpan("Workspaces.bootstrap"))
