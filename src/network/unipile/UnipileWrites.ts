/**
 * The write commands on Unipile, each kept before it is sent (its target and text, in
 * `unipile_writes`) and sent once: when an answer is lost or the provider fails in a way that
 * may have done the work, the network is asked first (`Lookups.ts`), and the write is sent again
 * only when it is not there. A provider outage is retried with `providerBackoff`; it never fails
 * a job as if the network had refused.
 *
 * | command | provider call |
 * |---|---|
 * | `connect` | `GET /users/{identifier}`, then `POST /users/invite` (SDK `users.sendInvitation`) |
 * | `withdraw_invite` | `GET /users/invite/sent`, then `DELETE /users/invite/sent/{id}` (SDK) |
 * | `send_message` | a chat: `POST /chats/{id}/messages`; a person: `POST /chats` (SDK `messaging.startNewChat`, `linkedin[inmail]` for an InMail) |
 * | `accept_invite`, `decline_invite` | `GET /users/invite/received`, then `POST /users/invite/received/{id}` (REST) |
 * | `react` | `POST /posts/reaction` (SDK `users.sendPostReaction`) |
 * | `comment` | `POST /posts/{id}/comments` (SDK), its id read back from `GET /posts/{id}/comments` |
 * | `create_post` | `POST /posts` (SDK `users.createPost`), the post read back from the account's posts |
 *
 * `endorse` and `save_lead` have no call in Unipile's API: they are not supported.
 */
import { Clock, DateTime, Effect, Schema } from "effect"
import type { UnipileClient } from "unipile-node-sdk"
import { commands, type InputOf, type WriteCommand } from "../../domain/Commands.ts"
import type { WriteAttempt } from "../NetworkDriver.ts"
import { type NetworkError, networkError } from "../NetworkErrors.ts"
import { activityUrn, postId } from "./UnipileAddresses.ts"
import { ProviderFailure } from "./UnipileClient.ts"
import { isAmbiguous, isTransient, providerBackoff } from "./UnipileErrors.ts"
import { encodeFrom, type Found, lookup, pendingInvitations, receivedInvitations } from "./Lookups.ts"
import * as Models from "./Models.ts"
import { InvitationHandled } from "./ProviderShapes.ts"
import { attendeeOf, personAt } from "./UnipileReads.ts"
import { named, type Session } from "./UnipileSession.ts"

/** The write commands Unipile's API has no call for. */
export const unsupportedWrites = ["endorse", "save_lead"] as const satisfies ReadonlyArray<WriteCommand>
type Supported = Exclude<WriteCommand, (typeof unsupportedWrites)[number]>

/** A write ready to go: what it is matched on, the call that sends it, and its result's schema. */
interface Plan<A> {
  readonly target: string
  readonly body: string | null
  /** Sends the write; its answer becomes the command's result (which may need the network read back). */
  readonly send: (startedAtMs: number) => Effect.Effect<A, ProviderFailure | NetworkError>
  /** The command's result schema, to check what a look-up found and to keep the result. */
  readonly result: Schema.Codec<A, unknown>
}

const iso = (ms: number) => DateTime.formatIso(DateTime.makeUnsafe(ms))

/** Sends `plan` once: a lost answer is looked up before any new attempt, a transient failure retried. */
const perform = <A>(session: Session, command: Supported, plan: Plan<A>, attempt: WriteAttempt | undefined) =>
  Effect.gen(function*() {
    const startedAtMs = yield* Clock.currentTimeMillis
    if (attempt !== undefined) {
      yield* session.store.begin({ key: attempt.key, accountId: session.accountId, command, target: plan.target, body: plan.body, startedAtMs })
    }
    const readable = (result: unknown) =>
      Schema.decodeUnknownEffect(plan.result)(result).pipe(
        Effect.mapError(() =>
          networkError("network", `The network shows the ${command}, but not in a form that can be read.`, "Check the account on the network.")
        )
      )
    const seen = (failure: ProviderFailure): Effect.Effect<A, ProviderFailure | NetworkError> =>
      isAmbiguous(failure)
        ? Effect.flatMap(
          lookup(session, command, { target: plan.target, body: plan.body, startedAtMs }),
          (known: Found): Effect.Effect<A, ProviderFailure | NetworkError> => known._tag === "Found" ? readable(known.result) : Effect.fail(failure)
        )
        : Effect.fail(failure)
    const once = plan.send(startedAtMs).pipe(Effect.catchTag("ProviderFailure", seen))
    const result = yield* Effect.retry(once, {
      schedule: providerBackoff,
      while: (error) => error instanceof ProviderFailure && isTransient(error)
    }).pipe(Effect.catchTag("ProviderFailure", named(session)))
    if (attempt !== undefined) {
      const encoded = yield* Schema.encodeUnknownEffect(plan.result)(result).pipe(Effect.orDie)
      yield* session.store.finish(attempt.key, encoded)
    }
    return result
  })

/** An SDK call as a write's send: its failure kept as the provider's, for `perform` to judge. */
const call = <A>(session: Session, name: string, run: (client: UnipileClient) => Promise<A>) =>
  session.client.call(name, run)

const found = <A>(session: Session, command: Supported, attempt: { readonly target: string; readonly body: string | null; readonly startedAtMs: number }, result: Schema.Codec<A, unknown>) =>
  Effect.flatMap(lookup(session, command, attempt), (known) =>
    known._tag === "Found" ? Effect.option(Schema.decodeUnknownEffect(result)(known.result)) : Effect.succeedNone)

/** Every write this driver runs, taking an open session and the job's attempt. */
export const writes = {
  connect: (session: Session, input: InputOf<"connect">, attempt: WriteAttempt | undefined) =>
    Effect.gen(function*() {
      const person = yield* personAt(session, input.person)
      const note = input.note === undefined || input.note === "" ? null : input.note
      return yield* perform(session, "connect", {
        target: person.providerId,
        body: note,
        result: commands.connect.result,
        send: (startedAtMs) =>
          Effect.map(
            call(session, "users.sendInvitation", (client) =>
              client.users.sendInvitation({
                account_id: session.providerAccount,
                provider_id: person.providerId,
                ...(note === null ? {} : { message: note })
              })),
            (sent) => ({ invitationId: sent.invitation_id, person: Models.summaryOf(person), note, status: "pending" as const, sentAt: iso(startedAtMs) })
          )
      }, attempt)
    }),

  withdraw_invite: (session: Session, input: InputOf<"withdraw_invite">, attempt: WriteAttempt | undefined) =>
    Effect.gen(function*() {
      const pending = yield* pendingInvitations(session)
      const providerId = input.person === undefined ? undefined : (yield* personAt(session, input.person)).providerId
      const invitation = pending.find((one) => one.id === input.invitationId || (providerId !== undefined && one.providerId === providerId))
      if (invitation === undefined) {
        return yield* Effect.fail(networkError("notFound", "No pending invitation of the account matches.", "List the account's invitations (GET /v1/accounts/{id}/invitations)."))
      }
      return yield* perform(session, "withdraw_invite", {
        target: invitation.id,
        body: invitation.providerId,
        result: commands.withdraw_invite.result,
        send: (startedAtMs) =>
          Effect.map(
            call(session, "users.cancelInvitationSent", (client) =>
              client.users.cancelInvitationSent({ account_id: session.providerAccount, invitation_id: invitation.id })),
            () => ({
              invitationId: invitation.id,
              providerId: invitation.providerId,
              withdrawnAt: iso(startedAtMs),
              canResendAfter: iso(startedAtMs + 21 * 86_400_000)
            })
          )
      }, attempt)
    }),

  send_message: (session: Session, input: InputOf<"send_message">, attempt: WriteAttempt | undefined) =>
    Effect.gen(function*() {
      const text = input.text
      if (input.chatId !== undefined) {
        const chatId = input.chatId
        const attendee = yield* attendeeOf(session, chatId)
        return yield* perform(session, "send_message", {
          target: chatId,
          body: text,
          result: commands.send_message.result,
          send: (startedAtMs) =>
            Effect.map(
              call(session, "messaging.sendMessage", (client) => client.messaging.sendMessage({ chat_id: chatId, text })),
              (sent) => ({ chatId, messageId: sent.message_id ?? "", recipientProviderId: attendee.providerId, text, inmail: false, sentAt: iso(startedAtMs) })
            )
        }, attempt)
      }
      const person = yield* personAt(session, input.person ?? "")
      const inmail = input.inmail === true && person.connectionDegree !== 1
      return yield* perform(session, "send_message", {
        target: person.providerId,
        body: text,
        result: commands.send_message.result,
        send: (startedAtMs) =>
          Effect.map(
            call(session, "messaging.startNewChat", (client) =>
              client.messaging.startNewChat({
                account_id: session.providerAccount,
                attendees_ids: [person.providerId],
                text,
                ...(inmail && input.subject !== undefined ? { subject: input.subject } : {}),
                ...(inmail ? { options: { linkedin: { api: "classic", inmail: true } } } : {})
              })),
            (started) => ({
              chatId: started.chat_id ?? "",
              messageId: started.message_id ?? "",
              recipientProviderId: person.providerId,
              text,
              inmail,
              sentAt: iso(startedAtMs)
            })
          )
      }, attempt)
    }),

  accept_invite: (session: Session, input: InputOf<"accept_invite">, attempt: WriteAttempt | undefined) => answer(session, "accept_invite", input.invitationId, attempt),
  decline_invite: (session: Session, input: InputOf<"decline_invite">, attempt: WriteAttempt | undefined) => answer(session, "decline_invite", input.invitationId, attempt),

  react: (session: Session, input: InputOf<"react">, attempt: WriteAttempt | undefined) =>
    Effect.gen(function*() {
      const id = yield* postId(input.post)
      return yield* perform(session, "react", {
        target: id,
        body: input.reaction,
        result: commands.react.result,
        send: (startedAtMs) =>
          Effect.map(
            call(session, "users.sendPostReaction", (client) =>
              client.users.sendPostReaction({ account_id: session.providerAccount, post_id: activityUrn(id), reaction_type: input.reaction })),
            () => ({ post: activityUrn(id), reaction: input.reaction, reactedAt: iso(startedAtMs) })
          )
      }, attempt)
    }),

  comment: (session: Session, input: InputOf<"comment">, attempt: WriteAttempt | undefined) =>
    Effect.gen(function*() {
      const id = yield* postId(input.post)
      const target = { target: id, body: input.text }
      return yield* perform(session, "comment", {
        ...target,
        result: commands.comment.result,
        send: (startedAtMs) =>
          call(session, "users.sendPostComment", (client) =>
            client.users.sendPostComment({ account_id: session.providerAccount, post_id: activityUrn(id), text: input.text })).pipe(
              // The provider answers no id: it is read back from the post's comments.
              Effect.andThen(found(session, "comment", { ...target, startedAtMs }, commands.comment.result)),
              Effect.map((read) =>
                read._tag === "Some" ? read.value : { commentId: "", post: activityUrn(id), text: input.text, commentedAt: iso(startedAtMs) }
              )
            )
      }, attempt)
    }),

  create_post: (session: Session, input: InputOf<"create_post">, attempt: WriteAttempt | undefined) =>
    Effect.gen(function*() {
      if (input.visibility === "connections") {
        return yield* Effect.fail(networkError("invalidInput", "Unipile publishes posts to anyone only: visibility connections cannot be set.", "Leave visibility out, or set it to anyone."))
      }
      const target = { target: "self", body: input.text }
      return yield* perform(session, "create_post", {
        ...target,
        result: commands.create_post.result,
        send: (startedAtMs) =>
          call(session, "users.createPost", (client) => client.users.createPost({ account_id: session.providerAccount, text: input.text })).pipe(
            // The provider answers no id: the post is read back from the account's posts.
            Effect.andThen(found(session, "create_post", { ...target, startedAtMs }, commands.create_post.result)),
            Effect.flatMap((read) =>
              read._tag === "Some"
                ? Effect.succeed(read.value)
                : Effect.fail(networkError("network", "The post was published but could not be read back yet.", "Look at the account's posts with get_posts."))
            )
          )
      }, attempt)
    })
}

/** `accept_invite` and `decline_invite`: the invitation's secret from the received list, then the answer. */
const answer = (session: Session, command: "accept_invite" | "decline_invite", invitationId: string, attempt: WriteAttempt | undefined) =>
  Effect.gen(function*() {
    const waiting = (yield* receivedInvitations(session)).find((one) => one.id === invitationId)
    if (waiting === undefined) {
      return yield* Effect.fail(networkError("notFound", `No received invitation ${invitationId} is waiting.`, "Use an id from list_invites."))
    }
    const from = {
      providerId: waiting.inviter.inviter_id,
      publicIdentifier: waiting.inviter.inviter_public_identifier,
      profileUrl: Models.profileUrlOf(waiting.inviter.inviter_public_identifier),
      name: waiting.inviter.inviter_name,
      headline: waiting.inviter.inviter_description ?? "",
      location: "",
      connectionDegree: command === "accept_invite" ? 1 as const : 2 as const
    }
    const action = command === "accept_invite" ? "accept" : "decline"
    return yield* perform(session, command, {
      target: invitationId,
      body: encodeFrom(from),
      result: commands[command].result,
      send: (startedAtMs) =>
        Effect.map(
          session.client.rest(`users.invite.${action}`, {
            method: "POST",
            path: ["users", "invite", "received", invitationId],
            headers: { "Content-Type": "application/json" },
            body: { provider: "LINKEDIN", account_id: session.providerAccount, shared_secret: waiting.specifics.shared_secret, action }
          }, InvitationHandled),
          () => ({ invitationId, from, answer: action === "accept" ? "accepted" as const : "declined" as const, answeredAt: iso(startedAtMs) })
        )
    }, attempt)
  })
