/**
 * The accounts as stored in PostgreSQL: their rows (decoded as `AccountRow`),
 * the seats a workspace has, the limit overrides and what was spent. It writes
 * what the lifecycle rules (`Lifecycle.ts`) decide and decides nothing itself.
 * It is the one module with SQL on `accounts` (issue #19): the Governor's
 * pacing gate (`writes_not_before`) and the inbox's sync schedule
 * (`synced_until_ms`, `next_sync_at_ms`) are stored through here too, each
 * statement joining the caller's transaction when there is one.
 * A failure of the database is a defect here.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { Mode } from "../domain/Account.ts"
import { Missing } from "../domain/Failures.ts"
import type { LimitOverride, Usage } from "../domain/Limits.ts"
import * as Time from "../domain/Time.ts"
import type { WorkingHours } from "../domain/WorkingHours.ts"
import { BigIntNumber, EpochMillis, firstRow, Nullable } from "../platform/Rows.ts"
import { accountColumns, AccountRow } from "./AccountRow.ts"
import { Budgets } from "./Budgets.ts"
import type { AccountUpdate, SignInLink } from "./Lifecycle.ts"
import { WorkspaceTable } from "./WorkspaceTable.ts"

const decodeAccounts = Schema.decodeUnknownEffect(Schema.Array(AccountRow))

/** An account's row with its pacing gate: the earliest instant its next write may start (epoch ms). */
export const PlanRow = Schema.Struct({ ...AccountRow.fields, writesNotBefore: Nullable(EpochMillis) })
export type PlanRow = typeof PlanRow.Type
const decodePlanRows = Schema.decodeUnknownEffect(Schema.Array(PlanRow))

/** The account's row with its pacing gate; undefined once it is removed. A free function: planning is handed `sql`. */
export const planRowOf = (sql: SqlClient.SqlClient, accountId: string): Effect.Effect<PlanRow | undefined> =>
  sql`
    SELECT ${sql.unsafe(accountColumns)}, a.writes_not_before AS "writesNotBefore" FROM accounts a
    WHERE a.id = ${accountId} AND a.removed_at IS NULL`.pipe(Effect.flatMap(decodePlanRows), firstRow)

const decodeGates = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ id: Schema.String, writesNotBefore: PlanRow.fields.writesNotBefore }))
)
const decodeModes = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ mode: Mode })))
const IdRow = Schema.Struct({ id: Schema.String })
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(IdRow))

/** Where the inbox's last sync of an account read up to, and since when the account is connected (epoch ms). */
export const SyncCursor = Schema.Struct({
  workspaceId: Schema.String,
  syncedUntil: Nullable(BigIntNumber),
  connectedAt: Nullable(BigIntNumber)
})
export type SyncCursor = typeof SyncCursor.Type
const decodeCursors = Schema.decodeUnknownEffect(Schema.Array(SyncCursor))
const decodeSyncedUntil = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ syncedUntil: SyncCursor.fields.syncedUntil })))

/** The answer for an account that is not in the workspace (or was removed). */
export const accountNotFound = (id: string) =>
  new Missing({ message: `No account ${id} in this workspace.`, advice: { _tag: "ListAccounts" } })

/** A new account, connecting, with its first sign-in link. */
export interface NewAccount {
  readonly id: string
  readonly workspaceId: string
  readonly label: string
  readonly workingHours: WorkingHours
  readonly link: SignInLink & { readonly expiresAt: number }
}

/** The columns an update writes. */
const columnsOf = (update: AccountUpdate): Record<string, unknown> => {
  const iso = (ms: number | null) => ms === null ? null : Time.toIso(ms)
  const columns: Record<string, unknown> = {}
  if (update.status !== undefined) columns["status"] = update.status
  if (update.resumeStatus !== undefined) columns["resume_status"] = update.resumeStatus
  if (update.tier !== undefined) columns["tier"] = update.tier
  if (update.products !== undefined) columns["products"] = JSON.stringify(update.products)
  if (update.connections !== undefined) columns["connections"] = update.connections
  if (update.link !== undefined) {
    columns["link_hash"] = update.link === null ? null : update.link.hash
    columns["link_url"] = update.link === null ? null : update.link.url
    columns["link_expires_at"] = update.link === null ? null : iso(update.link.expiresAt)
  }
  if (update.checkpoint !== undefined) columns["checkpoint"] = update.checkpoint
  if (update.connectedAt !== undefined) columns["connected_at"] = iso(update.connectedAt)
  if (update.warmupStartedAt !== undefined) columns["warmup_started_at"] = iso(update.warmupStartedAt)
  if (update.warmupStartDay !== undefined) columns["warmup_start_day"] = update.warmupStartDay
  if (update.readsOnlyUntil !== undefined) columns["reads_only_until"] = iso(update.readsOnlyUntil)
  if (update.restrictedAt !== undefined) columns["restricted_at"] = iso(update.restrictedAt)
  if (update.healthLevel !== undefined) columns["health_level"] = update.healthLevel
  if (update.healthReason !== undefined) columns["health_reason"] = update.healthReason
  if (update.workingHours !== undefined) {
    columns["working_days"] = JSON.stringify(update.workingHours.days)
    columns["work_from"] = update.workingHours.from
    columns["work_to"] = update.workingHours.to
    columns["timezone"] = update.workingHours.timezone
  }
  if (update.label !== undefined) columns["label"] = update.label
  if (update.offHoursPolicy !== undefined) columns["off_hours_policy"] = update.offHoursPolicy
  if (update.minInviteQuality !== undefined) columns["min_invite_quality"] = update.minInviteQuality
  if (update.autoWithdrawDays !== undefined) columns["auto_withdraw_days"] = update.autoWithdrawDays
  if (update.mode !== undefined) columns["mode"] = update.mode
  return columns
}

/** An account as others name it: its label, its workspace, and whether it was removed. */
export const AccountLabel = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  label: Schema.String,
  removed: Schema.Boolean
})
export type AccountLabel = typeof AccountLabel.Type
const decodeLabels = Schema.decodeUnknownEffect(Schema.Array(AccountLabel))

export class AccountStore extends Context.Service<AccountStore, {
  /** Runs `effect` in one transaction; a failure of the database is a defect. */
  readonly transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The workspace's accounts (removed ones left out), oldest first. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<AccountRow>>
  /** How many seats the workspace has in all. */
  readonly seatsTotal: (workspaceId: string) => Effect.Effect<number>
  /**
   * Locks the workspace's seats for the rest of the transaction (concurrent connects of one
   * workspace wait for each other) and counts those taken and those there are.
   */
  readonly lockSeats: (workspaceId: string) => Effect.Effect<{ readonly taken: number; readonly total: number }>
  readonly insert: (account: NewAccount, nowMs: number) => Effect.Effect<void>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<AccountRow, Missing>
  /** The account, locked for the rest of the transaction. */
  readonly lock: (workspaceId: string, id: string) => Effect.Effect<AccountRow, Missing>
  /** The account whose sign-in link has this hash and is still valid at `nowMs`. */
  readonly byLink: (hash: string, nowMs: number) => Effect.Effect<AccountRow | undefined>
  /** Writes `update`, with the time of the change. */
  readonly update: (id: string, update: AccountUpdate, nowMs: number) => Effect.Effect<void>
  /** Marks the account removed and its sign-in link unusable. */
  readonly markRemoved: (id: string, nowMs: number) => Effect.Effect<void>
  /** The account's `PUT /limits` overrides. */
  readonly overrides: (id: string) => Effect.Effect<ReadonlyArray<LimitOverride>>
  readonly replaceOverrides: (id: string, overrides: ReadonlyArray<LimitOverride>) => Effect.Effect<void>
  /** What the account has spent of each budget at `nowMs`, periods in its own zone. */
  readonly usage: (row: AccountRow, nowMs: number) => Effect.Effect<Usage>
  /** The account's mode; undefined when it is not the workspace's or was removed. */
  readonly modeOf: (workspaceId: string, id: string) => Effect.Effect<Mode | undefined>
  /** The label, workspace and removal of each of these accounts, removed ones included (one query for them all). */
  readonly labelsOf: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, AccountLabel>>
  /** Whether the account is the workspace's and not removed. */
  readonly exists: (workspaceId: string, id: string) => Effect.Effect<boolean>
  /**
   * Locks the accounts for the rest of the transaction (one write of an account at a time, across
   * servers) and reads their pacing gates; a removed account is missing from the answer, and so is
   * one whose row another session holds right now (skipped, not waited for: a batch of claims is
   * never held up by one account).
   */
  readonly lockWriteGates: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, { readonly writesNotBefore: number | null }>>
  /** No write of each account starts before its instant (epoch ms). */
  readonly setWriteGates: (gates: ReadonlyArray<{ readonly id: string; readonly atMs: number }>) => Effect.Effect<void>
  /** Locks the account for the rest of the transaction: one sync of an account at a time, across servers. */
  readonly lockForSync: (id: string) => Effect.Effect<void>
  /** Where the last sync read up to; undefined for an account that does not exist. */
  readonly syncCursor: (id: string) => Effect.Effect<SyncCursor | undefined>
  /** The account is next due for a sync at `atMs`. */
  readonly scheduleSync: (id: string, atMs: number) => Effect.Effect<void>
  /** A sync read up to `syncedUntil`; the next is due at `nextAtMs`. */
  readonly recordSync: (id: string, syncedUntil: number, nextAtMs: number) => Effect.Effect<void>
  /**
   * Claims up to `limit` connected accounts whose sync is due at `nowMs`, never-synced first, by
   * moving their next sync to `leaseUntilMs` (another server skips them; rows another server is
   * claiming are skipped, not waited for).
   */
  readonly claimDueSyncs: (nowMs: number, leaseUntilMs: number, limit: number) => Effect.Effect<ReadonlyArray<string>>
  /** Where the last sync read up to; undefined once the account is removed. */
  readonly syncedUntil: (id: string) => Effect.Effect<{ readonly syncedUntil: number | null } | undefined>
  /** Brings the account's next sync forward to `dueByMs` when it is later (null: due at once), if it has one. */
  readonly bringSyncForward: (id: string, dueByMs: number | null) => Effect.Effect<void>
}>()("outreach/AccountStore") {
  static readonly layerNoDeps = Layer.effect(
    AccountStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const workspaces = yield* WorkspaceTable
      const budgets = yield* Budgets
      const select = sql.unsafe(accountColumns)

      const rowsWhere = (where: Statement.Fragment) =>
        sql`SELECT ${select} FROM accounts a WHERE a.removed_at IS NULL AND ${where} ORDER BY a.created_at, a.id`.pipe(
          Effect.flatMap(decodeAccounts),
          Effect.orDie
        )

      const modeOf = (workspaceId: string, id: string) =>
        sql`
          SELECT mode FROM accounts WHERE id = ${id} AND workspace_id = ${workspaceId} AND removed_at IS NULL`.pipe(
          Effect.flatMap(decodeModes),
          Effect.map((rows) => rows.at(0)?.mode),
          Effect.orDie
        )

      const one = (rows: ReadonlyArray<AccountRow>, id: string) =>
        rows.length === 0 ? Effect.fail(accountNotFound(id)) : Effect.succeed(rows[0])

      const update = (id: string, columns: Record<string, unknown>, nowMs: number) =>
        sql`UPDATE accounts SET ${sql.update({ ...columns, updated_at: Time.toIso(nowMs) })} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )

      return AccountStore.of({
        transaction: (effect) => sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die)),

        list: (workspaceId) => rowsWhere(sql`a.workspace_id = ${workspaceId}`),

        seatsTotal: workspaces.seatsTotal,

        // The workspace row lock serialises connects of one workspace: seats can never be oversold.
        // The count is a statement of its own, so it sees what the previous holder of the lock committed.
        lockSeats: (workspaceId) =>
          Effect.gen(function*() {
            const total = yield* workspaces.lockSeatsTotal(workspaceId)
            const counted = yield* sql<{ readonly taken: number }>`
              SELECT count(*)::int AS taken FROM accounts WHERE workspace_id = ${workspaceId} AND removed_at IS NULL`
            return { taken: counted[0].taken, total }
          }).pipe(Effect.orDie),

        insert: (account, nowMs) => {
          const now = Time.toIso(nowMs)
          return sql`INSERT INTO accounts ${
            sql.insert({
              id: account.id,
              workspace_id: account.workspaceId,
              label: account.label,
              status: "connecting",
              working_days: JSON.stringify(account.workingHours.days),
              work_from: account.workingHours.from,
              work_to: account.workingHours.to,
              timezone: account.workingHours.timezone,
              created_at: now,
              updated_at: now,
              link_hash: account.link.hash,
              link_url: account.link.url,
              link_expires_at: Time.toIso(account.link.expiresAt)
            })
          }`.pipe(Effect.asVoid, Effect.orDie)
        },

        get: (workspaceId, id) =>
          Effect.flatMap(rowsWhere(sql`a.id = ${id} AND a.workspace_id = ${workspaceId}`), (rows) => one(rows, id)),

        lock: (workspaceId, id) =>
          sql`SELECT ${select} FROM accounts a
              WHERE a.id = ${id} AND a.workspace_id = ${workspaceId} AND a.removed_at IS NULL FOR UPDATE`.pipe(
            Effect.flatMap(decodeAccounts),
            Effect.orDie,
            Effect.flatMap((rows) => one(rows, id))
          ),

        byLink: (hash, nowMs) =>
          Effect.map(
            rowsWhere(sql`a.link_hash = ${hash} AND a.link_expires_at > ${Time.toIso(nowMs)}::timestamptz`),
            (rows) => rows[0]
          ),

        update: (id, change, nowMs) => update(id, columnsOf(change), nowMs),

        markRemoved: (id, nowMs) => update(id, { removed_at: Time.toIso(nowMs), link_hash: null, link_url: null }, nowMs),

        overrides: budgets.overridesOf,

        replaceOverrides: budgets.replaceOverrides,

        usage: (row, nowMs) => budgets.usageOf(row.id, row.timezone, nowMs),

        modeOf,

        labelsOf: (ids) =>
          ids.length === 0 ? Effect.succeed(new Map<string, AccountLabel>()) : sql`
            SELECT id::text AS id, workspace_id::text AS "workspaceId", label, (removed_at IS NOT NULL) AS removed
            FROM accounts WHERE id IN ${sql.in(ids)}`.pipe(
            Effect.flatMap(decodeLabels),
            Effect.map((rows) => new Map(rows.map((row) => [row.id, row]))),
            Effect.orDie
          ),

        exists: (workspaceId, id) => Effect.map(modeOf(workspaceId, id), (mode) => mode !== undefined),

        lockWriteGates: (ids) =>
          ids.length === 0
            ? Effect.succeed(new Map())
            : sql`
              SELECT id::text AS id, writes_not_before AS "writesNotBefore" FROM accounts
              WHERE ${sql.in("id", [...new Set(ids)])} AND removed_at IS NULL ORDER BY id FOR UPDATE SKIP LOCKED`.pipe(
              Effect.flatMap(decodeGates),
              Effect.map((rows) => new Map(rows.map((row) => [row.id, { writesNotBefore: row.writesNotBefore }]))),
              Effect.orDie
            ),

        setWriteGates: (gates) =>
          gates.length === 0 ? Effect.void : sql`
            UPDATE accounts SET writes_not_before = gate.at
            FROM (VALUES ${sql.csv(gates.map((gate) => sql`(${gate.id}::uuid, ${Time.toIso(gate.atMs)}::timestamptz)`))})
              AS gate(id, at)
            WHERE accounts.id = gate.id`.pipe(Effect.asVoid, Effect.orDie),

        lockForSync: (id) => sql`SELECT 1 FROM accounts WHERE id = ${id} FOR UPDATE`.pipe(Effect.asVoid, Effect.orDie),

        syncCursor: (id) =>
          sql`
            SELECT workspace_id::text AS "workspaceId", synced_until_ms AS "syncedUntil",
              (extract(epoch FROM connected_at) * 1000)::bigint AS "connectedAt"
            FROM accounts WHERE id = ${id}`.pipe(Effect.flatMap(decodeCursors), firstRow),

        scheduleSync: (id, atMs) =>
          sql`UPDATE accounts SET next_sync_at_ms = ${atMs} WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),

        recordSync: (id, syncedUntil, nextAtMs) =>
          sql`
            UPDATE accounts SET synced_until_ms = ${syncedUntil}, next_sync_at_ms = ${nextAtMs}
            WHERE id = ${id}`.pipe(Effect.asVoid, Effect.orDie),

        claimDueSyncs: (nowMs, leaseUntilMs, limit) =>
          sql`
            UPDATE accounts SET next_sync_at_ms = ${leaseUntilMs}
            WHERE id IN (
              SELECT id FROM accounts
              WHERE removed_at IS NULL AND connected_at IS NOT NULL
                AND (next_sync_at_ms IS NULL OR next_sync_at_ms <= ${nowMs})
              ORDER BY next_sync_at_ms NULLS FIRST LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING id::text AS id`.pipe(
            Effect.flatMap(decodeIds),
            Effect.map((rows) => rows.map((row) => row.id)),
            Effect.orDie
          ),

        syncedUntil: (id) =>
          sql`
            SELECT synced_until_ms AS "syncedUntil" FROM accounts
            WHERE id = ${id} AND removed_at IS NULL`.pipe(Effect.flatMap(decodeSyncedUntil), firstRow),

        bringSyncForward: (id, dueByMs) =>
          sql`
            UPDATE accounts SET next_sync_at_ms = ${dueByMs}
            WHERE id = ${id} AND next_sync_at_ms IS NOT NULL
              ${dueByMs === null ? sql`` : sql`AND next_sync_at_ms > ${dueByMs}`}`.pipe(Effect.asVoid, Effect.orDie)
      })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = AccountStore.layerNoDeps.pipe(Layer.provide([Budgets.layer, WorkspaceTable.layer]))
}
