/**
 * The cluster the service's accounts and workflows live in: `effect/cluster`'s
 * `Sharding` on the service's own database. Shards are owned through
 * PostgreSQL (`SqlRunnerStorage`), entity messages that must survive a crash
 * are kept there too (`SqlMessageStorage`), so exactly one runner owns an
 * account at a time and a dead runner's shards move to the living.
 *
 * - Embedded PGlite (no `DATABASE_URL`): one process, one runner owning every
 *   shard (in memory: the data directory's lock makes it the only one);
 *   messages never leave it.
 * - A PostgreSQL server: every server started on the database is a runner of
 *   one cluster. Runners reach each other over HTTP on the service's own port,
 *   at {@link runnerPath}, and ping each other to tell the dead from the living.
 *   A runner's address is `HOST:PORT` (this machine's name when `HOST` is a
 *   wildcard), or `OUTREACH_RUNNER_ADDRESS`. The endpoint answers only peers
 *   that show the cluster's secret, which the first runner writes into the
 *   database and the others read there: nothing to configure.
 *
 * On PostgreSQL the runner also learns its shard leases from the locks it
 * takes and refreshes (`Leases.ts`): a write reaches the network only while
 * the lease of its account's shard outlasts the write's deadline.
 *
 * The cluster's machinery (shard locks, health checks, storage polls, and the
 * retries of a send its routing refused, which run on the sender's fiber)
 * runs on real time, even when the service runs on the sandbox's test clock:
 * it must keep going while that clock stands still. Entity clients are called
 * on real time for that reason (`jobs/Governor.ts`).
 */
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import { PgClient } from "@effect/sql-pg"
import { randomBytes, timingSafeEqual } from "node:crypto"
import { hostname } from "node:os"
import { Clock, Context, Duration, Effect, Layer, Option, Schema, type Scope } from "effect"
import {
  HttpRunner,
  RunnerAddress,
  RunnerHealth,
  RunnerServer,
  Runners,
  RunnerStorage,
  Sharding,
  ShardingConfig,
  SqlMessageStorage,
  SqlRunnerStorage
} from "effect/cluster"
import { FetchHttpClient, HttpClient, HttpClientRequest, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "effect/http"
import { RpcSerialization, RpcServer } from "effect/rpc"
import { SqlClient } from "effect/sql"
import { AppConfig, type AppSettings } from "./AppConfig.ts"
import * as Leases from "./Leases.ts"

/** Where a runner serves the other runners, on the service's own port. */
export const runnerPath = "/cluster/runner"

/** The header a runner shows its peers. */
const secretHeader = "x-outreach-runner-secret"

/** Whether the database is a PostgreSQL server, which several servers may share; embedded PGlite is one process's. */
const isShared = Effect.map(Effect.serviceOption(PgClient.PgClient), Option.isSome)

/** Where the other runners reach this one. */
export const runnerAddressOf = (config: AppSettings): RunnerAddress.RunnerAddress =>
  Option.match(config.runnerAddress, {
    onSome: (address) => {
      const at = address.lastIndexOf(":")
      return RunnerAddress.make(address.slice(0, at), Number(address.slice(at + 1)))
    },
    onNone: () =>
      RunnerAddress.make(["0.0.0.0", "::", ""].includes(config.host) ? hostname() : config.host, config.port)
  })

const SecretRows = Schema.Array(Schema.Struct({ secret: Schema.String }))

/** The secret every runner of the database shows the others; the first one to start writes it. */
export class ClusterSecret extends Context.Service<ClusterSecret, { readonly value: string }>()("outreach/ClusterSecret") {
  static readonly layer = Layer.effect(
    ClusterSecret,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO cluster_secret (id, secret) VALUES (true, ${randomBytes(32).toString("base64url")})
        ON CONFLICT (id) DO NOTHING`
      const [row] = yield* sql`SELECT secret FROM cluster_secret`.pipe(Effect.flatMap(Schema.decodeUnknownEffect(SecretRows)))
      return ClusterSecret.of({ value: row.secret })
    }).pipe(Effect.orDie)
  )
}

/**
 * The cluster's settings: this runner's address; health checks every 2 seconds and shard locks that
 * lapse 10 seconds after their runner stopped renewing them, so a dead runner's shards move within
 * seconds; accounts without work leave memory after `accountIdleTime`; no cap on
 * resident accounts below a million.
 */
const settings = Layer.effect(
  ShardingConfig.ShardingConfig,
  Effect.gen(function*() {
    const config = yield* AppConfig
    // `PORT=0`: the port the system gave the listener, when it is built beneath (see `Server.listener`).
    const listening = yield* Effect.serviceOption(HttpServer.HttpServer)
    const port = config.port === 0 && Option.isSome(listening) && listening.value.address._tag !== "UnixPathAddress"
      ? listening.value.address.port
      : config.port
    return ShardingConfig.ShardingConfig.of({
      ...ShardingConfig.defaults,
      runnerAddress: Option.some(runnerAddressOf({ ...config, port })),
      runnerHealthCheckInterval: Duration.seconds(2),
      // A dead runner's shard locks lapse after 10 seconds (35 by default), so its accounts move sooner.
      shardLockRefreshInterval: Duration.seconds(3),
      shardLockExpiration: Duration.seconds(10),
      entityMaxIdleTime: config.accountIdleTime,
      maxResidentEntities: 1_000_000
    })
  })
)

/** The Clock of the cluster's machinery: real time, whatever the service's clock (see the module's doc). */
const realTime = Layer.succeed(Clock.Clock, Clock.Clock.defaultValue())

/** Runner-to-runner messages, in both directions. */
const serialization = RpcSerialization.layerNdjson

/** The HTTP client a runner calls its peers with: it shows the cluster's secret. */
const peerClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const secret = yield* ClusterSecret
    return HttpClient.mapRequest(client, HttpClientRequest.setHeader(secretHeader, secret.value))
  })
).pipe(Layer.provide(FetchHttpClient.layer))

/** Runners that call each other over HTTP and ping each other's health. */
const peers = Layer.unwrap(Effect.sync(() => {
  const runners = Runners.layerRpc.pipe(
    Layer.provide(HttpRunner.layerClientProtocolHttp({ path: runnerPath })),
    Layer.provide([peerClient, serialization])
  )
  return Layer.merge(runners, RunnerHealth.layerPing.pipe(Layer.provide(runners)))
}))

/** One process alone: no peers to call or ping. */
const alone = Layer.merge(Runners.layerNoop, RunnerHealth.layerNoop)

/**
 * Who owns which shard. On PostgreSQL, locks in the database, so a dead server's shards move on. On PGlite,
 * memory: the data directory's lock already makes this process the only one, and PGlite runs one statement at
 * a time, so a lock refresh queued behind a burst of statements (10,000 accounts waking) missed its 3 seconds,
 * and the runner, taking its locks for lost, stopped every account in memory.
 */
const shardOwners = (shared: boolean) =>
  shared ? Leases.tracking.pipe(Layer.provide(Layer.orDie(SqlRunnerStorage.layer))) : RunnerStorage.layerMemory

/**
 * `Sharding` (with `Runners`, `MessageStorage` and its `ShardingConfig`) on the configured database: alone on PGlite, one
 * runner among the database's servers on PostgreSQL; needs the migrated `SqlClient` and `AppConfig`.
 */
export const layer = Layer.unwrap(Effect.map(isShared, (shared) =>
  Sharding.layer.pipe(
    Layer.provideMerge(shared ? peers : alone),
    Layer.provideMerge(SqlMessageStorage.layer),
    Layer.provideMerge(shardOwners(shared)),
    Layer.provideMerge(ClusterSecret.layer),
    Layer.provideMerge(settings),
    Layer.provide(NodeCrypto.layerDigest),
    Layer.provide(realTime)
  )))

/** Answers a runner's call when it shows the cluster's secret; anyone else gets a 401. */
const guarded = (
  secret: string,
  serve: Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest | Scope.Scope>
) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const shown = Buffer.from(request.headers[secretHeader] ?? "")
    const expected = Buffer.from(secret)
    return shown.length === expected.length && timingSafeEqual(shown, expected)
      ? serve
      : Effect.succeed(HttpServerResponse.jsonUnsafe({
        ok: false,
        error: {
          type: "unauthorized",
          message: `${runnerPath} answers only the service's own servers.`,
          next: "This endpoint is for runners of the cluster; integrators use the /v1 API."
        }
      }, { status: 401 }))
  })

/** The runner endpoint on the service's router (on a PostgreSQL server only); needs the cluster's layer. */
export const routes = Layer.unwrap(Effect.map(isShared, (shared) =>
  shared
    ? RunnerServer.layer.pipe(
      Layer.provide(Layer.effect(
        RpcServer.Protocol,
        Effect.gen(function*() {
          const { httpEffect, protocol } = yield* RpcServer.makeProtocolWithHttpEffect()
          const secret = yield* ClusterSecret
          const router = yield* HttpRouter.HttpRouter
          yield* router.add("POST", runnerPath, guarded(secret.value, httpEffect))
          return protocol
        })
      )),
      Layer.provide(serialization),
      // A peer's message waits for its shard's lock at most `shardLockExpiration` of real time.
      Layer.provide(realTime)
    )
    : Layer.empty
))
