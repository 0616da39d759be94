/**
 * Resolving a bearer credential to its principal, and counting the request in
 * its rate window, in ONE round trip to PostgreSQL. A server serves a caller's
 * requests from a slice of its window claimed with the credential's check; a
 * revocation or a suspension drops the slices on every server at once (on a
 * PostgreSQL server, by a notification to the others).
 */
import { Array as Arr, Context, Deferred, Effect, Layer, Option, Schema, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../domain/Principal.ts"
import { AccessRole } from "../domain/Permissions.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import * as ServiceClock from "../platform/ServiceClock.ts"
import * as GroupCommit from "../platform/GroupCommit.ts"
import { channels, Notices, resumed } from "../platform/Notices.ts"
import * as Recent from "../platform/Recent.ts"
import * as RateLimit from "../ratelimit/RateLimit.ts"
import { hashCredential } from "./Tokens.ts"

/** How many callers' credential hashes one process remembers (a few MB at most). */
const recentHashes = 10_000

/** The result of admitting one request. */
export interface Admission {
  /** The caller, when a valid credential was presented. */
  readonly principal: Principal | undefined
  readonly window: RateLimit.RateWindow
}

const AdmissionRow = Schema.Struct({
  hits: Schema.Number,
  granted: Schema.optionalKey(Schema.Number),
  kind: Schema.NullOr(Schema.Literals(["key", "session", "assistant"])),
  workspace_id: Schema.NullOr(Schema.String),
  credential_id: Schema.NullOr(Schema.String),
  key_name: Schema.NullOr(Schema.String),
  user_id: Schema.NullOr(Schema.String),
  email: Schema.NullOr(Schema.String),
  user_name: Schema.NullOr(Schema.String),
  role: Schema.NullOr(AccessRole)
})
type AdmissionRow = typeof AdmissionRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(AdmissionRow))
/** A claim's row, with the position of its request in the batch. */
const decodeClaimRows = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ i: Schema.Number, ...AdmissionRow.fields })))

/** One request's claim: the token's hash, the address's bucket, what its last lease left unused, and how many it wants now. */
interface ClaimRequest {
  readonly hash: string | null
  readonly addressBucket: string
  readonly returned: number
  readonly wanted: number
}

/** What a claim got, and when. */
interface Claimed {
  readonly window: number
  readonly claimedAt: number
  readonly row: AdmissionRow | undefined
}

const toPrincipal = (row: Omit<AdmissionRow, "hits">): Principal | undefined => {
  if (row.workspace_id === null || row.credential_id === null) return undefined
  if (row.kind === "key") {
    return {
      kind: "key",
      workspaceId: row.workspace_id,
      keyId: row.credential_id,
      keyName: row.key_name ?? "",
      role: row.role ?? "owner"
    }
  }
  if (row.kind === "session" && row.user_id !== null && row.role !== null && row.role !== "read_only") {
    return {
      kind: "session",
      workspaceId: row.workspace_id,
      sessionId: row.credential_id,
      user: { id: row.user_id, email: row.email ?? "", name: row.user_name ?? "", role: row.role }
    }
  }
  if (row.kind === "assistant" && row.user_id !== null && row.role !== null && row.role !== "read_only") {
    return {
      kind: "assistant",
      workspaceId: row.workspace_id,
      grantId: row.credential_id,
      clientName: row.key_name ?? "",
      user: { id: row.user_id, email: row.email ?? "", name: row.user_name ?? "", role: row.role }
    }
  }
  return undefined
}

/**
 * A slice of a caller's rate window claimed from PostgreSQL, with the credential
 * resolved at the same time. Requests are served from it until it runs out, the
 * minute ends, a revocation or suspension drops it, or (on a PostgreSQL server)
 * it is older than {@link leaseMaxAgeMs}.
 */
interface Lease {
  readonly window: number
  readonly claimedAt: number
  readonly principal: Principal | undefined
  /** The window's count in PostgreSQL after the claim (all servers). */
  readonly hits: number
  /** Requests of the claim not yet used. */
  allowance: number
  /** The window is full on every server: answer 429 until it ends, without asking again. */
  readonly exhausted: boolean
}

/** Requests claimed per round trip. */
export const leaseSize = 100

/**
 * How long a lease may be used before the credential is checked again, when
 * other servers share the database: a backstop only. Revocations and suspensions
 * reach every server at once by a notification on {@link changesChannel}, and a
 * server that loses its listening connection drops all its leases when it is
 * back; this bounds what a notification lost in between could cost. An embedded
 * database has one process (its data directory is locked), so there a lease
 * lasts until it runs out or the minute ends: every revocation happens in that
 * process and drops it at once.
 */
export const leaseMaxAgeMs = 10_000

const usable = (maxAgeMs: number) => (lease: Lease, nowMs: number): boolean =>
  lease.window === RateLimit.windowOf(nowMs) &&
  (lease.exhausted || (lease.allowance > 0 && nowMs - lease.claimedAt < maxAgeMs && nowMs >= lease.claimedAt))

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
  /**
   * Drops what every server holds for a credential (it was revoked; call after the change
   * commits): the next request, on any server, checks it again.
   */
  readonly forgetCredential: (credentialId: string) => Effect.Effect<void>
  /**
   * Drops what every server holds for a person's credentials, their sessions and their assistants'
   * grants alike (their role changed or they left; call after commit).
   */
  readonly forgetPerson: (userId: string) => Effect.Effect<void>
  /** Drops what every server holds for a workspace's credentials (its status changed; call after commit). */
  readonly forgetWorkspace: (workspaceId: string) => Effect.Effect<void>
}>()("outreach/Credentials") {
  /** With a lease age of its own (tests, embedders). */
  static readonly layerWith = (options: { readonly leaseMaxAgeMs: number }) =>
    Layer.effect(Credentials, make(options)).pipe(Layer.provide(Notices.layer))

  /** Leases of at most {@link leaseMaxAgeMs} on a PostgreSQL server; for the minute on the embedded database. */
  static readonly layer = Layer.effect(
    Credentials,
    Effect.gen(function*() {
      const config = yield* AppConfig
      return yield* make({
        leaseMaxAgeMs: Option.isNone(config.databaseUrl) ? Number.POSITIVE_INFINITY : leaseMaxAgeMs
      })
    })
  ).pipe(Layer.provide(Notices.layer))
}

const make = (options: { readonly leaseMaxAgeMs: number }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const isUsable = usable(options.leaseMaxAgeMs)
      // The window is a minute of real time, even on the sandbox's test clock (a key limited there
      // is free again the next real minute, however the test clock moves), and so are the
      // credential's checks (a session's or an access token's expiry).
      const realNow = yield* ServiceClock.realNow
      const realNowMs = Effect.map(realNow, (now) => now.ms)

      /**
       * Claims up to {@link leaseSize} requests of each caller's window, resolving the
       * credential on the way (`claim_requests`, migration 0070), for all the pending
       * requests in one round trip. A grant never takes a window past the limit, so all
       * servers together admit at most the limit per minute. Group-committed: claims asked
       * for while one runs go together next, so a burst (a new minute, many callers at once)
       * costs a few round trips, not one each.
       */
      const claims = GroupCommit.make((requests: Arr.NonEmptyReadonlyArray<ClaimRequest>) =>
        Effect.gen(function*() {
          const now = yield* realNow
          const claimedAt = now.ms
          const window = RateLimit.windowOf(claimedAt)
          const batch = requests.map((request, i) => ({
            i,
            hash: request.hash,
            address: request.addressBucket,
            returned: request.returned,
            wanted: request.wanted
          }))
          const rows = yield* sql`
            SELECT r.i, c.* FROM json_to_recordset(${JSON.stringify(batch)}::json)
              AS r(i integer, hash text, address text, returned integer, wanted integer)
            CROSS JOIN LATERAL claim_requests(r.hash, ${now.iso}::timestamptz, r.address, ${window}::bigint,
              r.wanted, ${RateLimit.requestsPerMinute}::integer, r.returned) c`.pipe(
            Effect.flatMap(decodeClaimRows),
            Effect.orDie
          )
          const byPosition = new Map(rows.map(({ i, ...row }) => [i, row]))
          return requests.map((_, i): Claimed => ({ window, claimedAt, row: byPosition.get(i) }))
        }), { max: 1000 })

      const claim = (hash: string | null, clientAddress: string, returned: number) =>
        Effect.map(
          claims.submit({ hash, addressBucket: `address:${clientAddress}`, returned, wanted: leaseSize }),
          ({ window, claimedAt, row }): Lease => ({
            window,
            claimedAt,
            principal: row === undefined ? undefined : toPrincipal(row),
            hits: row?.hits ?? 0,
            allowance: row?.granted ?? 0,
            exhausted: (row?.granted ?? 0) === 0
          })
        )

      // Leases by presented credential (its hash) or, without one, by client address.
      const leases = new Map<string, Lease>()
      // Counts the changes applied (revocations, suspensions, a lost listener): a claim that was in
      // flight while one came may carry what the change undid, so it serves its request but is not kept.
      let changes = 0

      /** Takes one request from a usable lease. */
      const take = (lease: Lease, nowMs: number): Admission => {
        if (lease.allowance === 0) {
          return { principal: lease.principal, window: RateLimit.rateWindow(RateLimit.requestsPerMinute + 1, nowMs) }
        }
        lease.allowance -= 1
        return { principal: lease.principal, window: RateLimit.rateWindow(lease.hits - lease.allowance, nowMs) }
      }

      const renew = Effect.fn("Credentials.claim")(function*(
        key: string,
        hash: string | null,
        clientAddress: string,
        nowMs: number
      ) {
        const addressKey = `address:${clientAddress}`
        const previous = leases.get(key)
        // What a lease of this minute left unused goes back, so only requests served are counted.
        const unused = previous !== undefined && !previous.exhausted && previous.window === RateLimit.windowOf(nowMs)
          ? previous.allowance
          : 0
        if (previous !== undefined) leases.delete(key)
        const changesBefore = changes
        const claimed = yield* claim(hash, clientAddress, unused)
        // From here on it is the claim's moment: the request's own reading came before it.
        const claimedMs = claimed.claimedAt
        if (changes !== changesBefore) return take(claimed, claimedMs)
        // A token that resolved to no one was counted in its address's window: its grant joins that
        // lease, and nothing is remembered for the token (it is checked again on its next use).
        const leaseKey = claimed.principal === undefined ? addressKey : key
        // Its address may have claimed for itself meanwhile (claims are one at a time per key, not
        // per window): the grants add up.
        const current = leases.get(leaseKey)
        const lease = current !== undefined && isUsable(current, claimedMs) && !current.exhausted &&
            current.window === claimed.window
          ? { ...current, hits: Math.max(current.hits, claimed.hits), allowance: current.allowance + claimed.allowance }
          : claimed
        leases.set(leaseKey, lease)
        return take(lease, claimedMs)
      })

      /**
       * A graceful stop gives back what this server's leases of the current minute left unused, so
       * the callers' windows (in PostgreSQL, shared by every server) count only requests served: a
       * rolling restart costs no caller any of its minute. (A process killed outright cannot; what its
       * leases held, at most {@link leaseSize} a caller, stays counted until the minute ends.)
       */
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          const window = RateLimit.windowOf(yield* realNowMs)
          const unused = [...leases].filter(([, lease]) => lease.window === window && !lease.exhausted && lease.allowance > 0)
          leases.clear()
          yield* Effect.forEach(unused, ([key, lease]) =>
            claims.submit({
              hash: key.startsWith("token:") ? key.slice("token:".length) : null,
              addressBucket: key,
              returned: lease.allowance,
              wanted: 0
            }), { concurrency: "unbounded", discard: true })
        }).pipe(Effect.catchCause((cause) => Effect.logWarning("giving back unused rate-limit leases failed", cause)))
      )

      // A caller's claim in flight, by lease key: the caller's other requests wait for it and are
      // then served from the lease it brings, rather than each claiming a slice beside it (the
      // window would be charged for slices this server then drops).
      const claiming = new Map<string, Deferred.Deferred<void>>()

      // The hot path: a request served from a usable lease needs no database and no span of its own
      // (the request's span covers it); only a claim is traced, with its SQL statement.
      const admitAs = (key: string, hash: string | null, clientAddress: string): Effect.Effect<Admission> =>
        Effect.flatMap(realNowMs, (nowMs): Effect.Effect<Admission> => {
          const lease = leases.get(key)
          if (lease !== undefined && isUsable(lease, nowMs)) return Effect.succeed(take(lease, nowMs))
          const inFlight = claiming.get(key)
          if (inFlight !== undefined) return Effect.andThen(Deferred.await(inFlight), admitAs(key, hash, clientAddress))
          const claimed = Deferred.makeUnsafe<void>()
          claiming.set(key, claimed)
          return Effect.ensuring(
            renew(key, hash, clientAddress, nowMs),
            Effect.sync(() => {
              claiming.delete(key)
              Deferred.doneUnsafe(claimed, Effect.void)
            })
          )
        })

      // A caller sends the same credential on every request: the hashes of the most recent ones are
      // remembered, with their lease key (one string, so the lease lookup does not build and hash a
      // new one each time). A hash depends on the token alone, so this changes nothing a revocation
      // decides (the lease and the database do); it only spares a SHA-256 per request.
      const presented = Recent.make<string, { readonly hash: string; readonly key: string }>(recentHashes)
      const presentedAs = (token: string) =>
        presented.getOrAdd(token, () => {
          const hash = hashCredential(token)
          return { hash, key: `token:${hash}` }
        })

      const admit = (request: { readonly token: string | undefined; readonly clientAddress: string }) => {
        if (request.token === undefined || request.token === "") {
          return admitAs(`address:${request.clientAddress}`, null, request.clientAddress)
        }
        const { hash, key } = presentedAs(request.token)
        return admitAs(key, hash, request.clientAddress)
      }

      const forget = (matches: (principal: Principal) => boolean) => {
        changes++
        for (const [key, lease] of leases) {
          if (lease.principal !== undefined && matches(lease.principal)) leases.delete(key)
        }
      }
      const credentialOf = (principal: Principal) =>
        principal.kind === "key" ? principal.keyId : principal.kind === "session" ? principal.sessionId : principal.grantId

      /** Applies a change announced on {@link changesChannel}, here or by another server. */
      const applyChange = (change: string) => {
        const separator = change.indexOf(":")
        const kind = change.slice(0, separator)
        const id = change.slice(separator + 1)
        if (kind === "credential") forget((principal) => credentialOf(principal) === id)
        else if (kind === "workspace") forget((principal) => principal.workspaceId === id)
        else if (kind === "person") forget((principal) => principal.kind !== "key" && principal.user.id === id)
      }

      /**
       * Other servers hold leases too: changes go to them as notices (`platform/Notices.ts`), and theirs
       * come here (this server's own come back as well; applying one twice is harmless). Every channel
       * is heard before the service starts; when a server could not listen for a while, every lease is
       * dropped (a notice may have been missed).
       */
      const notices = yield* Notices
      yield* notices.listen(channels.credentials).pipe(
        Stream.runForEach((notice) =>
          Effect.sync(() => {
            if (notice !== resumed) return applyChange(notice)
            changes++
            leases.clear()
          })
        ),
        Effect.forkScoped
      )

      const change = (kind: "credential" | "workspace" | "person", id: string) => {
        const message = `${kind}:${id}`
        return Effect.andThen(Effect.sync(() => applyChange(message)), notices.publish(channels.credentials, message))
      }

      const resolve = Effect.fn("Credentials.resolve")(function*(token: string) {
        const now = yield* realNow
        const rows = yield* sql`
          SELECT 0 AS hits, p.* FROM credential_principal(${hashCredential(token)}::text, ${now.iso}::timestamptz) p`
          .pipe(Effect.flatMap(decodeRows), Effect.orDie)
        return rows[0] === undefined ? undefined : toPrincipal(rows[0])
      })

      return Credentials.of({
        admit,
        resolve,
        forgetCredential: (credentialId) => change("credential", credentialId),
        forgetWorkspace: (workspaceId) => change("workspace", workspaceId),
        forgetPerson: (userId) => change("person", userId)
      })
    })
