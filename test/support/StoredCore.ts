/**
 * The stored side of a service's spec (`Backends.ts`), and the storage tests that need the whole
 * core: the service's core (`App.core`) on a fresh copy of the test database, with background
 * syncing off, and two new workspaces in it. `settings` adds to those, e.g. `clock: "test"` for the
 * sandbox's test clock, so that hours and days can pass in a test.
 */
import { Effect, Layer } from "effect"
import * as App from "../../src/App.ts"
import { AppConfig, type AppSettings } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import { Workspaces } from "../../src/workspaces/Workspaces.ts"
import type { TwoWorkspaces } from "./Backends.ts"
import * as TestDatabase from "./TestDatabase.ts"

/** The core, its clock and its database (PGlite, or the server `DATABASE_URL` names), without the inbox's syncs. */
export const storedCore = (settings: Partial<AppSettings> = {}) =>
  App.core.pipe(
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(TestDatabase.layer),
    Layer.provideMerge(AppConfig.layerWith({ inboxSync: false, ...settings }))
  )

/** A new workspace named `name` to work in, and another. */
export const twoStoredWorkspaces = (name: string) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const { workspace } = yield* workspaces.create({ name })
    const other = yield* workspaces.create({ name: "Elsewhere" })
    const both: TwoWorkspaces = { workspaceId: workspace.id, otherWorkspaceId: other.workspace.id }
    return both
  })
