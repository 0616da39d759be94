/**
 * The whole service as layers: core services on the configured database, the
 * start-up bootstrap, and the HTTP server. `main.ts` launches `layer`;
 * embedders pick the parts they need.
 */
import { Context, Effect, Layer, Option, Result } from "effect"
import { FetchHttpClient } from "effect/http"
import type { SqlClient } from "effect/sql"
import { AccountChanges } from "./accounts/AccountChanges.ts"
import { ActivityLog } from "./activity/ActivityLog.ts"
import { Accounts } from "./accounts/Accounts.ts"
import { AccountStore } from "./accounts/AccountStore.ts"
import { Budgets } from "./accounts/Budgets.ts"
import { Invitations } from "./accounts/Invitations.ts"
import { WorkspaceTable } from "./accounts/WorkspaceTable.ts"
import { defaultFor } from "./domain/WorkspaceNetwork.ts"
import * as Time from "./domain/Time.ts"
import { Credentials } from "./auth/Credentials.ts"
import { Outbox } from "./events/Outbox.ts"
import { Draining } from "./http/Draining.ts"
import { Platform } from "./http/Platform.ts"
import * as Server from "./Server.ts"
import * as ApprovalExpiry from "./approvals/ApprovalExpiry.ts"
import { Approvals } from "./approvals/Approvals.ts"
import { ApprovalStore } from "./approvals/ApprovalStore.ts"
import { ApprovalTable } from "./approvals/ApprovalTable.ts"
import { JobCompletions } from "./jobs/Completions.ts"
import { Executor } from "./jobs/Executor.ts"
import { Forecasts } from "./jobs/Forecasts.ts"
import { Governor } from "./jobs/Governor.ts"
import { Inbox } from "./inbox/Inbox.ts"
import { Reports } from "./inbox/Reports.ts"
import { Idempotency } from "./idempotency/Idempotency.ts"
import { Jobs } from "./jobs/Jobs.ts"
import { JobEndings } from "./jobs/Endings.ts"
import { JobStore } from "./jobs/JobStore.ts"
import { JobWatch } from "./jobs/JobWatch.ts"
import * as PeopleOnJobs from "./jobs/PeopleOnJobs.ts"
import { NetworkDriver } from "./network/NetworkDriver.ts"
import { Messages } from "./people/Messages.ts"
import { PersonTouches } from "./people/People.ts"
import { ApiKeys } from "./keys/ApiKeys.ts"
import { Grants } from "./oauth/Grants.ts"
import * as PerWorkspace from "./network/PerWorkspace.ts"
import { fromAppSettings, liveRefusal } from "./network/unipile/Config.ts"
import * as UnipileDriver from "./network/unipile/UnipileDriver.ts"
import * as SandboxDriver from "./sandbox/SandboxDriver.ts"
import * as PeopleAuth from "./team/PeopleAuth.ts"
import { AppConfig } from "./platform/AppConfig.ts"
import * as Cluster from "./platform/Cluster.ts"
import * as Database from "./platform/Database.ts"
import { Notices } from "./platform/Notices.ts"
import * as Observability from "./platform/Observability.ts"
import * as ServiceClock from "./platform/ServiceClock.ts"
import * as OpenAiCompatible from "./triage/OpenAiCompatible.ts"
import { Triage } from "./triage/Triage.ts"
import { WebhookDispatcher } from "./webhooks/Dispatcher.ts"
import { WebhookEndpoints } from "./webhooks/Endpoints.ts"
import { Automations } from "./workflows/Automations.ts"
import * as WorkflowEngine from "./workflows/Engine.ts"
import * as WorkflowRun from "./workflows/Run.ts"
import { WorkflowStore } from "./workflows/WorkflowStore.ts"
import { Workflows } from "./workflows/Workflows.ts"
import { bootstrap, Workspaces } from "./workspaces/Workspaces.ts"

/**
 * Sandbox and live workspaces in one server: the sandbox driver, and `live` (the Unipile driver, or
 * why this server has none), each account's calls sent to the one of its workspace's network
 * (`network/PerWorkspace.ts`). Needs `AppConfig`, a migrated `SqlClient` and what `live` needs.
 */
export const networksWith = <R>(
  live: Layer.Layer<NetworkDriver, never, R> | string
): Layer.Layer<NetworkDriver, never, AppConfig | SqlClient.SqlClient | R> =>
  Layer.effect(NetworkDriver, Effect.gen(function*() {
    const config = yield* AppConfig
    const workspaces = yield* WorkspaceTable
    const accounts = yield* AccountStore
    const driverIn = <R2>(layer: Layer.Layer<NetworkDriver, never, R2>) => Effect.map(Layer.build(layer), Context.get(NetworkDriver))
    return yield* PerWorkspace.make({
      sandbox: yield* driverIn(SandboxDriver.layer),
      live: typeof live === "string" ? live : yield* driverIn(live),
      defaultNetwork: defaultFor(config.network),
      networkOfWorkspace: workspaces.networkOf,
      workspaceOfAccount: (accountId) => Effect.map(accounts.labelsOf([accountId]), (labels) => labels.get(accountId)?.workspaceId)
    })
  })).pipe(Layer.provide(Layer.mergeAll(AccountStore.layer, WorkspaceTable.layer)))

/**
 * The networks of the configured server: the sandbox always, and Unipile for live workspaces when
 * `UNIPILE_DSN` and `UNIPILE_API_KEY` are set on the system clock. With `OUTREACH_NETWORK=unipile`
 * (live by default) the server refuses to start without them or on the test clock
 * (docs/networks.md); with the sandbox default it starts and serves its sandbox workspaces.
 */
export const network: Layer.Layer<NetworkDriver, never, AppConfig | SqlClient.SqlClient> = Layer.unwrap(Effect.gen(function*() {
  const config = yield* AppConfig
  const settings = fromAppSettings(config)
  if (Result.isSuccess(settings)) return networksWith(UnipileDriver.layer(settings.success))
  if (config.network === "unipile") return yield* Effect.die(new Error(settings.failure))
  return networksWith(liveRefusal(config) ?? settings.failure)
}))

/**
 * Reply triage chosen by `TRIAGE_MODEL_URL`: the OpenAI-compatible language model there, with
 * the embedded classifier answering when it fails or takes longer than `TRIAGE_TIMEOUT`; unset,
 * the embedded classifier alone.
 */
export const triage: Layer.Layer<Triage, never, AppConfig> = Layer.unwrap(Effect.gen(function*() {
  const { triageModel } = yield* AppConfig
  return Option.match(triageModel, {
    onNone: () => Triage.layerEmbedded,
    onSome: (model) =>
      Triage.layerLanguageModel({ timeout: model.timeout }).pipe(
        Layer.provide(OpenAiCompatible.layer(model)),
        Layer.provide(FetchHttpClient.layer)
      )
  })
}))

/** Workflows and automations on the durable engine; needs the network driver, the cluster, `Notices` and the migrated `SqlClient`. */
export const workflows = Layer.mergeAll(Automations.layer, Workflows.layer, WorkflowRun.layer, WorkflowStore.layer, WorkflowEngine.layer)

/**
 * The core services on the network `driver` of your choice (an embedder's own implementation of
 * the `NetworkDriver` port): workspaces, keys, credentials, accounts, outbox, jobs and the
 * Governor, approvals, webhooks, the inbox, people, workflows, reply triage, and the
 * dashboard's people (sign-in, two-factor, team), on the cluster of the database's servers
 * (`platform/Cluster.ts`). Needs a migrated `SqlClient`, `AppConfig` and what the driver needs.
 *
 * Each service's `layer` brings the services it uses, so the list is in no particular order; a
 * service several others use (the Governor, the outbox) is built once, as layers are shared by
 * reference within one build.
 */
export const coreWith = <R>(driver: Layer.Layer<NetworkDriver, never, R>) =>
  Layer.mergeAll(
    Workspaces.layer, ApiKeys.layer, Credentials.layer, PeopleAuth.layer, Grants.layer,
    Accounts.layer, AccountChanges.layer, PeopleOnJobs.layer, Outbox.layer,
    Jobs.layer, JobStore.layer, JobEndings.layer, JobWatch.layer, Governor.layer, Executor.layer, Idempotency.layer,
    Approvals.layer, ApprovalStore.layer, ApprovalExpiry.layer,
    WebhookDispatcher.layer, WebhookEndpoints.layer,
    Inbox.layer, Reports.layer, Forecasts.layer, workflows, Draining.layer, ActivityLog.layer,
    // The owners a job's ending records in (`jobs/Endings.ts`), each its table's one writer.
    Budgets.layer, Invitations.layer, PersonTouches.layer, Messages.layer, JobCompletions.layer
  ).pipe(
    // jobs/ writes a job's own approval through its port, answered by the approvals' owner above it.
    Layer.provide(ApprovalTable.jobApprovals),
    Layer.provideMerge(Layer.mergeAll(driver, triage, Cluster.layer, Notices.layer))
  )

/** The core services on the configured network (the sandbox); needs a migrated `SqlClient` and `AppConfig`. */
export const core = coreWith(network)

/**
 * The service's stop as requests see it, for a server built before this: on shutdown this runs first,
 * so new requests get 503 from here on, open long-polls and live streams answer at once, and the
 * requests in flight finish (for up to SHUTDOWN_TIMEOUT) before the routes stop; then the core hands
 * the accounts over (`platform/Cluster.ts`) while the port still answers 503, and closes last.
 */
export const drainOnStop = Layer.effectDiscard(Effect.gen(function*() {
  const draining = yield* Draining
  const { shutdownTimeout } = yield* AppConfig
  yield* Effect.addFinalizer(() =>
    Effect.andThen(
      draining.begin,
      draining.settled.pipe(
        Effect.timeoutOption(shutdownTimeout),
        Effect.flatMap((settled) =>
          settled._tag === "Some" ? Effect.void : Effect.logWarning("shutdown: requests still in flight after SHUTDOWN_TIMEOUT are cut")
        ),
        // The wait is in real time, whatever the service's clock.
        Time.onRealTime
      )
    )
  )
}))

/**
 * The bootstrap, then the HTTP server's routes. The port is bound beneath the core
 * (`Server.listener`), before a first workspace is created or its key printed, so a taken port
 * leaves nothing behind; and no route is served before the bootstrap is done, so once `/healthz`
 * answers 200 the bootstrap key is valid (a client that polled it, then used the key, got 401).
 * On shutdown the requests drain first ({@link drainOnStop}).
 */
export const server = Layer.effectDiscard(Effect.logInfo("ready")).pipe(
  Layer.provide(drainOnStop),
  Layer.provide(Server.layer),
  Layer.provide(Layer.effectDiscard(bootstrap))
)

/**
 * Everything, on the configured database and clock (`OUTREACH_CLOCK=test`: the
 * test clock is the `Clock` of every fiber above it), traced by `tracing` (a tracer of
 * an embedder's or a benchmark's own); needs `AppConfig`.
 */
export const layerTracedBy = <E, R>(tracing: Layer.Layer<never, E, R>) =>
  server.pipe(
    Layer.provideMerge(core),
    Layer.provideMerge(Server.listener),
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(Database.layer),
    // What requests are served on: configuration, logging and tracing (`http/Platform.ts`).
    Layer.provideMerge(Platform.layer),
    Layer.provide(tracing)
  )

/** Everything, traced as configured (`OTEL_EXPORTER_OTLP_ENDPOINT`; unset, no spans are built). */
export const layer = layerTracedBy(Observability.tracing)
