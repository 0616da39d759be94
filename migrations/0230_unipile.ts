/**
 * The Unipile driver's own bookkeeping (`src/network/unipile/Store.ts`):
 * - `unipile_accounts`: which provider account (Unipile's `account_id`) holds each of the
 *   service's accounts, from the sign-in, and the account's workspace once the service recorded it;
 * - `unipile_writes`: each write attempt, kept before it is sent (its target and text, what
 *   `outcomeOf` matches on the network after a crash) and its result once the provider answered.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE unipile_accounts (
      account_id text PRIMARY KEY,
      provider_account_id text NOT NULL UNIQUE,
      workspace_id text,
      linked_at_ms bigint NOT NULL
    )`
  yield* sql`
    CREATE TABLE unipile_writes (
      key text PRIMARY KEY,
      account_id text NOT NULL,
      command text NOT NULL,
      target text NOT NULL,
      body text,
      started_at_ms bigint NOT NULL,
      result jsonb
    )`
  yield* sql`CREATE INDEX unipile_writes_target ON unipile_writes (account_id, command, target)`
})
