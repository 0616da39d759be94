/**
 * The sandbox network records every write attempt it receives, refused or
 * not (issue #29): one key (a job) may now have several rows, so the chaos
 * suite can count a write carried out twice instead of the primary key
 * hiding the second one. Each row carries the attempt's fencing token, whether
 * the network refused it as stale (a newer token of the account was seen
 * first), and its window in real time (when the call reached the network and
 * when it was answered), from which overlapping writes of one account are
 * counted. `sandbox_fences` holds the newest token each account has shown,
 * the way a network with conditional requests keeps it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE sandbox_writes DROP CONSTRAINT sandbox_writes_pkey`
  yield* sql`ALTER TABLE sandbox_writes ALTER COLUMN result DROP NOT NULL`
  yield* sql`
    ALTER TABLE sandbox_writes
      ADD COLUMN id bigserial PRIMARY KEY,
      ADD COLUMN fence bigint,
      ADD COLUMN refused boolean NOT NULL DEFAULT false,
      ADD COLUMN began_real_ms bigint,
      ADD COLUMN ended_real_ms bigint`
  yield* sql`CREATE INDEX sandbox_writes_key ON sandbox_writes (account_id, key)`
  yield* sql`
    CREATE TABLE sandbox_fences (
      account_id text PRIMARY KEY,
      fence bigint NOT NULL
    )`
})
