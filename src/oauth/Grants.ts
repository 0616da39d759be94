/**
 * Sign-in for assistants, the stored side: registered clients (RFC 7591), a
 * person's grants to a client, their one-use authorization codes and their
 * tokens (short-lived access tokens, refresh tokens rotated on every use).
 * Only SHA-256 hashes of codes and tokens are stored. The one owner of the
 * `oauth_*` tables; an access token resolves to its principal in
 * `credential_principal` (migration 0250), like a key or a session.
 */
import { createHash } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Credentials } from "../auth/Credentials.ts"
import { hashCredential, newAccessToken, newAuthorizationCode, newRefreshToken } from "../auth/Tokens.ts"
import * as Time from "../domain/Time.ts"
import { firstRow, NullableTimestamp, Timestamp } from "../platform/Rows.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"

/** How long an access token works (seconds): short, a refresh brings the next. */
export const accessTokenSeconds = 15 * 60
/** How long a refresh token works (seconds) if it is not used first. */
export const refreshTokenSeconds = 30 * 24 * 3600
/** How long an authorization code works (seconds). */
export const codeSeconds = 5 * 60

/** A registered client. */
export const Client = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  redirectUris: Schema.Array(Schema.String),
  createdAt: Timestamp
})
export type Client = typeof Client.Type
const decodeClients = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({
  ...Client.fields,
  redirectUris: Schema.fromJsonString(Schema.Array(Schema.String))
})))

/** A person's grant to a client, as the person sees it. */
export const Grant = Schema.Struct({
  id: Schema.String,
  clientName: Schema.String,
  createdAt: Timestamp,
  revokedAt: NullableTimestamp
})
export type Grant = typeof Grant.Type
const decodeGrants = Schema.decodeUnknownEffect(Schema.Array(Grant))

/** A one-time credential (a code or a refresh token) as spending it found it. */
const SpentRow = Schema.Struct({
  grantId: Schema.String,
  clientId: Schema.String,
  expired: Schema.Boolean,
  reused: Schema.Boolean,
  revoked: Schema.Boolean
})
type SpentRow = typeof SpentRow.Type
const decodeRefresh = Schema.decodeUnknownEffect(Schema.Array(SpentRow))

const CodeRow = Schema.Struct({ ...SpentRow.fields, redirectUri: Schema.String, codeChallenge: Schema.String })
const decodeCode = Schema.decodeUnknownEffect(Schema.Array(CodeRow))

/** What a refusal of each check of a spent credential says. */
interface SpentWords {
  readonly unknown: string
  readonly otherClient: string
  readonly reused: string
  readonly revoked: string
  readonly expired: string
}

/** The tokens the token endpoint answers. */
export interface Tokens {
  readonly accessToken: string
  readonly refreshToken: string
  readonly expiresIn: number
}

/** Why a code or refresh token was refused (RFC 6749 `invalid_grant`), said for the client's developer. */
export class GrantRefused extends Schema.TaggedError<GrantRefused>()("GrantRefused", {
  description: Schema.String
}) {}

/** Whether `verifier` is the PKCE verifier of `challenge` (S256: BASE64URL(SHA256(verifier))). */
export const verifiesChallenge = (verifier: string, challenge: string): boolean =>
  createHash("sha256").update(verifier).digest("base64url") === challenge

export class Grants extends Context.Service<Grants, {
  /** Registers a client with its redirect URIs; its id is new and random. */
  readonly register: (input: { readonly name: string; readonly redirectUris: ReadonlyArray<string> }) => Effect.Effect<Client>
  readonly client: (id: string) => Effect.Effect<Client | undefined>
  /** A person allowed a client: a new grant and its authorization code (returned once). */
  readonly authorize: (input: {
    readonly clientId: string
    readonly userId: string
    readonly redirectUri: string
    readonly codeChallenge: string
  }) => Effect.Effect<string>
  /**
   * Redeems a code (once) for tokens, checking its client, redirect URI and PKCE verifier. A code
   * presented twice revokes its grant (RFC 6749 4.1.2): the tokens it brought stop too.
   */
  readonly redeem: (input: {
    readonly code: string
    readonly clientId: string
    readonly redirectUri: string
    readonly codeVerifier: string
  }) => Effect.Effect<Tokens, GrantRefused>
  /** Rotates a refresh token: new tokens, the old one spent. A spent one presented again revokes its grant. */
  readonly refresh: (input: { readonly refreshToken: string; readonly clientId: string }) => Effect.Effect<Tokens, GrantRefused>
  /** A person's grants, newest first. */
  readonly list: (userId: string) => Effect.Effect<ReadonlyArray<Grant>>
  /** Revokes a person's grant at once, on every server; false when the person has no such grant. */
  readonly revoke: (userId: string, grantId: string) => Effect.Effect<boolean>
}>()("outreach/Grants") {
  static readonly layerNoDeps = Layer.effect(
    Grants,
    Effect.gen(function*() {
      // Who people are goes by real time, even on the sandbox's test clock (docs/operations.md).
      const realNow = yield* ServiceClock.realNow
      const sql = yield* SqlClient.SqlClient
      const credentials = yield* Credentials

      const clientColumns = sql`id, name, redirect_uris::text AS "redirectUris", created_at AS "createdAt"`

      const register = Effect.fn("Grants.register")(function*(input: {
        readonly name: string
        readonly redirectUris: ReadonlyArray<string>
      }) {
        const now = yield* realNow
        const rows = yield* sql`
          INSERT INTO oauth_clients (id, name, redirect_uris, created_at)
          VALUES (${`mcp_${crypto.randomUUID()}`}, ${input.name}, ${JSON.stringify(input.redirectUris)}::jsonb, ${now.iso}::timestamptz)
          RETURNING ${clientColumns}`.pipe(Effect.flatMap(decodeClients), Effect.orDie)
        return rows[0]
      })

      const client = Effect.fn("Grants.client")((id: string) =>
        firstRow(sql`SELECT ${clientColumns} FROM oauth_clients WHERE id = ${id}`.pipe(
          Effect.flatMap(decodeClients),
          Effect.orDie
        ))
      )

      const authorize = Effect.fn("Grants.authorize")(function*(input: {
        readonly clientId: string
        readonly userId: string
        readonly redirectUri: string
        readonly codeChallenge: string
      }) {
        const now = yield* realNow
        const code = yield* newAuthorizationCode
        const grantId = crypto.randomUUID()
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`
            INSERT INTO oauth_grants (id, client_id, user_id, created_at)
            VALUES (${grantId}, ${input.clientId}, ${input.userId}, ${now.iso}::timestamptz)`
          yield* sql`
            INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, expires_at)
            VALUES (${hashCredential(code)}, ${grantId}, ${input.redirectUri}, ${input.codeChallenge},
                    ${Time.toIso(now.ms + codeSeconds * 1000)}::timestamptz)`
        })).pipe(Effect.orDie)
        return code
      })

      /**
       * New tokens for a grant; its expired ones go (a spent refresh token stays until it expires:
       * presented again, it must still be recognised, to revoke the grant).
       */
      const issue = (grantId: string, nowMs: number) =>
        Effect.gen(function*() {
          const accessToken = yield* newAccessToken
          const refreshToken = yield* newRefreshToken
          yield* sql`DELETE FROM oauth_tokens WHERE grant_id = ${grantId} AND expires_at <= ${Time.toIso(nowMs)}::timestamptz`
            .pipe(Effect.orDie)
          yield* sql`
            INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES
              (${hashCredential(accessToken)}, ${grantId}, 'access', ${Time.toIso(nowMs + accessTokenSeconds * 1000)}::timestamptz),
              (${hashCredential(refreshToken)}, ${grantId}, 'refresh', ${Time.toIso(nowMs + refreshTokenSeconds * 1000)}::timestamptz)`
            .pipe(Effect.orDie)
          return { accessToken, refreshToken, expiresIn: accessTokenSeconds }
        })

      const revokeGrant = (grantId: string, nowIso: string) =>
        Effect.andThen(
          sql`UPDATE oauth_grants SET revoked_at = ${nowIso}::timestamptz WHERE id = ${grantId} AND revoked_at IS NULL`
            .pipe(Effect.orDie),
          credentials.forgetCredential(grantId)
        )

      const refused = (description: string) => Effect.fail(new GrantRefused({ description }))

      /**
       * The checks every spent one-time credential passes: known, issued to this client, used once (a
       * second use revokes its grant), its grant not revoked, not expired.
       */
      const checkSpent = <Row extends SpentRow>(row: Row | undefined, clientId: string, nowIso: string, words: SpentWords) =>
        Effect.gen(function*() {
          if (row === undefined) return yield* refused(words.unknown)
          if (row.clientId !== clientId) return yield* refused(words.otherClient)
          if (row.reused) {
            yield* revokeGrant(row.grantId, nowIso)
            return yield* refused(words.reused)
          }
          if (row.revoked) return yield* refused(words.revoked)
          if (row.expired) return yield* refused(words.expired)
          return row
        })

      const redeem = Effect.fn("Grants.redeem")(function*(input: {
        readonly code: string
        readonly clientId: string
        readonly redirectUri: string
        readonly codeVerifier: string
      }) {
        const now = yield* realNow
        // Spends the code in the same statement that reads it: of two redemptions at once, one wins.
        const found = yield* firstRow(sql`
          WITH before AS (SELECT hash, used_at FROM oauth_codes WHERE hash = ${hashCredential(input.code)} FOR UPDATE),
          spent AS (
            UPDATE oauth_codes c SET used_at = COALESCE(c.used_at, ${now.iso}::timestamptz)
            FROM before b WHERE c.hash = b.hash
            RETURNING c.grant_id, c.redirect_uri, c.code_challenge, c.expires_at, b.used_at IS NOT NULL AS reused
          )
          SELECT g.id::text AS "grantId", g.client_id AS "clientId", s.redirect_uri AS "redirectUri",
            s.code_challenge AS "codeChallenge", s.expires_at <= ${now.iso}::timestamptz AS expired,
            s.reused, g.revoked_at IS NOT NULL AS revoked
          FROM spent s JOIN oauth_grants g ON g.id = s.grant_id`.pipe(Effect.flatMap(decodeCode), Effect.orDie))
        const row = yield* checkSpent(found, input.clientId, now.iso, {
          unknown: "The authorization code is unknown.",
          otherClient: "The authorization code was issued to another client.",
          reused: "The authorization code was already used; the grant it made is revoked.",
          revoked: "The grant of this authorization code was revoked.",
          expired: `The authorization code has expired (it lasts ${codeSeconds / 60} minutes).`
        })
        if (row.redirectUri !== input.redirectUri) {
          return yield* refused("redirect_uri differs from the one the authorization request named.")
        }
        if (!verifiesChallenge(input.codeVerifier, row.codeChallenge)) {
          return yield* refused("code_verifier does not match the code_challenge of the authorization request.")
        }
        return yield* issue(row.grantId, now.ms)
      })

      const refresh = Effect.fn("Grants.refresh")(function*(input: { readonly refreshToken: string; readonly clientId: string }) {
        const now = yield* realNow
        const found = yield* firstRow(sql`
          WITH before AS (
            SELECT hash, used_at FROM oauth_tokens
            WHERE hash = ${hashCredential(input.refreshToken)} AND kind = 'refresh' FOR UPDATE
          ),
          spent AS (
            UPDATE oauth_tokens t SET used_at = COALESCE(t.used_at, ${now.iso}::timestamptz)
            FROM before b WHERE t.hash = b.hash
            RETURNING t.grant_id, t.expires_at, b.used_at IS NOT NULL AS reused
          )
          SELECT g.id::text AS "grantId", g.client_id AS "clientId", s.expires_at <= ${now.iso}::timestamptz AS expired,
            s.reused, g.revoked_at IS NOT NULL AS revoked
          FROM spent s JOIN oauth_grants g ON g.id = s.grant_id`.pipe(Effect.flatMap(decodeRefresh), Effect.orDie))
        const row = yield* checkSpent(found, input.clientId, now.iso, {
          unknown: "The refresh token is unknown.",
          otherClient: "The refresh token was issued to another client.",
          reused: "The refresh token was already used (each works once); the grant is revoked.",
          revoked: "The grant was revoked by the person who made it.",
          expired: "The refresh token has expired."
        })
        return yield* issue(row.grantId, now.ms)
      })

      const list = Effect.fn("Grants.list")((userId: string) =>
        sql`
          SELECT g.id::text AS id, c.name AS "clientName", g.created_at AS "createdAt", g.revoked_at AS "revokedAt"
          FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
          WHERE g.user_id = ${userId} ORDER BY g.created_at DESC, g.id`.pipe(Effect.flatMap(decodeGrants), Effect.orDie)
      )

      const revoke = Effect.fn("Grants.revoke")(function*(userId: string, grantId: string) {
        const now = yield* realNow
        const rows = yield* sql`
          UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ${now.iso}::timestamptz)
          WHERE id::text = ${grantId} AND user_id = ${userId} RETURNING id`.pipe(Effect.orDie)
        if (rows.length === 0) return false
        yield* credentials.forgetCredential(grantId)
        yield* Effect.logInfo("assistant grant revoked").pipe(Effect.annotateLogs({ grantId, userId }))
        return true
      })

      return Grants.of({ register, client, authorize, redeem, refresh, list, revoke })
    })
  )

  /** `layerNoDeps` with its services' layers. */
  static readonly layer = Grants.layerNoDeps.pipe(Layer.provide(Credentials.layer))
}
