/**
 * `GET /v1/activity`: the workspace's activity log, for audit.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ActivityAction, ActivityResource } from "../domain/Activity.ts"
import { Text } from "../domain/Text.ts"
import { DateTimeString, Ok, Uuid } from "./Envelope.ts"
import { Unprocessable } from "./Errors.ts"
import { Cursor, ListLimit } from "./JobsApi.ts"
import { allowedTo, Authentication } from "./Security.ts"

const entryExample = {
  id: "4f2a9c1e-7b3d-4e5f-8a6b-1c2d3e4f5a6b",
  at: "2026-11-26T10:42:07.000Z",
  actor: { type: "person" as const, id: "user:8d3f2a1b-4c5e-4f6a-9b8c-7d6e5f4a3b2c", name: "Olivia Owner" },
  action: "seat.mode_changed" as const,
  resource: { type: "seat", id: "7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f" },
  summary: "switched the seat \"Ada\" from approve to autopilot mode",
  before: { mode: "approve" },
  after: { mode: "autopilot" }
}

/** Who did it. */
export const ActivityActor = Schema.Struct({
  type: Schema.Literals(["person", "key", "operator"]),
  id: Schema.NullOr(Schema.String).annotate({ description: "`user:<id>` or `key:<id>`; null for the operator's command line" }),
  name: Schema.String.annotate({ description: "The person's name or the key's, as they are now (\"a former teammate\" once removed)" })
}).annotate({ identifier: "ActivityActor" })

/** One thing done. */
export const ActivityEntry = Schema.Struct({
  id: Uuid,
  at: DateTimeString,
  actor: ActivityActor,
  action: ActivityAction,
  resource: Schema.Struct({
    type: Schema.String.annotate({ description: "`approval`, `seat`, `person`, `invitation`, `key`, `workflow` or `automation`" }),
    id: Schema.String
  }),
  summary: Schema.String.annotate({ description: "What was done, in words" }),
  before: Schema.Unknown.annotate({ description: "What the changed fields were (settings, limits, a role, an edited text); null when nothing was before" }),
  after: Schema.Unknown.annotate({ description: "What they became; null when nothing is after" })
}).annotate({ identifier: "ActivityEntry", examples: [entryExample] })

/** The filters of `GET /v1/activity` (and of the dashboard's Activity page). */
export const activityQuery = {
  action: Schema.optionalKey(ActivityAction.annotate({ description: "Only this action" })),
  actor: Schema.optionalKey(
    Text.check(Schema.isMaxLength(100)).annotate({
      description: "Only what this actor did: `user:<id>`, `key:<id>` or `operator` (anything else matches nothing)"
    })
  ),
  resource: Schema.optionalKey(
    ActivityResource.annotate({ description: "Only about this kind of thing" })
  ),
  cursor: Schema.optionalKey(Cursor),
  limit: ListLimit
}

export class ActivityApi extends HttpApiGroup.make("activity")
  .add(
    HttpApiEndpoint.get("list", "/v1/activity", {
      query: activityQuery,
      success: Ok({
        activity: Schema.Array(ActivityEntry).annotate({ description: "Newest first" }),
        nextCursor: Schema.NullOr(Schema.String).annotate({ description: "Pass as `cursor` for the next page; null on the last page" })
      }).annotate({ examples: [{ ok: true, activity: [entryExample], nextCursor: null }] }),
      error: Unprocessable
    }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "The activity log",
      description: [
        "Who did what to the workspace, and when, newest first: approvals approved, edited and approved, or rejected; a seat connected,",
        "its settings, mode or limits changed, paused, resumed or disconnected; a teammate invited, removed or given another role; a",
        "password reset link made for a teammate, and used; an API key created or revoked; a workflow or an automation paused, resumed",
        "or stopped. Settings carry what they were (`before`) and what they became (`after`). Whatever the surface (REST,",
        "the dashboard, an assistant over MCP), the same entry is made. Paged with `cursor` and `limit`; filtered by `action`, `actor`",
        "and `resource`. 422 `unprocessable`: a cursor this API did not give out."
      ].join("\n")
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Activity" }))
{}
