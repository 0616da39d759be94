/**
 * What tests make the sandbox network do from outside (the driver's
 * `simulate`): a person accepts a pending invitation now, whatever the
 * behaviour model had in store, or sends the account a message now. Both are
 * stored, so reads and `sync` show them like the network's own doings.
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import type { SimulatedEvent } from "../network/NetworkDriver.ts"
import { networkError, type NetworkError } from "../network/NetworkErrors.ts"
import { profileOfProviderId } from "./Addresses.ts"
import { chatIdOf, providerIdOfChat } from "./Ids.ts"
import { invitationAt, type SentInvitation } from "./Outcomes.ts"
import type { Session } from "./Reads.ts"
import { personIn } from "./Refs.ts"

const acceptInvitation = (
  session: Session,
  event: Extract<SimulatedEvent, { type: "invitation_accepted" }>
): Effect.Effect<void, NetworkError> =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    let invitation: SentInvitation | undefined
    if (event.invitationId !== undefined) {
      invitation = yield* state.invitation(accountId, event.invitationId)
    } else {
      const ref = yield* personIn("person", event.person ?? "")
      invitation = (yield* state.invitationsTo(accountId, ref.providerId))[0]
    }
    if (invitation === undefined) {
      return yield* networkError(
        "notFound",
        event.invitationId !== undefined
          ? `The account has sent no invitation ${event.invitationId}.`
          : "The account has sent no invitation to this person.",
        "Send one first (connect), then use the invitationId it returned."
      )
    }
    const status = invitationAt(invitation, now)
    if (status.status !== "pending") {
      return yield* networkError(
        "notFound",
        `The invitation ${invitation.id} is no longer pending (${status.status} ${status.resolvedAt}).`,
        "Only a pending invitation can be accepted; send a new one with connect."
      )
    }
    yield* state.forceAcceptance(invitation.id, now)
  })

const receiveMessage = (
  session: Session,
  event: Extract<SimulatedEvent, { type: "message_received" }>
): Effect.Effect<void, NetworkError> =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    const ref = yield* personIn("person", event.person)
    const chatId = chatIdOf(ref.providerId)
    if (event.chatId !== undefined) {
      const other = providerIdOfChat(event.chatId)
      if (other === null || profileOfProviderId(other).providerId !== ref.providerId) {
        return yield* networkError(
          "invalidInput",
          `chatId: "${event.chatId}" is not the chat with ${event.person} (that is "${chatId}").`,
          "Leave chatId out: a message from the person goes to the chat with them."
        )
      }
    }
    yield* state.insertReceived({
      id: `msg-${randomBytes(8).toString("hex")}`,
      accountId,
      providerId: ref.providerId,
      chatId,
      text: event.text,
      receivedAtMs: now
    })
  })

/** Makes the network do `event` to the session's account at its now. */
export const simulate = (session: Session, event: SimulatedEvent): Effect.Effect<void, NetworkError> =>
  event.type === "invitation_accepted" ? acceptInvitation(session, event) : receiveMessage(session, event)
