/** The stored `ActivityLog` on a database, held to the log's spec (`ActivityContract.ts`). */
import { Effect, Layer } from "effect"
import { ActivityLog } from "../../src/activity/ActivityLog.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { activityExpectations } from "./ActivityContract.ts"

activityExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: ActivityLog.layer.pipe(Layer.provideMerge(TestDatabase.layer)),
  withFixture: (test) => Effect.flatMap(TestDatabase.twoWorkspaces, test)
})
