/**
 * The outbox: every event is written in the same transaction as the change it
 * reports, so nothing is lost between "done" and "told". Webhook delivery reads
 * from here.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Time from "../domain/Time.ts"
import { Timestamp } from "../platform/Rows.ts"
import { EventData, type EventType, EventTypeSchema, type NewEvent } from "../domain/Events.ts"

/** A recorded event, as the webhook envelope carries it. */
export interface RecordedEvent {
  readonly id: string
  readonly workspaceId: string
  readonly type: EventType
  readonly createdAt: string
  readonly data: unknown
}

const EventRow = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  type: EventTypeSchema,
  createdAt: Timestamp,
  data: Schema.Unknown
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(EventRow))

const encodeData = (event: NewEvent): Effect.Effect<unknown> =>
  Schema.encodeUnknownEffect(EventData[event.type])(event.data).pipe(Effect.orDie)

export class Outbox extends Context.Service<Outbox, {
  /** Records events; call it inside the transaction of the change they report. */
  readonly append: (workspaceId: string, events: ReadonlyArray<NewEvent>) => Effect.Effect<void>
  /** Events of a workspace in the order they happened (oldest first), optionally of one type. */
  readonly list: (workspaceId: string, options?: { readonly type?: EventType }) => Effect.Effect<
    ReadonlyArray<RecordedEvent>
  >
}>()("outreach/Outbox") {
  static readonly layer = Layer.effect(
    Outbox,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const append = Effect.fn("Outbox.append")(function*(workspaceId: string, events: ReadonlyArray<NewEvent>) {
        if (events.length === 0) return
        const now = yield* Time.now
        for (const event of events) {
          const data = yield* encodeData(event)
          yield* sql`
            INSERT INTO outbox_events (id, workspace_id, type, data, created_at)
            VALUES (${crypto.randomUUID()}, ${workspaceId}, ${event.type}, ${JSON.stringify(data)}::jsonb,
                    ${now.iso}::timestamptz)`.pipe(Effect.orDie)
        }
      })

      const list = Effect.fn("Outbox.list")((workspaceId: string, options?: { readonly type?: EventType }) =>
        sql`
          SELECT id::text AS id, workspace_id::text AS "workspaceId", type, created_at AS "createdAt", data
          FROM outbox_events
          WHERE workspace_id = ${workspaceId} ${options?.type === undefined ? sql`` : sql`AND type = ${options.type}`}
          ORDER BY seq`.pipe(Effect.flatMap(decodeRows), Effect.orDie)
      )

      return Outbox.of({ append, list })
    })
  )
}
