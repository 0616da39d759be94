/**
 * What `Messages` promises its readers (the inbox's syncing and Daily brief, people's timelines, the
 * waits of workflows), run against the stored messages (`MessagesStored.test.ts`, the core on a
 * database) and against the in-memory ones (`MessagesMemory.test.ts`, `people/MessagesMemory.ts`,
 * naming senders by the in-memory inbox's invitations): the same expectations, so the fake cannot
 * drift from the table it stands in for. Messages are recorded as syncing records them; the names
 * of the people come from invitations recorded as a `connect` job's ending records them.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { InvitationSent } from "../../src/domain/CommandResults.ts"
import * as Time from "../../src/domain/Time.ts"
import type { TriageClass } from "../../src/domain/TriageClass.ts"
import { Messages } from "../../src/people/Messages.ts"
import type { Backend } from "../support/Backends.ts"

/** How accounts and the names their invitations recorded are made on the backend. */
export interface MessagesFixture {
  /** A new account (of some workspace); its id. */
  readonly account: () => Effect.Effect<string>
  /** The account's `connect` to `providerId`, sent `sentAt`, recorded the person's `name`. */
  readonly named: (accountId: string, providerId: string, name: string, sentAt: string) => Effect.Effect<void>
}

const HOUR_MS = 3_600_000

/** The invitation a `connect` sent `sentAt` to `name` (`providerId`), with `note`, as its job's result says. */
export const sentBy = (
  providerId: string,
  name: string,
  sentAt: string,
  note: string | null = null,
  invitationId = `inv-${providerId}-${sentAt}`
): InvitationSent => ({
  invitationId,
  person: {
    providerId,
    publicIdentifier: providerId.toLowerCase(),
    profileUrl: `https://www.linkedin.com/in/${providerId.toLowerCase()}`,
    name,
    headline: "Head of Sales",
    location: "Lisbon, Portugal",
    connectionDegree: 2
  },
  note,
  status: "pending",
  sentAt
})

/** What `from` sent the account `hoursAgo` before `nowMs` (message `id`), as a sync reports it. */
const message = (id: string, from: string, nowMs: number, hoursAgo: number) => ({
  chatId: `chat-${from}`,
  messageId: id,
  senderProviderId: from,
  text: `Message ${id}`,
  sentAt: Time.toIso(nowMs - hoursAgo * HOUR_MS),
  inReplyTo: null
})

const triaged = (triage: TriageClass, confidence = 0.9) => ({ class: triage, suggestedReply: `Answer the ${triage}`, confidence })

export const messagesExpectations = <R>(backend: Backend<R, Messages, MessagesFixture>) =>
  layer(backend.services)(`Messages (${backend.name})`, (it) => {
    it.effect("a message is recorded once per account; who has written is asked of the account's messages only", () =>
      backend.withFixture(({ account }) =>
        Effect.gen(function*() {
          const messages = yield* Messages
          const [mine, theirs] = [yield* account(), yield* account()]
          const now = yield* Time.now
          assert.isTrue(yield* messages.recordReceived(mine, message("m-1", "ACo-ada", now.ms, 1), triaged("meeting")))
          assert.isFalse(yield* messages.recordReceived(mine, message("m-1", "ACo-ada", now.ms, 1), triaged("objection")))
          assert.isTrue(yield* messages.recordReceived(theirs, message("m-1", "ACo-grace", now.ms, 1), triaged("other")))
          assert.isTrue(yield* messages.hasWritten(mine, "ACo-ada"))
          assert.isFalse(yield* messages.hasWritten(mine, "ACo-grace"))
          assert.deepStrictEqual([...(yield* messages.whoHaveWritten(mine.toUpperCase(), ["ACo-ada", "ACo-grace", "ACo-alan"]))], ["ACo-ada"])
          assert.strictEqual((yield* messages.whoHaveWritten(mine, [])).size, 0)
          // The first record stands: the second triage of m-1 changed nothing.
          const [reply] = yield* messages.repliesSince(mine, Time.toIso(now.ms - 2 * HOUR_MS))
          assert.strictEqual(reply?.class, "meeting")
        }).pipe(Effect.orDie)))

    it.effect("the replies since an instant, each named by the latest invitation that recorded the sender's name", () =>
      backend.withFixture(({ account, named }) =>
        Effect.gen(function*() {
          const messages = yield* Messages
          const id = yield* account()
          const now = yield* Time.now
          yield* named(id, "ACo-ada", "Ada King", Time.toIso(now.ms - 72 * HOUR_MS))
          yield* named(id, "ACo-ada", "Ada Lovelace", Time.toIso(now.ms - 48 * HOUR_MS))
          yield* messages.recordReceived(id, message("m-ada", "ACo-ada", now.ms, 2), triaged("interested"))
          yield* messages.recordReceived(id, message("m-unsure", "ACo-stranger", now.ms, 3), triaged("not_now", 0.2))
          yield* messages.recordReceived(id, message("m-old", "ACo-ada", now.ms, 5), triaged("objection"))
          const replies = yield* messages.repliesSince(id.toUpperCase(), Time.toIso(now.ms - 3 * HOUR_MS))
          assert.deepStrictEqual(replies.toSorted((a, b) => a.receivedAt.localeCompare(b.receivedAt)), [
            {
              chatId: "chat-ACo-stranger",
              from: null,
              class: "not_now",
              text: "Message m-unsure",
              suggestedReply: "Answer the not_now",
              receivedAt: Time.toIso(now.ms - 3 * HOUR_MS),
              confidence: 0.2,
              unsure: true
            },
            {
              chatId: "chat-ACo-ada",
              from: "Ada Lovelace",
              class: "interested",
              text: "Message m-ada",
              suggestedReply: "Answer the interested",
              receivedAt: Time.toIso(now.ms - 2 * HOUR_MS),
              confidence: 0.9,
              unsure: false
            }
          ])
        }).pipe(Effect.orDie)))

    it.effect("the messages of people since instants, and every message of people, across accounts", () =>
      backend.withFixture(({ account }) =>
        Effect.gen(function*() {
          const messages = yield* Messages
          const [first, second] = [yield* account(), yield* account()]
          const now = yield* Time.now
          // Every account's messages are read by sender: a sender of this test's own.
          const ada = `ACo-ada-${crypto.randomUUID()}`
          yield* messages.recordReceived(first, message("m-1", ada, now.ms, 10), triaged("meeting"))
          yield* messages.recordReceived(first, message("m-2", ada, now.ms, 1), triaged("other", 0.4))
          yield* messages.recordReceived(second, message("m-3", ada, now.ms, 4), triaged("objection"))
          yield* messages.recordReceived(second, message("m-4", "ACo-grace", now.ms, 4), triaged("meeting"))
          const since = yield* messages.messagesFrom([
            { accountId: first, providerId: ada, sinceIso: Time.toIso(now.ms - 5 * HOUR_MS) },
            { accountId: second, providerId: ada, sinceIso: Time.toIso(now.ms - 5 * HOUR_MS) }
          ])
          assert.deepStrictEqual(since.map((row) => [row.accountId, row.triageClass, row.triageConfidence, row.sentAt]).sort(), [
            [first, "other", 0.4, Time.toIso(now.ms - HOUR_MS)],
            [second, "objection", 0.9, Time.toIso(now.ms - 4 * HOUR_MS)]
          ].sort())
          assert.deepStrictEqual(yield* messages.messagesFrom([]), [])
          const all = yield* messages.receivedFrom([ada])
          assert.deepStrictEqual(all.map((row) => row.messageId).sort(), ["m-1", "m-2", "m-3"])
          assert.deepInclude(all.find((row) => row.messageId === "m-3"), {
            accountId: second,
            providerId: ada,
            chatId: `chat-${ada}`,
            text: "Message m-3",
            triageClass: "objection",
            suggestedReply: "Answer the objection"
          })
          assert.deepStrictEqual(yield* messages.receivedFrom([]), [])
        }).pipe(Effect.orDie)))
  })
