/**
 * Driving the simulated network from outside, for tests and demos. These
 * endpoints answer only for a sandbox workspace's key (a live workspace's gets 404).
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { MESSAGE_MAX, NonBlankText, PersonAddress } from "../domain/CommandInputs.ts"
import { HealthLevel, Tier } from "../domain/Limits.ts"
import { Account } from "./AccountsApi.ts"
import { Ok, Uuid } from "./Envelope.ts"
import { Conflict, NotFound, Unprocessable } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { exactlyOneOf } from "../domain/Rules.ts"
import { Text } from "../domain/Text.ts"

const Reason = Schema.optionalKey(Text.check(Schema.isMaxLength(500)))

const invitationOrPerson = exactlyOneOf("invitationId", "person")

const InvitationAccepted = Schema.Struct({
  type: Schema.Literal("invitation_accepted"),
  invitationId: Schema.optionalKey(
    Text.check(Schema.isMinLength(1), Schema.isMaxLength(400)).annotate({
      description: "The `invitationId` that `connect` returned"
    })
  ),
  person: Schema.optionalKey(PersonAddress)
}).check(invitationOrPerson)

const MessageReceived = Schema.Struct({
  type: Schema.Literal("message_received"),
  person: PersonAddress.annotate({ description: "Who sends the message" }),
  text: NonBlankText(MESSAGE_MAX, `The message, 1 to ${MESSAGE_MAX} characters`),
  chatId: Schema.optionalKey(
    Text.check(Schema.isMinLength(1), Schema.isMaxLength(400)).annotate({
      description: "The chat with the person (as `list_chats` shows it); it must be that chat"
    })
  )
})

/** What the simulated network can do to an account. */
export const SandboxEvent = Schema.Union([
  InvitationAccepted,
  MessageReceived,
  Schema.Struct({ type: Schema.Literal("signed_out"), reason: Reason }),
  Schema.Struct({ type: Schema.Literal("restricted"), reason: Reason }),
  Schema.Struct({ type: Schema.Literal("health"), level: HealthLevel, reason: Reason })
]).annotate({
  identifier: "SandboxEvent",
  examples: [
    { type: "invitation_accepted", invitationId: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70" },
    { type: "message_received", person: "maria-garcia-3a9f02c1b", text: "Thanks! Tuesday at 2pm works for me." },
    { type: "signed_out" },
    { type: "health", level: "red", reason: "unusual activity" }
  ]
})

/** What one sync found. */
export const SyncReport = Schema.Struct({
  synced: Schema.Boolean.annotate({ description: "false when the account could not be synced now (see `skipped`)" }),
  skipped: Schema.NullOr(Schema.Literals(["removed", "status", "hours", "budget", "network"])).annotate({
    description: "Why it was not: removed, status (not readable now), hours, budget (list_polls used up) or network"
  }),
  invitations: Schema.Int.annotate({ description: "Invitations whose state the sync recorded" }),
  accepted: Schema.Int.annotate({ description: "Of those, newly accepted (each an `invitation.accepted` event)" }),
  messages: Schema.Int.annotate({ description: "Messages received (each a `message.received` event)" })
}).annotate({
  identifier: "SyncReport",
  examples: [{ synced: true, skipped: null, invitations: 1, accepted: 1, messages: 0 }]
})

export class SandboxApi extends HttpApiGroup.make("sandbox")
  .add(
    HttpApiEndpoint.post("completeConnection", "/v1/sandbox/accounts/:id/complete-connection", {
      params: { id: Uuid },
      payload: Schema.Struct({
        tier: Schema.optionalKey(Tier),
        products: Schema.optionalKey(Schema.Array(Text).check(Schema.isMaxLength(10))),
        connections: Schema.optionalKey(
          Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 30_000 })).annotate({
            description: "The size of the account's network, 0 to 30,000 (the network's cap on connections)"
          })
        )
      }).annotate({ examples: [{ tier: "sales_nav", products: ["sales_navigator"], connections: 1200 }] }),
      success: Ok({ account: Account }),
      error: [NotFound, Conflict]
    }).annotateMerge(allowedTo("driveSandbox")).annotateMerge(OpenApi.annotations({
      summary: "The person finished signing in",
      description:
        "Moves a connecting account to `warming` (or a signed-out one back to work) with the tier, products and network size given (else the sandbox's own), and emits `account.connected`."
    })),
    HttpApiEndpoint.post("networkEvent", "/v1/sandbox/accounts/:id/events", {
      params: { id: Uuid },
      payload: SandboxEvent,
      success: Ok({ account: Account }),
      error: [NotFound, Conflict, Unprocessable]
    }).annotateMerge(allowedTo("driveSandbox")).annotateMerge(OpenApi.annotations({
      summary: "The network does something to an account",
      description: [
        "`invitation_accepted` (`invitationId` or `person`, exactly one): the account's pending invitation is accepted now, whatever the sandbox's behaviour would do; `sync` reports it once and the person is a connection from then on (404 when there is no such pending invitation).",
        "`message_received` (`person`, `text`, `chatId?`): the person sends the account a message now; `sync` reports it once and `list_chats` / `get_conversation` show it (400 when `chatId` is not the chat with the person).",
        "`signed_out`: the account needs reconnecting (`account.reconnection_required`). `restricted`: reads only until a person resumes it (`account.paused`). `health`: sets the level; `red` stops the account (`account.paused`).",
        "After `invitation_accepted` and `message_received` the service syncs the account at once (as `POST .../sync` does), so the brief, the invitations and the webhooks show the event within a second, without moving the clock (unless background syncing is off, `OUTREACH_INBOX_SYNC=false`).",
        "409 while the account is still connecting."
      ].join(" ")
    })),
    HttpApiEndpoint.post("sync", "/v1/sandbox/accounts/:id/sync", {
      params: { id: Uuid },
      success: Ok({ sync: SyncReport }),
      error: [NotFound, Conflict]
    }).annotateMerge(allowedTo("driveSandbox")).annotateMerge(OpenApi.annotations({
      summary: "Sync the account now",
      description:
        "What the service learns from the network by syncing (accepted invitations, received messages, with their webhooks) it otherwise learns every 10 minutes of the service's clock inside the account's working hours. This syncs now, at any hour; it spends one `list_polls`, like every sync. 409 while the account is still connecting."
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Sandbox", description: "Only for sandbox workspaces: a live workspace's key gets 404 `notFound`." }))
{}
