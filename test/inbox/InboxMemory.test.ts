/** The in-memory `Inbox`, held to the inbox's spec (`InboxContract.ts`). */
import { Effect, Layer } from "effect"
import * as InboxMemory from "../../src/inbox/InboxMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { inboxExpectations } from "./InboxContract.ts"

inboxExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    Effect.gen(function*() {
      const seeds = yield* InboxMemory.InboxSeeds
      return yield* test({ ...twoWorkspaceIds(), account: seeds.account, synced: seeds.synced })
    }).pipe(Effect.provide(InboxMemory.layer))
})
