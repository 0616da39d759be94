/**
 * What an assistant can read as MCP resources: each account's daily brief and
 * health report (URI templates), and the API's OpenAPI document.
 *
 * @since 1.0.0
 */
import { Effect, Layer, Schema } from "effect"
import { McpSchema, McpServer } from "effect/ai"
import { OpenApi } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { Uuid } from "../api/Envelope.ts"
import { Brief, HealthReport } from "../api/InboxApi.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Reports } from "../inbox/Reports.ts"

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
        })
    }),
    McpServer.resource`outreach://accounts/${accountId}/health-report`({
      name: "Health report",
      description: "The account's network size, stale invitations, SSI, warm-up progress and recommendations.",
      mimeType: "application/json",
      content: (_uri, id) =>
        Effect.gen(function*() {
          const { workspaceId } = yield* CurrentPrincipal
          return yield* reportJson(yield* service.healthReport(workspaceId, id))
        })
    })
  )
}))

/** The OpenAPI 3.1 document of the REST API, as served at `/openapi.json`. */
const openApi = McpServer.resource({
  uri: "outreach://openapi.json",
  name: "OpenAPI document",
  description: "The REST API's contract: every endpoint, field, error and example.",
  mimeType: "application/json",
  content: Effect.sync(() => JSON.stringify(OpenApi.fromApi(Api)))
})

/** Every resource; needs `Reports`, and the caller as `CurrentPrincipal` per request. */
export const layer = Layer.mergeAll(reports, openApi)
