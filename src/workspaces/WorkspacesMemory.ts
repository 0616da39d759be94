/**
 * `Workspaces` in memory, for fast tests of the routes that read the caller's workspace (`GET
 * /v1/me` with a session) without a database: the rules of the stored workspaces
 * (`Workspaces.ts`), for one process. A workspace is created on the network asked for or the
 * configured default (a live one refused as the stored service refuses it), with its seats (5
 * unless told) and an owner key made by the `ApiKeys` it is given; workspaces are listed oldest
 * first; seats and status change in place. A session adds the person (one per workspace and
 * email, as the table's unique key) and returns a new session token; nothing signs in with these
 * tokens, so no session is kept and there is no credentials' cache to forget
 * a suspended workspace from.
 */
import { Effect, Layer } from "effect"
import type { Workspace, WorkspaceChange } from "../accounts/WorkspaceTable.ts"
import { newSessionToken } from "../auth/Tokens.ts"
import * as Time from "../domain/Time.ts"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { defaultSeats, networkOfNew, type NewSession, type NewWorkspace, workspaceNotFound, Workspaces } from "./Workspaces.ts"

/** The in-memory `Workspaces`; needs the `ApiKeys` that make their owner keys, and the `AppConfig` that names the default network. */
export const layer = Layer.effect(
  Workspaces,
  Effect.gen(function*() {
    const keys = yield* ApiKeys
    const config = yield* AppConfig
    const rows: Array<Workspace> = []
    /** The people of each workspace: their id by workspace and email. */
    const users = new Map<string, string>()

    const found = (id: string) =>
      Effect.suspend(() => {
        const row = rows.find((candidate) => candidate.id === id)
        return row === undefined ? Effect.fail(workspaceNotFound(id)) : Effect.succeed(row)
      })

    const update = (id: string, change: WorkspaceChange) =>
      Effect.map(found(id), (row) => {
        const changed: Workspace = { ...row, ...change }
        rows[rows.indexOf(row)] = changed
        return changed
      })

    const create = Effect.fn("WorkspacesMemory.create")(function*(input: NewWorkspace) {
      const network = yield* networkOfNew(config, input.network)
      const now = yield* Time.now
      const workspace: Workspace = {
        id: crypto.randomUUID(),
        name: input.name,
        status: "active",
        seatsTotal: input.seats ?? defaultSeats,
        network,
        createdAt: now.iso
      }
      rows.push(workspace)
      const created = yield* keys.create({ workspaceId: workspace.id, name: "Owner key", value: input.keyValue }).pipe(Effect.orDie)
      return { workspace, keyValue: created.value }
    })

    /** Oldest first, then by id, as the table's `ORDER BY created_at, id`. */
    const list = Effect.sync(() =>
      rows.toSorted((a, b) => a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1)
    ).pipe(Effect.withSpan("WorkspacesMemory.list"))

    const createSession = Effect.fn("WorkspacesMemory.createSession")(function*(input: NewSession) {
      yield* found(input.workspaceId)
      const person = `${input.workspaceId} ${input.email}`
      const userId = users.get(person) ?? crypto.randomUUID()
      users.set(person, userId)
      return { userId, token: yield* newSessionToken }
    })

    return Workspaces.of({
      create,
      list,
      get: Effect.fn("WorkspacesMemory.get")(found),
      setSeats: Effect.fn("WorkspacesMemory.setSeats")((id: string, seats: number) => update(id, { seatsTotal: seats })),
      setStatus: Effect.fn("WorkspacesMemory.setStatus")((id: string, status: Workspace["status"]) => update(id, { status })),
      createSession
    })
  })
)
