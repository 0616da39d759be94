/**
 * The in-memory `Messages` (`people/MessagesMemory.ts`, naming senders by the in-memory inbox's
 * invitations) held to the messages' spec (`MessagesContract.ts`).
 */
import { Effect, Layer } from "effect"
import * as InboxMemory from "../../src/inbox/InboxMemory.ts"
import * as MessagesMemory from "../../src/people/MessagesMemory.ts"
import { messagesExpectations, sentBy } from "./MessagesContract.ts"

messagesExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    Effect.gen(function*() {
      const seeds = yield* InboxMemory.InboxSeeds
      return yield* test({
        account: () => Effect.sync(() => crypto.randomUUID()),
        named: (accountId, providerId, name, sentAt) => seeds.sent(accountId, sentBy(providerId, name, sentAt))
      })
    }).pipe(Effect.provide(MessagesMemory.layer.pipe(Layer.provideMerge(InboxMemory.layer))))
})
