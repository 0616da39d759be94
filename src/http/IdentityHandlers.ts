/**
 * `GET /v1/me`.
 *
 * @since 1.0.0
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Workspaces } from "../workspaces/Workspaces.ts"

export const IdentityHandlers = HttpApiBuilder.group(
  Api,
  "identity",
  Effect.fn(function*(handlers) {
    const workspaces = yield* Workspaces
    return handlers.handle("me", () =>
      Effect.gen(function*() {
        const principal = yield* CurrentPrincipal
        if (principal.kind === "key") {
          return {
            ok: true as const,
            orgId: principal.workspaceId,
            kind: "key" as const,
            keyName: principal.keyName,
            org: null,
            user: null
          }
        }
        const workspace = yield* workspaces.get(principal.workspaceId).pipe(Effect.orDie)
        return {
          ok: true as const,
          orgId: principal.workspaceId,
          kind: "session" as const,
          keyName: "",
          org: {
            id: workspace.id,
            name: workspace.name,
            seats: { total: workspace.seatsTotal },
            createdAt: workspace.createdAt
          },
          user: principal.user
        }
      }))
  })
)
