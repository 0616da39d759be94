/** The in-memory `Workflows` (on the sandbox's addresses alone), held to the workflows' spec (`WorkflowsContract.ts`). */
import { Effect, Layer } from "effect"
import * as WorkflowsMemory from "../../src/workflows/WorkflowsMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"
import { workflowsExpectations } from "./WorkflowsContract.ts"

workflowsExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    Effect.gen(function*() {
      const seeds = yield* WorkflowsMemory.WorkflowSeeds
      return yield* test({ ...twoWorkspaceIds(), account: seeds.account })
    }).pipe(Effect.provide(WorkflowsMemory.layer.pipe(Layer.provide(SandboxAddresses))))
})
