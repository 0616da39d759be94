/**
 * Resolving a bearer credential to its principal, and counting the request in
 * its rate window, in ONE round trip to PostgreSQL. Keys are looked up by hash
 * on every request, so revocation takes effect at once on every server.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../domain/Principal.ts"
import { Role } from "../domain/Principal.ts"
import * as Time from "../domain/Time.ts"
import * as RateLimit from "../ratelimit/RateLimit.ts"
import { hashCredential } from "./Tokens.ts"

/** The result of admitting one request. */
export interface Admission {
  /** The caller, when a valid credential was presented. */
  readonly principal: Principal | undefined
  readonly window: RateLimit.RateWindow
}

const AdmissionRow = Schema.Struct({
  hits: Schema.Number,
  kind: Schema.NullOr(Schema.Literals(["key", "session"])),
  workspace_id: Schema.NullOr(Schema.String),
  credential_id: Schema.NullOr(Schema.String),
  key_name: Schema.NullOr(Schema.String),
  user_id: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  user_name: Schema.NullOr(Schema.String),
  role: Schema.NullOr(Role)
})
type AdmissionRow = typeof AdmissionRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(AdmissionRow))

const toPrincipal = (row: Omit<AdmissionRow, "hits">): Principal | undefined => {
  if (row.workspace_id === null || row.credential_id === null) return undefined
  if (row.kind === "key") {
    return { kind: "key", workspaceId: row.workspace_id, keyId: row.credential_id, keyName: row.key_name ?? "" }
  }
  if (row.kind === "session" && row.user_id !== null && row.role !== null) {
    return {
      kind: "session",
      workspaceId: row.workspace_id,
      sessionId: row.credential_id,
      user: { id: row.user_id, email: row.email ?? "", name: row.user_name ?? "", role: row.role }
    }
  }
  return undefined
}

export class Credentials extends Context.Service<Credentials, {
  /**
   * Resolves `token` (if any) and counts the request: in the credential's
   * window when the token is valid, else in the client address's window.
   */
  readonly admit: (request: {
    readonly token: string | undefined
    readonly clientAddress: string
  }) => Effect.Effect<Admission>
  /** Resolves a token without counting (for embedders that serve the API without the gate). */
  readonly resolve: (token: string) => Effect.Effect<Principal | undefined>
}>()("outreach/Credentials") {
  static readonly layer = Layer.effect(
    Credentials,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      // Keys act as owner; sessions carry their person's role. Only active workspaces admit.
      const principalQuery = (hash: string | null, nowIso: string) =>
        sql`
          SELECT 'key' AS kind, k.workspace_id::text AS workspace_id, k.id::text AS credential_id,
                 k.name AS key_name, NULL::text AS user_id, NULL::text AS email, NULL::text AS user_name,
                 'owner' AS role
          FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id
          WHERE k.hash = ${hash} AND k.revoked_at IS NULL AND w.status = 'active'
          UNION ALL
          SELECT 'session', u.workspace_id::text, s.id::text, '', u.id::text, u.email, u.name, u.role
          FROM sessions s JOIN users u ON u.id = s.user_id JOIN workspaces w ON w.id = u.workspace_id
          WHERE s.hash = ${hash} AND s.revoked_at IS NULL AND s.expires_at > ${nowIso}::timestamptz
            AND w.status = 'active'`

      const admit = Effect.fn("Credentials.admit")(function*(request: {
        readonly token: string | undefined
        readonly clientAddress: string
      }) {
        const now = yield* Time.now
        const hash = request.token === undefined || request.token === "" ? null : hashCredential(request.token)
        const window = RateLimit.windowOf(now.ms)
        const rows = yield* sql`
          WITH principal AS (${principalQuery(hash, now.iso)}),
          touch AS (
            UPDATE api_keys SET last_used_at = ${now.iso}::timestamptz
            WHERE hash = ${hash} AND revoked_at IS NULL
              AND (last_used_at IS NULL OR last_used_at < ${now.iso}::timestamptz - interval '1 minute')
            RETURNING id
          ),
          counted AS (
            INSERT INTO rate_limit_windows (bucket, window_start, hits)
            VALUES (
              COALESCE((SELECT 'credential:' || credential_id FROM principal LIMIT 1), ${
          "address:" + request.clientAddress
        }),
              ${window}, 1)
            ON CONFLICT (bucket) DO UPDATE SET
              hits = CASE WHEN rate_limit_windows.window_start = EXCLUDED.window_start
                          THEN rate_limit_windows.hits + 1 ELSE 1 END,
              window_start = EXCLUDED.window_start
            RETURNING hits
          )
          SELECT counted.hits, principal.*
          FROM counted LEFT JOIN (SELECT * FROM principal LIMIT 1) principal ON true`.pipe(
          Effect.flatMap(decodeRows),
          Effect.orDie
        )
        const row = rows[0]
        return {
          principal: row === undefined ? undefined : toPrincipal(row),
          window: RateLimit.rateWindow(row?.hits ?? 1, now.ms)
        }
      })

      const resolve = Effect.fn("Credentials.resolve")(function*(token: string) {
        const now = yield* Time.now
        const rows = yield* sql`SELECT 0 AS hits, p.* FROM (${principalQuery(hashCredential(token), now.iso)}) p`
          .pipe(Effect.flatMap(decodeRows), Effect.orDie)
        return rows[0] === undefined ? undefined : toPrincipal(rows[0])
      })

      return Credentials.of({ admit, resolve })
    })
  )
}
