/** The in-memory `ActivityLog`, held to the log's spec (`ActivityContract.ts`). */
import { Effect, Layer } from "effect"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { activityExpectations } from "./ActivityContract.ts"

activityExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    test(twoWorkspaceIds()).pipe(Effect.provide(ActivityMemory.layer))
})
