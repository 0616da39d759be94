/**
 * How the service reaches Unipile: the DSN of the organisation's Unipile API
 * (`https://apiN.unipile.com:PORT`) and its access token, from the settings `UNIPILE_DSN` and
 * `UNIPILE_API_KEY`. Never logged: the key is redacted.
 *
 * @since 1.0.0
 */
import { Config, Option, Redacted } from "effect"

/** The provider's address and key, and whether the SDK checks each answer against its validators. */
export interface UnipileSettings {
  readonly dsn: string
  readonly apiKey: Redacted.Redacted<string>
  /**
   * The SDK validates every answer with its TypeBox validator for the call: `error` fails the call
   * on an answer it does not expect (tests, on the provider double), `warn` logs it and goes on
   * (production: the provider may add fields before the SDK knows them).
   */
  readonly validation: "error" | "warn"
}

/** The settings, when both `UNIPILE_DSN` and `UNIPILE_API_KEY` are set; none when either is missing. */
export const fromEnv: Config.Config<Option.Option<UnipileSettings>> = Config.all({
  dsn: Config.option(Config.String("UNIPILE_DSN")),
  apiKey: Config.option(Config.Redacted("UNIPILE_API_KEY"))
}).pipe(Config.map(({ apiKey, dsn }) =>
  Option.isSome(dsn) && Option.isSome(apiKey)
    ? Option.some({ dsn: dsn.value.replace(/\/+$/, ""), apiKey: apiKey.value, validation: "warn" as const })
    : Option.none()
))

/** A key's value, for the SDK's constructor only. */
export const reveal = (settings: UnipileSettings) => Redacted.value(settings.apiKey)
