/**
 * `POST /webhooks/unipile`: Unipile's webhooks (new message, new relation, account status) reach
 * the service here. Each must carry the deployment's secret (`UNIPILE_WEBHOOK_SECRET`) in the
 * `Unipile-Auth` header it was registered with; anything else is refused 401, and the endpoint
 * answers 404 unless the deployment runs on Unipile. A message or a relation syncs the seat at
 * once through the inbox's own sync (the code the periodic sync and the sandbox use), so the same
 * customer webhooks go out (`message.received` with its triage, `invitation.accepted`); an account
 * status of `CREDENTIALS` signs the account out (`account.reconnection_required`), `STOPPED`
 * restricts it. The periodic sync stays the safety net for webhooks the provider lost.
 */
import { timingSafeEqual } from "node:crypto"
import { Clock, Effect, Option, Redacted, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { Accounts } from "../accounts/Accounts.ts"
import { Inbox } from "../inbox/Inbox.ts"
import { holds, NetworkDriver } from "../network/NetworkDriver.ts"
import { callbackPath, callbackToken } from "../network/unipile/Config.ts"
import * as Store from "../network/unipile/Store.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import { errorResponse } from "./ErrorResponses.ts"

/** Where Unipile's webhooks are registered. */
export const path = "/webhooks/unipile"

export { callbackPath }

/** The header the webhooks are registered with, carrying the secret. */
export const secretHeader = "unipile-auth"

const Payload = Schema.Union([
  Schema.Struct({ event: Schema.Literals(["message_received", "new_relation"]), account_id: Schema.String }),
  Schema.Struct({ AccountStatus: Schema.Struct({ account_id: Schema.String, message: Schema.String }) })
])
const decodePayload = Schema.decodeUnknownOption(Schema.fromJsonString(Payload))

const same = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

const refused = errorResponse(401, {
  message: "This webhook does not carry the deployment's Unipile secret.",
  next: "Register Unipile's webhooks with the header Unipile-Auth: <UNIPILE_WEBHOOK_SECRET> (docs/networks.md)."
})

const Callback = Schema.Struct({
  status: Schema.Literals(["CREATION_SUCCESS", "RECONNECTED"]),
  account_id: Schema.String,
  name: Schema.String
})
const decodeCallback = Schema.decodeUnknownOption(Schema.fromJsonString(Callback))

const notUnipile = errorResponse(404, { message: "This server does not reach Unipile: it has no live workspaces' driver.", next: "Set UNIPILE_DSN and UNIPILE_API_KEY (docs/networks.md, \"Going live\") to receive its webhooks." })
const handled = (done: boolean) => HttpServerResponse.jsonUnsafe({ ok: true, handled: done })

/**
 * `POST /webhooks/unipile/auth?token=`: a hosted sign-in link's callback (`notify_url`). The token
 * is the HMAC of the link's `name` (`<workspace>:<account>`) under the webhook secret, so only a
 * link the service issued completes an account: it becomes `warming` with its tier, products and
 * connections read from the network.
 */
export const callbackLayer = HttpRouter.add(
  "POST",
  callbackPath,
  Effect.gen(function*() {
    const network = yield* NetworkDriver
    const config = yield* AppConfig
    if (!holds(network, "unipile")) return notUnipile
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = new URL(request.url, "http://service").searchParams.get("token") ?? ""
    const body = decodeCallback(yield* Effect.orElseSucceed(request.text, () => ""))
    if (Option.isNone(config.unipileWebhookSecret) || Option.isNone(body)) return refused
    if (!same(token, callbackToken(config.unipileWebhookSecret.value, body.value.name))) return refused
    const [workspaceId, accountId] = body.value.name.split(":")
    if (workspaceId === undefined || accountId === undefined) return refused
    const store = yield* Store.make
    yield* store.link(accountId, body.value.account_id, yield* Clock.currentTimeMillis)
    yield* store.recordWorkspace(accountId, workspaceId)
    const done = yield* Effect.result((yield* Accounts).completeConnection(workspaceId, accountId))
    return handled(done._tag === "Success")
  })
)

/** The route. */
export const layer = HttpRouter.add(
  "POST",
  path,
  Effect.gen(function*() {
    const network = yield* NetworkDriver
    const config = yield* AppConfig
    if (!holds(network, "unipile")) return notUnipile
    const request = yield* HttpServerRequest.HttpServerRequest
    const given = request.headers[secretHeader]
    if (Option.isNone(config.unipileWebhookSecret) || given === undefined || !same(given, Redacted.value(config.unipileWebhookSecret.value))) {
      return refused
    }
    const payload = decodePayload(yield* Effect.orElseSucceed(request.text, () => ""))
    if (Option.isNone(payload)) return HttpServerResponse.jsonUnsafe({ ok: true, handled: false })
    const store = yield* Store.make
    const providerAccount = "event" in payload.value ? payload.value.account_id : payload.value.AccountStatus.account_id
    const owner = yield* store.accountOf(providerAccount)
    if (owner === undefined) return HttpServerResponse.jsonUnsafe({ ok: true, handled: false })
    const accountId = owner.accountId
    if ("event" in payload.value) {
      yield* (yield* Inbox).syncAccount(accountId, { onRequest: true })
      return HttpServerResponse.jsonUnsafe({ ok: true, handled: true })
    }
    const status = payload.value.AccountStatus.message
    const event = status === "CREDENTIALS"
      ? { type: "signed_out" as const, reason: "Unipile reports the seat's credentials are no longer valid." }
      : status === "STOPPED"
      ? { type: "restricted" as const, reason: "Unipile reports the seat stopped." }
      : undefined
    if (event === undefined) return HttpServerResponse.jsonUnsafe({ ok: true, handled: false })
    if (owner.workspaceId === null) return HttpServerResponse.jsonUnsafe({ ok: true, handled: false })
    const changed = yield* Effect.result((yield* Accounts).networkEvent(owner.workspaceId, accountId, event))
    return HttpServerResponse.jsonUnsafe({ ok: true, handled: changed._tag === "Success" })
  })
)
