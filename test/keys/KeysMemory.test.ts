/** The in-memory `ApiKeys` (on the in-memory activity log), held to the keys' spec (`KeysContract.ts`). */
import { Effect, Layer } from "effect"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import * as KeysMemory from "../../src/keys/KeysMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { keysExpectations } from "./KeysContract.ts"

keysExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    test(twoWorkspaceIds()).pipe(
      Effect.provide(KeysMemory.layer.pipe(Layer.provideMerge(ActivityMemory.layer)))
    )
})
