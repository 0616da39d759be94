/**
 * The sandbox's account endpoints.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Accounts } from "../accounts/Accounts.ts"
import { Api } from "../api/Api.ts"
import { Conflict, NotFound, Unprocessable } from "../api/Errors.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { NetworkDriver, type SimulatedEvent } from "../network/NetworkDriver.ts"
import type { NetworkError } from "../network/NetworkErrors.ts"
import { sandboxOnly } from "./SandboxOnly.ts"

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

export const SandboxHandlers = HttpApiBuilder.group(
  Api,
  "sandbox",
  Effect.fn(function*(handlers) {
    const accounts = yield* Accounts
    const network = yield* NetworkDriver
    const workspace = Effect.gen(function*() {
      yield* sandboxOnly(network)
      return (yield* CurrentPrincipal).workspaceId
    })
    const simulate = Effect.fn("SandboxHandlers.simulate")(function*(workspaceId: string, id: string, event: SimulatedEvent) {
      const account = yield* accounts.get(workspaceId, id)
      if (account.status === "connecting") {
        return yield* new Conflict({
          error: { message: "The account is still connecting.", next: "Complete the connection first." }
        })
      }
      if (network.simulate === undefined) {
        return yield* new NotFound({
          error: { message: `The ${network.name} network cannot be told what to do.`, next: "Set OUTREACH_NETWORK=sandbox." }
        })
      }
      yield* network.simulate(id, event).pipe(Effect.mapError(refusal))
      return yield* accounts.get(workspaceId, id)
    })
    return handlers.handleAll({
      completeConnection: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, account: yield* accounts.completeConnection(yield* workspace, params.id, payload) }
        }),
      networkEvent: ({ params, payload }) =>
        Effect.gen(function*() {
          const workspaceId = yield* workspace
          // What people do goes to the network; what happens to the account itself is the account's lifecycle.
          const account = payload.type === "invitation_accepted" || payload.type === "message_received"
            ? yield* simulate(workspaceId, params.id, payload)
            : yield* accounts.networkEvent(workspaceId, params.id, payload)
          return { ok, account }
        })
    })
  })
)
