/**
 * The sandbox's account endpoints.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Accounts } from "../accounts/Accounts.ts"
import { Api } from "../api/Api.ts"
import { NotFound } from "../api/Errors.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { NetworkDriver } from "../network/NetworkDriver.ts"

const ok = true as const

export const SandboxHandlers = HttpApiBuilder.group(
  Api,
  "sandbox",
  Effect.fn(function*(handlers) {
    const accounts = yield* Accounts
    const network = yield* NetworkDriver
    const sandboxOnly = network.name === "sandbox"
      ? Effect.void
      : Effect.fail(
        new NotFound({
          error: { message: "The sandbox endpoints exist only with the sandbox network driver.", next: "Set OUTREACH_NETWORK=sandbox." }
        })
      )
    const workspace = Effect.gen(function*() {
      yield* sandboxOnly
      return (yield* CurrentPrincipal).workspaceId
    })
    return handlers.handleAll({
      completeConnection: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, account: yield* accounts.completeConnection(yield* workspace, params.id, payload) }
        }),
      networkEvent: ({ params, payload }) =>
        Effect.gen(function*() {
          return { ok, account: yield* accounts.networkEvent(yield* workspace, params.id, payload) }
        })
    })
  })
)
