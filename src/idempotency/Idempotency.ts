/**
 * Idempotency-Key handling of job-creating requests, as Stripe does it: a key
 * is scoped to the workspace and the endpoint and kept 24 hours. A repeat with
 * the same body replays the first response as stored; the same key with a
 * different body is 422; a repeat while the first request is still being
 * handled is 409.
 */
import { createHash } from "node:crypto"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Invalid, WrongState } from "../domain/Failures.ts"
import * as Time from "../domain/Time.ts"
import * as AfterCommit from "../platform/AfterCommit.ts"

/** How long a key is remembered after its first request. */
export const keyLifetime = Duration.hours(24)

/**
 * After this long an unfinished claim is taken to belong to a server that
 * died, and the next request with the key takes it over.
 */
export const staleClaimAfter = Duration.minutes(2)

/** How many expired keys one claim removes on the way. */
export const expiredBatchSize = 100

/** What identifies one idempotent request. */
export interface IdempotentRequest {
  readonly workspaceId: string
  readonly endpoint: string
  readonly key: string
  /** The request body as JSON; its canonical form is what "same body" compares. */
  readonly body: unknown
}

/** The response of the request that created the resource. */
export interface CreatedResponse<A> {
  readonly status: number
  readonly body: A
}

/** The answer of `run`: this request's own response, or the first request's, as stored. */
export type IdempotentResponse<A> =
  | { readonly replayed: false; readonly status: number; readonly body: A }
  | { readonly replayed: true; readonly status: number; readonly body: unknown }

/**
 * JSON with object keys sorted at every depth, so bodies that differ only in
 * key order compare equal. Object members that are `undefined` are left out
 * and array items that are `undefined` become `null`, as `JSON.stringify` does.
 */
export const canonicalJson = (value: unknown): string => {
  if (Array.isArray(value)) {
    const items: ReadonlyArray<unknown> = value
    return `[${items.map((item) => item === undefined ? "null" : canonicalJson(item)).join(",")}]`
  }
  if (typeof value === "object" && value !== null) {
    const entries: Array<[string, unknown]> = Object.entries(value)
    const members = entries
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`)
    return `{${members.join(",")}}`
  }
  // A missing body counts as `null`.
  return JSON.stringify(value) ?? "null"
}

/** The SHA-256 (hex) of the body's canonical JSON. */
export const bodyHash = (body: unknown): string => createHash("sha256").update(canonicalJson(body)).digest("hex")

const KeyRow = Schema.Struct({
  bodyHash: Schema.String,
  state: Schema.Literals(["in_progress", "done"]),
  responseStatus: Schema.NullOr(Schema.Number),
  responseBody: Schema.Unknown
})
const decodeKeyRows = Schema.decodeUnknownEffect(Schema.Array(KeyRow))

/** A claim this request holds; `claimedAt` tells it from a later takeover of the same key. */
interface Claim {
  readonly workspaceId: string
  readonly endpoint: string
  readonly key: string
  readonly claimedAt: string
}

type ClaimOutcome =
  | { readonly _tag: "Claimed"; readonly claim: Claim }
  | { readonly _tag: "Replay"; readonly status: number; readonly body: unknown }

export const stillInProgress = (key: string) =>
  new WrongState({ message: `A request with Idempotency-Key "${key}" is still being handled.`, advice: { _tag: "RetryWithSameKey" } })

export const usedWithAnotherBody = (key: string) =>
  new Invalid({
    message: `Idempotency-Key "${key}" was already used with a different body on this endpoint.`,
    advice: { _tag: "NewIdempotencyKey" }
  })

// A claim that vanishes between our insert and our read (its request failed and
// released it) is claimed again; this bounds how often that can repeat.
const claimAttempts = 3

export class Idempotency extends Context.Service<Idempotency, {
  /**
   * Runs `create` at most once per key: the first request claims the key, runs
   * `create` and stores its status and `encode`d body; a repeat with the same
   * body gets that stored response with `replayed: true` and `create` is not
   * run. Fails with `Invalid` when the key was used with a different
   * body, and `WrongState` while the first request is still being handled. When
   * `create` fails or is interrupted the claim is dropped, so the caller may
   * retry with the same key.
   */
  readonly run: <A, E, R>(
    request: IdempotentRequest,
    create: Effect.Effect<CreatedResponse<A>, E, R>,
    encode: (body: A) => unknown
  ) => Effect.Effect<IdempotentResponse<A>, E | WrongState | Invalid, R>
}>()("outreach/Idempotency") {
  static readonly layer = Layer.effect(
    Idempotency,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const removeExpired = (nowIso: string) =>
        sql`
          DELETE FROM idempotency_keys WHERE (workspace_id, endpoint, key) IN (
            SELECT workspace_id, endpoint, key FROM idempotency_keys
            WHERE expires_at <= ${nowIso}::timestamptz
            LIMIT ${expiredBatchSize} FOR UPDATE SKIP LOCKED)`.pipe(Effect.orDie)

      const claimOnce = (request: IdempotentRequest, hash: string) =>
        sql.withTransaction(Effect.gen(function*() {
          const now = yield* Time.now
          const expiresAt = Time.toIso(now.ms + Duration.toMillis(keyLifetime))
          const staleBefore = Time.toIso(now.ms - Duration.toMillis(staleClaimAfter))
          // An expired key, or a claim whose server died, is free: take it over in the same statement.
          const claimed = yield* sql`
            INSERT INTO idempotency_keys AS k
              (workspace_id, endpoint, key, body_hash, state, created_at, expires_at)
            VALUES (${request.workspaceId}, ${request.endpoint}, ${request.key}, ${hash}, 'in_progress',
                    ${now.iso}::timestamptz, ${expiresAt}::timestamptz)
            ON CONFLICT (workspace_id, endpoint, key) DO UPDATE SET
              body_hash = EXCLUDED.body_hash, state = 'in_progress', response_status = NULL,
              response_body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
            WHERE k.expires_at <= ${now.iso}::timestamptz
               OR (k.state = 'in_progress' AND k.created_at <= ${staleBefore}::timestamptz)
            RETURNING k.key`.pipe(Effect.orDie)
          const claim: Claim = {
            workspaceId: request.workspaceId,
            endpoint: request.endpoint,
            key: request.key,
            claimedAt: now.iso
          }
          if (claimed.length > 0) return { _tag: "Claimed", claim } satisfies ClaimOutcome
          const rows = yield* sql`
            SELECT body_hash AS "bodyHash", state, response_status AS "responseStatus",
                   response_body AS "responseBody"
            FROM idempotency_keys
            WHERE workspace_id = ${request.workspaceId} AND endpoint = ${request.endpoint} AND key = ${request.key}`
            .pipe(Effect.flatMap(decodeKeyRows), Effect.orDie)
          const existing = rows[0]
          if (existing === undefined) return undefined
          // A different body is the caller's mistake whatever the first request's state: retrying will not help.
          if (existing.bodyHash !== hash) return yield* usedWithAnotherBody(request.key)
          if (existing.state === "in_progress") return yield* stillInProgress(request.key)
          if (existing.responseStatus === null) {
            return yield* Effect.die(new Error(`Idempotency-Key ${request.key} is done but has no response`))
          }
          return { _tag: "Replay", status: existing.responseStatus, body: existing.responseBody } satisfies ClaimOutcome
        })).pipe(Effect.catchTag("SqlError", Effect.die))

      const claim = Effect.fnUntraced(function*(request: IdempotentRequest) {
        const hash = bodyHash(request.body)
        yield* removeExpired((yield* Time.now).iso)
        for (let attempt = 1; attempt <= claimAttempts; attempt++) {
          const outcome = yield* claimOnce(request, hash)
          if (outcome !== undefined) return outcome
        }
        return yield* stillInProgress(request.key)
      })

      const ownClaim = (claim: Claim) =>
        sql`workspace_id = ${claim.workspaceId} AND endpoint = ${claim.endpoint} AND key = ${claim.key}
            AND state = 'in_progress' AND created_at = ${claim.claimedAt}::timestamptz`

      const save = (claim: Claim, status: number, body: unknown) =>
        Effect.gen(function*() {
          const rows = yield* sql`
            UPDATE idempotency_keys SET state = 'done', response_status = ${status},
              response_body = ${JSON.stringify(body)}::jsonb
            WHERE ${ownClaim(claim)}
            RETURNING key`.pipe(Effect.orDie)
          if (rows.length === 0) {
            // Only when `create` outlived `staleClaimAfter` and a repeat took the key over.
            yield* Effect.logWarning("Idempotency-Key claim was taken over before its response was stored").pipe(
              Effect.annotateLogs({ workspaceId: claim.workspaceId, endpoint: claim.endpoint })
            )
          }
        })

      const release = (claim: Claim) =>
        sql`DELETE FROM idempotency_keys WHERE ${ownClaim(claim)}`.pipe(
          Effect.asVoid,
          // The caller must see `create`'s own error; a claim left behind frees itself once stale.
          Effect.catchCause((cause) =>
            Effect.logError("could not release an Idempotency-Key claim", cause).pipe(
              Effect.annotateLogs({ workspaceId: claim.workspaceId, endpoint: claim.endpoint })
            )
          )
        )

      const run = <A, E, R>(
        request: IdempotentRequest,
        create: Effect.Effect<CreatedResponse<A>, E, R>,
        encode: (body: A) => unknown
      ): Effect.Effect<IdempotentResponse<A>, E | WrongState | Invalid, R> =>
        Effect.gen(function*() {
          const outcome = yield* claim(request)
          if (outcome._tag === "Replay") {
            yield* Effect.annotateCurrentSpan("idempotent.replayed", true)
            return { replayed: true, status: outcome.status, body: outcome.body } satisfies IdempotentResponse<A>
          }
          // What `create` writes and its stored response commit together: a crash between them would
          // leave the key claimed without a response, and a retry would create a second resource.
          // What `create` tells others about its rows (`AfterCommit.defer`) waits for that commit.
          const created = yield* Effect.uninterruptibleMask((restore) =>
            AfterCommit.collecting(sql.withTransaction(Effect.gen(function*() {
              const created = yield* restore(create)
              yield* save(outcome.claim, created.status, encode(created.body))
              return created
            }))).pipe(
              Effect.catchTag("SqlError", Effect.die),
              Effect.onError(() => release(outcome.claim))
            )
          )
          return { replayed: false, status: created.status, body: created.body } satisfies IdempotentResponse<A>
        }).pipe(
          Effect.withSpan("Idempotency.run", {
            attributes: { "idempotency.endpoint": request.endpoint, "workspace.id": request.workspaceId }
          })
        )

      return Idempotency.of({ run })
    })
  )
}
