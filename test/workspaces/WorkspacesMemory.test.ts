/** The in-memory `Workspaces` (on the in-memory keys), held to the workspaces' spec (`WorkspacesContract.ts`). */
import { Effect, Layer } from "effect"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import * as KeysMemory from "../../src/keys/KeysMemory.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as WorkspacesMemory from "../../src/workspaces/WorkspacesMemory.ts"
import { workspacesExpectations } from "./WorkspacesContract.ts"

workspacesExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    test().pipe(
      Effect.provide(
        WorkspacesMemory.layer.pipe(
          Layer.provideMerge(KeysMemory.layer),
          Layer.provide(ActivityMemory.layer),
          Layer.provide(AppConfig.layerWith({}))
        )
      )
    )
})
