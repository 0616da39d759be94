/**
 * How the service reaches Unipile: the DSN of the organisation's Unipile API
 * (`https://apiN.unipile.com:PORT`) and its access token, from the settings `UNIPILE_DSN` and
 * `UNIPILE_API_KEY`. Never logged: the key is redacted.
 *
 * @since 1.0.0
 */
import { createHmac } from "node:crypto"
import { Option, Redacted, Result } from "effect"
import type { AppSettings } from "../../platform/AppConfig.ts"

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
  /**
   * The secret Unipile's webhooks carry (`UNIPILE_WEBHOOK_SECRET`), and the key of the tokens in
   * hosted sign-in links' callbacks; none: webhooks are refused and no hosted link is issued.
   */
  readonly webhookSecret?: Redacted.Redacted<string> | undefined
}

/** The token a hosted link's callback carries for `name`: HMAC-SHA256 of it under the webhook secret. */
export const callbackToken = (secret: Redacted.Redacted<string>, name: string) =>
  createHmac("sha256", Redacted.value(secret)).update(name).digest("hex")

/** Where a hosted sign-in link's callback comes (under the service's public address). */
export const callbackPath = "/webhooks/unipile/auth"

/**
 * The settings of a deployment on `OUTREACH_NETWORK=unipile`, or why it cannot run: both
 * `UNIPILE_DSN` and `UNIPILE_API_KEY` are needed, and real seats never run on the test clock
 * (`OUTREACH_CLOCK=test` is a development setting).
 */
export const fromAppSettings = (
  settings: Pick<AppSettings, "unipileDsn" | "unipileApiKey" | "unipileWebhookSecret" | "clock">
): Result.Result<UnipileSettings, string> => {
  if (settings.clock === "test") {
    return Result.fail("OUTREACH_NETWORK=unipile reaches real seats and cannot run on OUTREACH_CLOCK=test (a development setting): unset OUTREACH_CLOCK, or use OUTREACH_NETWORK=sandbox")
  }
  const missing = [
    Option.isNone(settings.unipileDsn) ? "UNIPILE_DSN" : undefined,
    Option.isNone(settings.unipileApiKey) ? "UNIPILE_API_KEY" : undefined
  ].filter((name) => name !== undefined)
  if (Option.isNone(settings.unipileDsn) || Option.isNone(settings.unipileApiKey)) {
    return Result.fail(`OUTREACH_NETWORK=unipile needs ${missing.join(" and ")}: set them from the Unipile dashboard (docs/networks.md, "Going live")`)
  }
  return Result.succeed({
    dsn: settings.unipileDsn.value.replace(/\/+$/, ""),
    apiKey: settings.unipileApiKey.value,
    validation: "warn",
    webhookSecret: Option.getOrUndefined(settings.unipileWebhookSecret)
  })
}

/** A key's value, for the SDK's constructor only. */
export const reveal = (settings: UnipileSettings) => Redacted.value(settings.apiKey)
