/**
 * People: each person a workspace's accounts have dealt with, once per
 * workspace, identified by the network's identifier of the person; and the
 * link from a job to the person it was about. Their history is not copied
 * here: it is read from the jobs, invitations and messages themselves.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE people (
      id uuid PRIMARY KEY,
      workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      provider_id text NOT NULL,
      profile_url text NOT NULL,
      name text,
      headline text,
      company text,
      first_seen_at timestamptz NOT NULL,
      last_activity_at timestamptz NOT NULL,
      UNIQUE (workspace_id, provider_id)
    )`
  yield* sql`CREATE INDEX people_activity ON people (workspace_id, last_activity_at DESC, id DESC)`
  yield* sql`ALTER TABLE jobs ADD COLUMN person_id uuid REFERENCES people (id) ON DELETE SET NULL`
  yield* sql`CREATE INDEX jobs_person ON jobs (person_id) WHERE person_id IS NOT NULL`
  yield* sql`CREATE INDEX invitations_provider ON invitations (provider_id)`
  yield* sql`CREATE INDEX inbox_messages_sender ON inbox_messages (sender_provider_id)`
})
