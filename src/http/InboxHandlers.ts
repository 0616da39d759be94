/**
 * The inbox endpoints.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Inbox } from "../inbox/Inbox.ts"

export const InboxHandlers = HttpApiBuilder.group(
  Api,
  "inbox",
  Effect.fn(function*(handlers) {
    const inbox = yield* Inbox
    return handlers.handle("invitations", ({ params, query }) =>
      Effect.gen(function*() {
        const { workspaceId } = yield* CurrentPrincipal
        const invitations = yield* inbox.invitations(workspaceId, params.id, query.status ?? "pending")
        return { ok: true as const, invitations }
      }))
  })
)
