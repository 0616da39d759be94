/**
 * Approvals: the writes waiting for a person, and their decisions.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { APPROVAL_STATUS_DEFAULT, decodeApproval } from "../api/ApprovalsApi.ts"
import { decodeJob, LIST_LIMIT_DEFAULT } from "../api/JobsApi.ts"
import { actorOf, CurrentPrincipal } from "../domain/Principal.ts"
import type { ApprovalRecord } from "../approvals/Approvals.ts"
import { Approvals } from "../approvals/Approvals.ts"
import type { JobRecord } from "../jobs/JobRow.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

const ok = true as const

/** Who decided, as recorded on the approval. */

const decision = (outcome: { readonly approval: ApprovalRecord; readonly job: JobRecord }) =>
  Effect.gen(function*() {
    const approval = yield* decodeApproval(outcome.approval).pipe(Effect.orDie)
    const job = yield* decodeJob(outcome.job).pipe(Effect.orDie)
    return { ok, approval, job }
  })

export const ApprovalsHandlers = Layer.unwrap(Effect.gen(function*() {
  const approvals = spoken(yield* Approvals)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "approvals", (handlers) =>
    handlers.handleAll({
      list: ({ query }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const page = yield* approvals.list(principal.workspaceId, {
            status: query.status ?? APPROVAL_STATUS_DEFAULT,
            accountId: query.account,
            cursor: query.cursor,
            limit: query.limit ?? LIST_LIMIT_DEFAULT
          })
          const decoded = yield* Effect.forEach(page.approvals, (a) => decodeApproval(a)).pipe(Effect.orDie)
          return { ok, approvals: decoded, nextCursor: page.nextCursor }
        }),
      approve: ({ params, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* decision(
            yield* approvals.approve(principal.workspaceId, params.id, payload?.text, actorOf(principal))
          )
        }),
      reject: ({ params, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          return yield* decision(
            yield* approvals.reject(principal.workspaceId, params.id, payload?.reason, actorOf(principal))
          )
        })
    })
  ))
}))
