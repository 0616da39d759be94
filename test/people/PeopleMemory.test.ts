/** The in-memory `People` (on the sandbox's addresses alone), held to the people's spec (`PeopleContract.ts`). */
import { Effect, Layer } from "effect"
import * as PeopleMemory from "../../src/people/PeopleMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"
import { peopleExpectations } from "./PeopleContract.ts"

peopleExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    Effect.gen(function*() {
      const seeds = yield* PeopleMemory.PeopleSeeds
      return yield* test({ ...twoWorkspaceIds(), account: seeds.account, received: seeds.received, synced: seeds.synced })
    }).pipe(Effect.provide(PeopleMemory.layer.pipe(Layer.provide(SandboxAddresses))))
})
