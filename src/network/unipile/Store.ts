/**
 * The Unipile driver's own tables (`migrations/0230_unipile.ts`): which provider account holds
 * each of the service's accounts, and each write attempt with its target, its text and, once the
 * provider answered, its result. It reads only its own `unipile_*` tables. Database failures are
 * defects here, as in every store.
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { BigIntNumber } from "../../platform/Rows.ts"

const LinkRow = Schema.Struct({ accountId: Schema.String, providerAccountId: Schema.String })
const OwnerRow = Schema.Struct({ accountId: Schema.String, workspaceId: Schema.NullOr(Schema.String) })

const AttemptRow = Schema.Struct({
  key: Schema.String,
  command: Schema.String,
  target: Schema.String,
  body: Schema.NullOr(Schema.String),
  startedAtMs: BigIntNumber,
  result: Schema.Unknown
})

/** A write as it was about to be sent, and its result once the provider answered (null before). */
export type Attempt = typeof AttemptRow.Type

const attemptColumns = `key, command, target, body, started_at_ms AS "startedAtMs", result`

/** The store, on the ambient `SqlClient`. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const decode = <S extends Schema.ConstraintDecoder<unknown>>(schema: S) => {
    const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
    return <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) => query.pipe(Effect.flatMap(rows), Effect.orDie)
  }
  const run = <A, E, R>(statement: Effect.Effect<A, E, R>) => statement.pipe(Effect.asVoid, Effect.orDie)
  const links = decode(LinkRow)
  const owners = decode(OwnerRow)
  const attempts = decode(AttemptRow)

  return {
    /** Records that `providerAccountId` holds the service's account (a new sign-in replaces the old link). */
    link: (accountId: string, providerAccountId: string, atMs: number) =>
      run(sql`INSERT INTO unipile_accounts ${sql.insert({ account_id: accountId, provider_account_id: providerAccountId, linked_at_ms: atMs })}
        ON CONFLICT (account_id) DO UPDATE SET provider_account_id = EXCLUDED.provider_account_id, linked_at_ms = EXCLUDED.linked_at_ms`),

    /** The provider account holding the service's account, if any. */
    providerAccountOf: (accountId: string): Effect.Effect<string | undefined> =>
      links(sql`SELECT account_id AS "accountId", provider_account_id AS "providerAccountId"
        FROM unipile_accounts WHERE account_id = ${accountId}`).pipe(Effect.map((rows) => rows[0]?.providerAccountId)),

    /** The service's account a provider account holds, and its workspace, if any. */
    accountOf: (providerAccountId: string): Effect.Effect<{ readonly accountId: string; readonly workspaceId: string | null } | undefined> =>
      owners(sql`SELECT account_id AS "accountId", workspace_id AS "workspaceId"
        FROM unipile_accounts WHERE provider_account_id = ${providerAccountId}`).pipe(Effect.map((rows) => rows[0])),

    /** Keeps the workspace of a linked account, as the service recorded it. */
    recordWorkspace: (accountId: string, workspaceId: string) =>
      run(sql`UPDATE unipile_accounts SET workspace_id = ${workspaceId} WHERE account_id = ${accountId}`),

    /** Any linked provider account (for looking a person up when no account is named). */
    anyProviderAccount: links(sql`SELECT account_id AS "accountId", provider_account_id AS "providerAccountId"
      FROM unipile_accounts ORDER BY linked_at_ms DESC LIMIT 1`).pipe(Effect.map((rows) => rows[0]?.providerAccountId)),

    /** Forgets the link of a removed account. */
    unlink: (accountId: string) => run(sql`DELETE FROM unipile_accounts WHERE account_id = ${accountId}`),

    /** Keeps a write before it is sent; a new attempt of the same job replaces the previous one. */
    begin: (attempt: {
      readonly key: string
      readonly accountId: string
      readonly command: string
      readonly target: string
      readonly body: string | null
      readonly startedAtMs: number
    }) =>
      run(sql`INSERT INTO unipile_writes ${
        sql.insert({
          key: attempt.key,
          account_id: attempt.accountId,
          command: attempt.command,
          target: attempt.target,
          body: attempt.body,
          started_at_ms: attempt.startedAtMs
        })
      } ON CONFLICT (key) DO UPDATE SET target = EXCLUDED.target, body = EXCLUDED.body,
        started_at_ms = EXCLUDED.started_at_ms, result = NULL`),

    /** Keeps the result the provider's answer came to. */
    finish: (key: string, result: unknown) =>
      run(sql`UPDATE unipile_writes SET result = ${JSON.stringify(result)} WHERE key = ${key}`),

    /** The attempt keyed `key` by the account, if one was begun. */
    attempt: (accountId: string, key: string): Effect.Effect<Attempt | undefined> =>
      attempts(sql`SELECT ${sql.unsafe(attemptColumns)} FROM unipile_writes WHERE key = ${key} AND account_id = ${accountId}`).pipe(
        Effect.map((rows) => rows[0])
      ),

    /** The account's finished writes of `command`, newest first (the results sync matches against). */
    finished: (accountId: string, command: string): Effect.Effect<ReadonlyArray<Attempt>> =>
      attempts(sql`SELECT ${sql.unsafe(attemptColumns)} FROM unipile_writes
        WHERE account_id = ${accountId} AND command = ${command} AND result IS NOT NULL ORDER BY started_at_ms DESC`)
  }
})

/** The store's interface. */
export type Store = Effect.Success<typeof make>
