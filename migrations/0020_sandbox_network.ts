/**
 * The sandbox network's state: what accounts did on the simulated network
 * (invitations sent and withdrawn, messages sent, received invitations
 * answered, endorsements, leads, reactions, comments, posts). Everything else
 * the sandbox shows is generated; how people respond is computed from these
 * rows and the clock. Account ids are plain text: the network outlives the
 * service's account records.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sandbox_invitations (
      id uuid PRIMARY KEY,
      account_id text NOT NULL,
      provider_id text NOT NULL,
      note text,
      sent_at_ms bigint NOT NULL,
      withdrawn_at_ms bigint
    )`
  yield* sql`CREATE INDEX sandbox_invitations_person ON sandbox_invitations (provider_id, sent_at_ms)`
  yield* sql`CREATE INDEX sandbox_invitations_account ON sandbox_invitations (account_id, sent_at_ms)`
  yield* sql`
    CREATE TABLE sandbox_messages (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      provider_id text NOT NULL,
      chat_id text NOT NULL,
      seq integer NOT NULL,
      text text NOT NULL,
      subject text,
      inmail boolean NOT NULL,
      sent_at_ms bigint NOT NULL,
      UNIQUE (account_id, provider_id, seq)
    )`
  yield* sql`CREATE INDEX sandbox_messages_account ON sandbox_messages (account_id, sent_at_ms)`
  yield* sql`
    CREATE TABLE sandbox_invitation_answers (
      account_id text NOT NULL,
      invitation_id text NOT NULL,
      provider_id text NOT NULL,
      answer text NOT NULL CHECK (answer IN ('accepted', 'declined')),
      answered_at_ms bigint NOT NULL,
      PRIMARY KEY (account_id, invitation_id)
    )`
  yield* sql`
    CREATE TABLE sandbox_actions (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      kind text NOT NULL CHECK (kind IN ('endorse', 'save_lead', 'react', 'comment', 'create_post')),
      target text NOT NULL,
      detail jsonb NOT NULL,
      at_ms bigint NOT NULL,
      UNIQUE (account_id, kind, target)
    )`
})
