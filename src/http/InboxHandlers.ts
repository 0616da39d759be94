/**
 * The inbox endpoints: invitations, the Daily brief and the Health report.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Inbox } from "../inbox/Inbox.ts"
import { Reports } from "../inbox/Reports.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

export const InboxHandlers = Layer.unwrap(Effect.gen(function*() {
  const inbox = spoken(yield* Inbox)
  const reports = spoken(yield* Reports)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "inbox", (handlers) =>
    handlers
      .handle("invitations", ({ params, query }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const invitations = yield* inbox.invitations(workspaceId, params.id, query.status ?? "pending")
          return { ok: true as const, invitations }
        }))
      .handle("brief", ({ params, query }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return { ok: true as const, brief: yield* reports.brief(workspaceId, params.id, query.hours ?? 24) }
        }))
      .handle("healthReport", ({ params }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return { ok: true as const, report: yield* reports.healthReport(workspaceId, params.id) }
        }))
  ))
}))
