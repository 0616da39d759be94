/**
 * The people endpoints: search, and one person with their timeline.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { LIST_LIMIT_DEFAULT } from "../api/JobsApi.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { People } from "../people/People.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken } from "./ServiceErrors.ts"

export const PeopleHandlers = Layer.unwrap(Effect.gen(function*() {
  const people = spoken(yield* People)
  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "people", (handlers) =>
    handlers
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const page = yield* people.list(workspaceId, { ...query, limit: query.limit ?? LIST_LIMIT_DEFAULT })
          return { ok: true as const, people: page.people, nextCursor: page.nextCursor }
        }))
      .handle("get", ({ params }) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          const found = yield* people.get(workspaceId, params.id)
          return { ok: true as const, person: found.person, timeline: found.timeline }
        }))
  ))
}))
