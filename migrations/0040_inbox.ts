/**
 * The inbox: invitations the accounts sent (through the service or found by
 * syncing) and the messages they received, as syncing recorded them, and
 * each account's sync cursor and next sync time.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE invitations (
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL,
      provider_id text NOT NULL,
      name text,
      note text,
      status text NOT NULL CHECK (status IN ('pending', 'accepted', 'withdrawn', 'declined', 'unknown')),
      source text NOT NULL CHECK (source IN ('svc', 'external')),
      sent_at timestamptz NOT NULL,
      accepted_at timestamptz,
      resolved_at timestamptz,
      PRIMARY KEY (account_id, id)
    )`
  yield* sql`CREATE INDEX invitations_account_sent ON invitations (account_id, sent_at DESC)`
  yield* sql`
    CREATE TABLE inbox_messages (
      account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      id text NOT NULL,
      chat_id text NOT NULL,
      sender_provider_id text NOT NULL,
      text text NOT NULL,
      sent_at timestamptz NOT NULL,
      in_reply_to text,
      triage_class text,
      suggested_reply text,
      PRIMARY KEY (account_id, id)
    )`
  yield* sql`CREATE INDEX inbox_messages_account_sent ON inbox_messages (account_id, sent_at DESC)`
  yield* sql`ALTER TABLE accounts ADD COLUMN synced_until_ms bigint`
  yield* sql`ALTER TABLE accounts ADD COLUMN next_sync_at_ms bigint`
})
