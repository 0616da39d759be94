/**
 * `GET /v1/activity`.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ActivityLog, type ActivityRecord } from "../activity/ActivityLog.ts"
import { Api } from "../api/Api.ts"
import { LIST_LIMIT_DEFAULT } from "../api/JobsApi.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { Team } from "../team/Team.ts"
import { actorNamer } from "./Actors.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

/** An entry as the API shows it, the actor named. */
export const entryOf = (nameOf: (actor: string) => string) => (entry: ActivityRecord) => ({
  id: entry.id,
  at: entry.at,
  actor: {
    type: entry.actor.startsWith("user:") ? "person" as const : entry.actor.startsWith("key:") ? "key" as const : "operator" as const,
    id: entry.actor === "operator" ? null : entry.actor,
    name: nameOf(entry.actor)
  },
  action: entry.action,
  resource: { type: entry.resourceType, id: entry.resourceId },
  summary: entry.summary,
  before: entry.before ?? null,
  after: entry.after ?? null
})

export const ActivityHandlers = Layer.unwrap(Effect.gen(function*() {
  const log = spoken(yield* ActivityLog)
  const team = yield* Team
  const keys = yield* ApiKeys
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "activity", (handlers) =>
    handlers.handle("list", ({ query }) =>
      Effect.gen(function*() {
        const { workspaceId } = yield* CurrentPrincipal
        const page = yield* log.list(workspaceId, {
          action: query.action,
          actor: query.actor,
          resourceType: query.resource,
          cursor: query.cursor,
          limit: query.limit ?? LIST_LIMIT_DEFAULT
        })
        const nameOf = yield* actorNamer(workspaceId).pipe(Effect.provideService(Team, team), Effect.provideService(ApiKeys, keys))
        return { ok: true as const, activity: page.entries.map(entryOf(nameOf)), nextCursor: page.nextCursor }
      }))
  ))
}))
