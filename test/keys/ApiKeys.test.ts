/** The stored `ApiKeys` (with its activity log) on a database, held to the keys' spec (`KeysContract.ts`). */
import { Effect, Layer } from "effect"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import { Credentials } from "../../src/auth/Credentials.ts"
import { ApiKeys } from "../../src/keys/ApiKeys.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { keysExpectations } from "./KeysContract.ts"

keysExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: ApiKeys.layerNoDeps.pipe(
    Layer.provideMerge(ActivityLog.layer),
    Layer.provide(Credentials.layer),
    Layer.provide(AppConfig.layerWith({})),
    Layer.provideMerge(TestDatabase.layer)
  ),
  withFixture: (test) => Effect.flatMap(TestDatabase.twoWorkspaces, test)
})
