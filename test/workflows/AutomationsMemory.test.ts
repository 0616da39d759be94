/** The in-memory `Automations` on the in-memory `Workflows` (the sandbox's addresses alone), held to the automations' spec (`AutomationsContract.ts`). */
import { Effect, Layer } from "effect"
import * as AutomationsMemory from "../../src/workflows/AutomationsMemory.ts"
import * as WorkflowsMemory from "../../src/workflows/WorkflowsMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"
import { automationsExpectations } from "./AutomationsContract.ts"

automationsExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    Effect.gen(function*() {
      const seeds = yield* WorkflowsMemory.WorkflowSeeds
      return yield* test({ ...twoWorkspaceIds(), account: seeds.account })
    }).pipe(Effect.provide(AutomationsMemory.layer.pipe(Layer.provideMerge(WorkflowsMemory.layer), Layer.provide(SandboxAddresses))))
})
