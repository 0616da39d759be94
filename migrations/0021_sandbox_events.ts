/**
 * What tests make the sandbox network do from outside
 * (`POST /v1/sandbox/accounts/{id}/events`): an invitation accepted at a
 * chosen instant whatever the behaviour model says, and messages people sent
 * to an account. Both are otherwise computed, never stored, so they need rows
 * of their own.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sandbox_invitations ADD COLUMN forced_accepted_at_ms bigint`
  yield* sql`
    CREATE TABLE sandbox_inbound_messages (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      provider_id text NOT NULL,
      chat_id text NOT NULL,
      text text NOT NULL,
      received_at_ms bigint NOT NULL
    )`
  yield* sql`CREATE INDEX sandbox_inbound_messages_account ON sandbox_inbound_messages (account_id, received_at_ms)`
  yield* sql`CREATE INDEX sandbox_inbound_messages_person ON sandbox_inbound_messages (account_id, provider_id)`
})
