/**
 * A service's implementations side by side, for the one spec each fake is held to (the stored
 * service on a database in the `db` tier, its in-memory fake in `fast`): what an implementation is
 * built on, and how a test gets a fresh fixture on it. Each spec (`test/<room>/<Service>Contract.ts`)
 * states its fixture `F` and the services `S` its tests use.
 */
import type { Effect, Layer } from "effect"

export interface Backend<R, S, F> {
  readonly name: string
  readonly services: Layer.Layer<R>
  readonly withFixture: <A, E>(test: (fixture: F) => Effect.Effect<A, E, S>) => Effect.Effect<A, E, R>
}

/** The fixture of a service whose records belong to a workspace: one to work in, and another that must not see them. */
export interface TwoWorkspaces {
  readonly workspaceId: string
  readonly otherWorkspaceId: string
}

/** Two workspaces for a fake, which keeps no workspaces of its own. */
export const twoWorkspaceIds = (): TwoWorkspaces => ({ workspaceId: crypto.randomUUID(), otherWorkspaceId: crypto.randomUUID() })
