/**
 * The sandbox's account endpoints (`/v1/sandbox/accounts/...`): they act on
 * the simulated network through the `NetworkDriver` port's `simulate`, and on
 * the account through the core's services. Their contract is the `sandbox`
 * group of the API (`src/api/SandboxApi.ts`), which stays in the contract so a
 * client derived from it can call them.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Accounts } from "../../accounts/Accounts.ts"
import { Api } from "../../api/Api.ts"
import { Conflict, NotFound, Unprocessable } from "../../api/Errors.ts"
import { CurrentPrincipal } from "../../domain/Principal.ts"
import { Inbox } from "../../inbox/Inbox.ts"
import { AppConfig } from "../../platform/AppConfig.ts"
import { NetworkDriver, type SimulatedEvent } from "../../network/NetworkDriver.ts"
import type { NetworkError } from "../../network/NetworkErrors.ts"
import { sandboxOnly } from "./SandboxOnly.ts"
import * as HandlerGroup from "../../http/HandlerGroup.ts"
import { spoken } from "../../http/ServiceErrors.ts"

const ok = true as const

/** The network's refusal of a simulated event, as the API answers it. */
const refusal = ({ message, next, type }: NetworkError) => {
  const error = { message, next }
  switch (type) {
    case "notFound":
      return new NotFound({ error })
    case "invalidInput":
      // Text the document allows that the network cannot use (an address that names no one).
      return new Unprocessable({ error })
    default:
      return new Conflict({ error })
  }
}

export const SandboxHandlers = Layer.unwrap(Effect.gen(function*() {
  const accounts = spoken(yield* Accounts)
  const network = yield* NetworkDriver
  const inbox = yield* Inbox
  const config = yield* AppConfig
  const workspace = Effect.gen(function*() {
    const { workspaceId } = yield* CurrentPrincipal
    yield* sandboxOnly(network, workspaceId)
    return workspaceId
  })
  /** The account, once it has finished connecting: the network knows nothing of it before. */
  const connectedAccount = Effect.fn("SandboxHandlers.connectedAccount")(function*(workspaceId: string, id: string) {
    const account = yield* accounts.get(workspaceId, id)
    if (account.status === "connecting") {
      return yield* new Conflict({
        error: { message: "The account is still connecting.", next: "Complete the connection first." }
      })
    }
    return account
  })
  const simulate = Effect.fn("SandboxHandlers.simulate")(function*(workspaceId: string, id: string, event: SimulatedEvent) {
    yield* connectedAccount(workspaceId, id)
    if (network.simulate === undefined) {
      return yield* new NotFound({
        error: { message: `The ${network.name} network cannot be told what to do.`, next: "Use an account of a sandbox workspace." }
      })
    }
    yield* network.simulate(id, event).pipe(Effect.mapError(refusal))
    return yield* accounts.get(workspaceId, id)
  })
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "sandbox", (handlers) =>
    handlers.handleAll({
      completeConnection: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, account: yield* accounts.completeConnection(yield* workspace, params.id, payload) }
        }),
      networkEvent: ({ params, payload }) =>
        Effect.gen(function*() {
          const workspaceId = yield* workspace
          // What people do goes to the network; what happens to the account itself is the account's lifecycle.
          if (payload.type === "invitation_accepted" || payload.type === "message_received") {
            yield* simulate(workspaceId, params.id, payload)
            // The service would learn of it at the next sync: in the sandbox that is now (unless
            // background syncing is off, OUTREACH_INBOX_SYNC=false: then POST .../sync does it).
            if (config.inboxSync) yield* inbox.syncAccount(params.id, { onRequest: true })
            return { ok, account: yield* accounts.get(workspaceId, params.id) }
          }
          return { ok, account: yield* accounts.networkEvent(workspaceId, params.id, payload) }
        }),
      sync: ({ params }) =>
        Effect.gen(function*() {
          yield* connectedAccount(yield* workspace, params.id)
          const outcome = yield* inbox.syncAccount(params.id, { onRequest: true })
          return {
            ok,
            sync: outcome._tag === "Synced"
              ? { synced: true, skipped: null, invitations: outcome.invitations, accepted: outcome.accepted, messages: outcome.messages }
              : { synced: false, skipped: outcome.reason, invitations: 0, accepted: 0, messages: 0 }
          }
        })
    })
  ))
}))
