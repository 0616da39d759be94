/**
 * Fenced write attempts (issue #29). Each account has an owner epoch that only
 * grows: the runner whose actor takes the account (at activation, and again
 * after it doubted its lease) raises it, and every write attempt it records
 * carries it. A job's `fence` is the epoch of the runner that claimed its
 * running attempt and `attempt` counts its attempts; a claim and an attempt's
 * record are refused once a newer owner exists, and an ending lands only on
 * the attempt it is about. And an index of
 * the jobs no actor has looked at yet, for the sweep that finds a message lost
 * on its way to an account's owner.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_fences (
      account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
      epoch bigint NOT NULL,
      runner text NOT NULL,
      taken_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`ALTER TABLE jobs ADD COLUMN fence bigint, ADD COLUMN attempt integer NOT NULL DEFAULT 0`
  // Jobs no actor has looked at yet: a runner's sweep finds those whose message to their owner was lost.
  yield* sql`CREATE INDEX jobs_unlooked ON jobs (seq) WHERE status = 'queued' AND waiting_reason IS NULL`
})
