/**
 * How the service reaches Unipile: the DSN of the organisation's Unipile API
 * (`https://apiN.unipile.com:PORT`) and its access token, from the settings `UNIPILE_DSN` and
 * `UNIPILE_API_KEY`. Never logged: the key is redacted.
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
  /**
   * Requests a minute sent for one seat by every server together (`UNIPILE_REQUESTS_PER_MINUTE`), counted in
   * PostgreSQL (`RequestRate.ts`); none: only the provider's own 429s slow the driver down.
   */
  readonly requestsPerMinute?: number | undefined
}

/** The token a hosted link's callback carries for `name`: HMAC-SHA256 of it under the webhook secret. */
export const callbackToken = (secret: Redacted.Redacted<string>, name: string) =>
  createHmac("sha256", Redacted.value(secret)).update(name).digest("hex")

/** Where a hosted sign-in link's callback comes (under the service's public address). */
export const callbackPath = "/webhooks/unipile/auth"

/** What keeps these settings from reaching real seats, in words for `what` (the setting or the workspace that needs them). */
const refusal = (
  settings: Pick<AppSettings, "unipileDsn" | "unipileApiKey" | "clock">,
  what: string
): string | undefined => {
  if (settings.clock === "test") {
    return `${what} reaches real seats and cannot run on OUTREACH_CLOCK=test (a development setting): unset OUTREACH_CLOCK, or use OUTREACH_NETWORK=sandbox`
  }
  const missing = [
    Option.isNone(settings.unipileDsn) ? "UNIPILE_DSN" : undefined,
    Option.isNone(settings.unipileApiKey) ? "UNIPILE_API_KEY" : undefined
  ].filter((name) => name !== undefined)
  return missing.length === 0
    ? undefined
    : `${what} needs ${missing.join(" and ")}: set them from the Unipile dashboard (docs/networks.md, "Going live")`
}

/**
 * Why a live workspace cannot be created or served with these settings (none: it can): real seats
 * need `UNIPILE_DSN` and `UNIPILE_API_KEY`, and never run on the test clock.
 */
export const liveRefusal = (settings: Pick<AppSettings, "unipileDsn" | "unipileApiKey" | "clock">): string | undefined =>
  refusal(settings, "A live workspace (real seats through Unipile)")

/**
 * The settings of a deployment on `OUTREACH_NETWORK=unipile`, or why it cannot run: both
 * `UNIPILE_DSN` and `UNIPILE_API_KEY` are needed, and real seats never run on the test clock
 * (`OUTREACH_CLOCK=test` is a development setting).
 */
export const fromAppSettings = (
  settings: Pick<AppSettings, "unipileDsn" | "unipileApiKey" | "unipileWebhookSecret" | "clock"> & {
    readonly unipileRequestsPerMinute?: number
  }
): Result.Result<UnipileSettings, string> => {
  const refused = refusal(settings, "OUTREACH_NETWORK=unipile")
  if (refused !== undefined || Option.isNone(settings.unipileDsn) || Option.isNone(settings.unipileApiKey)) {
    return Result.fail(refused ?? "")
  }
  return Result.succeed({
    dsn: settings.unipileDsn.value.replace(/\/+$/, ""),
    apiKey: settings.unipileApiKey.value,
    validation: "warn",
    webhookSecret: Option.getOrUndefined(settings.unipileWebhookSecret),
    requestsPerMinute: settings.unipileRequestsPerMinute
  })
}

/** A key's value, for the SDK's constructor only. */
export const reveal = (settings: UnipileSettings) => Redacted.value(settings.apiKey)
