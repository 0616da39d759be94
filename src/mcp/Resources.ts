/**
 * What an assistant can read as MCP resources: each account's daily brief and
 * health report (URI templates), and the API's contract as a short index with
 * one OpenAPI document per operation group (`OpenApiIndex.ts`).
 *
 * A read that fails (an account of another workspace, say) answers an error
 * whose message is the REST envelope's `type`, `message` and `next`.
 */
import { Data, Effect, Layer, Schema } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { Uuid } from "../api/Envelope.ts"
import { Brief, HealthReport } from "../api/InboxApi.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { wordsOf } from "../http/ServiceErrors.ts"
import { Reports } from "../inbox/Reports.ts"
import * as OpenApiIndex from "./OpenApiIndex.ts"

/** A resource that could not be read; its message is the REST envelope's, for the assistant. */
class ResourceUnavailable extends Data.TaggedError("ResourceUnavailable")<{ readonly message: string }> {}

const withMessage = (failure: Parameters<typeof wordsOf>[0]) => {
  const { type, message, next } = wordsOf(failure)
  return new ResourceUnavailable({ message: `${type}: ${message} ${next}` })
}

const accountId = McpSchema.param("accountId", Uuid)

const json = <S extends Schema.Top>(schema: S) => {
  const encode = Schema.encodeUnknownEffect(Schema.toCodecJson(schema))
  return (value: S["Type"]) => Effect.map(Effect.orDie(encode(value)), (encoded) => JSON.stringify(encoded, null, 2))
}

/** The brief and the health report of an account of the caller's workspace. */
const reports = Layer.unwrap(Effect.gen(function*() {
  const service = yield* Reports
  const briefJson = json(Brief)
  const reportJson = json(HealthReport)
  return Layer.mergeAll(
    McpServer.resource`outreach://accounts/${accountId}/brief`({
      name: "Daily brief",
      description: "What needs a person today on the account: replies with suggested answers, new connections, the queue, approvals, budgets.",
      mimeType: "application/json",
      content: (_uri, id) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return yield* briefJson(yield* service.brief(workspaceId, id, 24))
        }).pipe(Effect.mapError(withMessage))
    }),
    McpServer.resource`outreach://accounts/${accountId}/health-report`({
      name: "Health report",
      description: "The account's network size, stale invitations, SSI, warm-up progress and recommendations.",
      mimeType: "application/json",
      content: (_uri, id) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return yield* reportJson(yield* service.healthReport(workspaceId, id))
        }).pipe(Effect.mapError(withMessage))
    })
  )
}))

/** The contract's index (`outreach://openapi.json`), and one OpenAPI document per operation group. */
const openApi = Layer.unwrap(Effect.sync(() => {
  const groups = OpenApiIndex.groups()
  return Layer.mergeAll(
    McpServer.resource({
      uri: OpenApiIndex.indexUri,
      name: "REST API index",
      description: "The REST API's operation groups, each with its operations and the resource holding its OpenAPI document.",
      mimeType: "application/json",
      content: Effect.succeed(OpenApiIndex.index(groups))
    }),
    ...groups.map((group) =>
      McpServer.resource({
        uri: group.uri,
        name: `REST API: ${group.name}`,
        description: `OpenAPI 3.1 document of the ${group.name} operations: ${group.operations.length} operations, their schemas and examples.`,
        mimeType: "application/json",
        content: Effect.sync(group.document)
      })
    )
  )
}))

/** Every resource; needs `Reports`, and the caller as `CurrentPrincipal` per request. */
export const layer = Layer.mergeAll(reports, openApi)
