/**
 * The service on the Unipile driver against a provider double that stamps with the service's
 * clock (the test clock), as a real network shares real time with a real service.
 */
import { Effect, Redacted } from "effect"
import * as App from "../../../src/App.ts"
import * as UnipileDriver from "../../../src/network/unipile/UnipileDriver.ts"
import * as ProviderDouble from "./ProviderDouble.ts"

/** A double on the clock a test will hand it (`follow`), and the Unipile driver's settings for it. */
export const start = async (apiKey: string, webhookSecret: string) => {
  let clockNow = () => Date.now()
  const double = await ProviderDouble.start({ apiKey, now: () => clockNow() })
  const settings = { dsn: double.dsn, apiKey: Redacted.make(apiKey), validation: "error" as const, webhookSecret: Redacted.make(webhookSecret) }
  return {
    double,
    /** The Unipile driver on the double. */
    driver: UnipileDriver.layer(settings),
    /** The service's core on that driver. */
    core: App.coreWith(UnipileDriver.layer(settings)),
    /** From now on the double reads the running test's clock. */
    follow: Effect.clockWith((clock) =>
      Effect.sync(() => {
        clockNow = () => clock.currentTimeMillisUnsafe()
      })
    )
  }
}
