/**
 * The service's core (`App.core`) on a fresh copy of the test database, with background syncing
 * off: what the stored side of a service's spec, and the storage tests that need the whole core,
 * are built on. `settings` adds to those, e.g. `clock: "test"` for the sandbox's test clock.
 */
import { Layer } from "effect"
import * as App from "../../src/App.ts"
import { AppConfig, type AppSettings } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import * as TestDatabase from "./TestDatabase.ts"

export const storedCore = (settings: Partial<AppSettings> = {}) =>
  App.core.pipe(
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(TestDatabase.layer),
    Layer.provideMerge(AppConfig.layerWith({ inboxSync: false, ...settings }))
  )
