/**
 * Every setting of the service, read once through Effect `Config` (environment
 * variables by default). The README's configuration table mirrors this file.
 */
import { Config, Context, Duration, Effect, Layer, LogLevel, Option, Redacted, Schema } from "effect"

/** A language model behind an OpenAI-compatible API, for reply triage (`TRIAGE_MODEL_*`). */
export interface TriageModel {
  /** `TRIAGE_MODEL_URL`: the API's base URL; requests go to `{url}/chat/completions`. */
  readonly url: string
  /** `TRIAGE_MODEL_KEY`, sent as `Authorization: Bearer <key>`. */
  readonly key: Option.Option<Redacted.Redacted<string>>
  /** `TRIAGE_MODEL`: the model name the API knows. */
  readonly model: string
  /** `TRIAGE_TIMEOUT`: how long one request may take (default 10 seconds). */
  readonly timeout: Duration.Duration
}

export interface AppSettings {
  readonly host: string
  readonly port: number
  /**
   * Where the other servers of the cluster reach this one (`OUTREACH_RUNNER_ADDRESS`, `host:port`);
   * default: `HOST:PORT`, or this machine's name when `HOST` listens on every interface.
   */
  readonly runnerAddress: Option.Option<string>
  /** How long an account with no open work stays in memory after its last message (`OUTREACH_ACCOUNT_IDLE_TIME`). */
  readonly accountIdleTime: Duration.Duration
  /** The address people and integrators reach the service at (sign-in links); default: the request's Host. */
  readonly publicUrl: Option.Option<string>
  /** PostgreSQL server; none means embedded PGlite in `dataDir`. */
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly dataDir: string
  readonly logLevel: LogLevel.LogLevel
  /** One log line per request (method, url, status, duration); off by default, it costs throughput. */
  readonly logRequests: boolean
  /** OTLP/HTTP endpoint for traces, e.g. `http://127.0.0.1:4318`; none disables export. */
  readonly otlpEndpoint: Option.Option<string>
  readonly serviceName: string
  /** Makes sure a workspace owning this key exists at start. */
  readonly bootstrapKey: Option.Option<Redacted.Redacted<string>>
  /** The network driver (`OUTREACH_NETWORK`): the simulated `sandbox` (default), or `unipile` for real seats. */
  readonly network: "sandbox" | "unipile"
  /** The Unipile API's address (`UNIPILE_DSN`, `https://apiN.unipile.com:PORT`), for `OUTREACH_NETWORK=unipile`. */
  readonly unipileDsn: Option.Option<string>
  /** The Unipile access token (`UNIPILE_API_KEY`), for `OUTREACH_NETWORK=unipile`. */
  readonly unipileApiKey: Option.Option<Redacted.Redacted<string>>
  /** The secret Unipile's webhooks carry in their `Unipile-Auth` header (`UNIPILE_WEBHOOK_SECRET`); unset, they are all refused. */
  readonly unipileWebhookSecret: Option.Option<Redacted.Redacted<string>>
  /**
   * Requests a minute the service sends Unipile for one seat (`UNIPILE_REQUESTS_PER_MINUTE`, default 60), all servers
   * together: Unipile limits each linked account's calls in fixed windows whose values its dashboard shows.
   */
  readonly unipileRequestsPerMinute: number
  readonly clock: "system" | "test"
  /** Sync each connected account's invitations and messages in the background (`OUTREACH_INBOX_SYNC`). */
  readonly inboxSync: boolean
  /**
   * Reply triage by the OpenAI-compatible language model at `TRIAGE_MODEL_URL`, with the
   * embedded classifier as its fallback; none: the embedded classifier alone.
   */
  readonly triageModel: Option.Option<TriageModel>
  readonly allowPrivateWebhooks: boolean
  readonly maxBodyBytes: number
  readonly shutdownTimeout: Duration.Duration
}

/**
 * A non-empty `TRIAGE_MODEL_URL` turns language-model triage on; the URL must then parse and
 * the model's name is required, so a mistake stops the start instead of silently falling back.
 */
const triageModel = Config.option(Config.String("TRIAGE_MODEL_URL")).pipe(
  Config.flatMap((url) =>
    Option.isNone(Option.filter(url, (url) => url !== ""))
      ? Config.succeed(Option.none())
      : Config.all({
        url: Config.URL("TRIAGE_MODEL_URL").pipe(Config.map((url) => url.href)),
        key: Config.option(Config.Redacted("TRIAGE_MODEL_KEY")),
        model: Config.NonEmptyString("TRIAGE_MODEL"),
        timeout: Config.Duration("TRIAGE_TIMEOUT").pipe(Config.withDefault(Duration.seconds(10)))
      }).pipe(Config.map(Option.some))
  )
)

export class AppConfig extends Context.Service<AppConfig, AppSettings>()("outreach/AppConfig") {
  /** Reads the settings from the environment. */
  static readonly config: Config.Config<AppSettings> = Config.all({
    host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
    // 0 asks the system for a free port (tests, benchmarks); Config.Port refuses it.
    port: Config.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65535 })), "PORT").pipe(
      Config.withDefault(8080)
    ),
    runnerAddress: Config.option(Config.schema(
      Schema.String.check(Schema.isPattern(/^[^\s:]+:\d{1,5}$/, {
        message: "OUTREACH_RUNNER_ADDRESS is host:port, e.g. 10.0.0.5:8080: where the other servers reach this one"
      })),
      "OUTREACH_RUNNER_ADDRESS"
    )),
    accountIdleTime: Config.Duration("OUTREACH_ACCOUNT_IDLE_TIME").pipe(Config.withDefault(Duration.minutes(1))),
    publicUrl: Config.option(Config.String("PUBLIC_URL")),
    databaseUrl: Config.option(Config.Redacted("DATABASE_URL")).pipe(
      Config.map(Option.filter((url) => Redacted.value(url) !== ""))
    ),
    dataDir: Config.String("DATA_DIR").pipe(Config.withDefault("./.data")),
    logLevel: Config.LogLevel("LOG_LEVEL").pipe(Config.withDefault<LogLevel.LogLevel>("Info")),
    logRequests: Config.Boolean("LOG_REQUESTS").pipe(Config.withDefault(false)),
    otlpEndpoint: Config.option(Config.String("OTEL_EXPORTER_OTLP_ENDPOINT")),
    serviceName: Config.String("OTEL_SERVICE_NAME").pipe(Config.withDefault("outreach-service")),
    bootstrapKey: Config.option(Config.Redacted("OUTREACH_BOOTSTRAP_KEY")),
    network: Config.Literals(["sandbox", "unipile"], "OUTREACH_NETWORK").pipe(
      Config.withDefault<"sandbox" | "unipile">("sandbox")
    ),
    unipileDsn: Config.option(Config.String("UNIPILE_DSN")).pipe(Config.map(Option.filter((dsn) => dsn !== ""))),
    unipileApiKey: Config.option(Config.Redacted("UNIPILE_API_KEY")).pipe(
      Config.map(Option.filter((key) => Redacted.value(key) !== ""))
    ),
    unipileWebhookSecret: Config.option(Config.Redacted("UNIPILE_WEBHOOK_SECRET")).pipe(
      Config.map(Option.filter((secret) => Redacted.value(secret).length >= 16))
    ),
    unipileRequestsPerMinute: Config.schema(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)), "UNIPILE_REQUESTS_PER_MINUTE").pipe(
      Config.withDefault(60)
    ),
    clock: Config.Literals(["system", "test"], "OUTREACH_CLOCK").pipe(
      Config.withDefault<"system" | "test">("system")
    ),
    inboxSync: Config.Boolean("OUTREACH_INBOX_SYNC").pipe(Config.withDefault(true)),
    triageModel,
    allowPrivateWebhooks: Config.option(Config.Boolean("OUTREACH_ALLOW_PRIVATE_WEBHOOKS")),
    maxBodyBytes: Config.Int("MAX_BODY_BYTES").pipe(Config.withDefault(1024 * 1024)),
    shutdownTimeout: Config.Duration("SHUTDOWN_TIMEOUT").pipe(Config.withDefault(Duration.seconds(20)))
  }).pipe(Config.map((settings) => ({
    ...settings,
    // Unset, a sandbox on the test clock (nothing real behind it) delivers to local receivers too.
    allowPrivateWebhooks: Option.getOrElse(
      settings.allowPrivateWebhooks,
      () => settings.network === "sandbox" && settings.clock === "test"
    )
  })))

  /** The settings from the environment. */
  static readonly layer = Layer.effect(AppConfig, Effect.map(AppConfig.config, AppConfig.of))

  /** Fixed settings for tests and embedders: defaults overridden by `overrides`. */
  static readonly layerWith = (overrides: Partial<AppSettings>) =>
    Layer.succeed(AppConfig, AppConfig.of({ ...defaults, ...overrides }))
}

/** The defaults, as documented in the README. */
export const defaults: AppSettings = {
  host: "127.0.0.1",
  port: 8080,
  runnerAddress: Option.none(),
  accountIdleTime: Duration.minutes(1),
  publicUrl: Option.none(),
  databaseUrl: Option.none(),
  dataDir: "./.data",
  logLevel: "Info",
  logRequests: false,
  otlpEndpoint: Option.none(),
  serviceName: "outreach-service",
  bootstrapKey: Option.none(),
  network: "sandbox",
  unipileDsn: Option.none(),
  unipileApiKey: Option.none(),
  unipileWebhookSecret: Option.none(),
  unipileRequestsPerMinute: 60,
  clock: "system",
  inboxSync: true,
  triageModel: Option.none(),
  allowPrivateWebhooks: false,
  maxBodyBytes: 1024 * 1024,
  shutdownTimeout: Duration.seconds(20)
}
