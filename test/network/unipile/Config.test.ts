/**
 * `OUTREACH_NETWORK=unipile` starts only with the provider's settings and never on the test clock:
 * the service refuses to start with one clear line instead. With the sandbox default it starts
 * either way, and holds the Unipile driver (for live workspaces) only with the settings.
 */
import { assert, describe, it } from "@effect/vitest"
import { Cause, Context, Effect, Exit, Layer, Option, Redacted, Result } from "effect"
import * as App from "../../../src/App.ts"
import { NetworkDriver } from "../../../src/network/NetworkDriver.ts"
import { fromAppSettings } from "../../../src/network/unipile/Config.ts"
import { AppConfig } from "../../../src/platform/AppConfig.ts"
import * as TestDatabase from "../../support/TestDatabase.ts"

const key = Option.some(Redacted.make("k"))
const dsn = Option.some("https://api8.unipile.com:13851/")

describe("the Unipile settings", () => {
  it("need UNIPILE_DSN and UNIPILE_API_KEY, and the system clock", () => {
    const ok = fromAppSettings({ unipileDsn: dsn, unipileApiKey: key, unipileWebhookSecret: Option.none(), clock: "system" })
    assert.isTrue(Result.isSuccess(ok))
    if (Result.isSuccess(ok)) assert.strictEqual(ok.success.dsn, "https://api8.unipile.com:13851")
    const none = fromAppSettings({ unipileDsn: Option.none(), unipileApiKey: Option.none(), unipileWebhookSecret: Option.none(), clock: "system" })
    assert.deepStrictEqual(Result.isFailure(none) ? none.failure : "", 'OUTREACH_NETWORK=unipile needs UNIPILE_DSN and UNIPILE_API_KEY: set them from the Unipile dashboard (docs/networks.md, "Going live")')
    const noKey = fromAppSettings({ unipileDsn: dsn, unipileApiKey: Option.none(), unipileWebhookSecret: Option.none(), clock: "system" })
    assert.include(Result.isFailure(noKey) ? noKey.failure : "", "needs UNIPILE_API_KEY:")
    const testClock = fromAppSettings({ unipileDsn: dsn, unipileApiKey: key, unipileWebhookSecret: Option.none(), clock: "test" })
    assert.include(Result.isFailure(testClock) ? testClock.failure : "", "cannot run on OUTREACH_CLOCK=test")
  })

  it.effect("the configured network refuses to start without them", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(App.network.pipe(
        Layer.provide(TestDatabase.layer),
        Layer.provide(AppConfig.layerWith({ network: "unipile" }))
      ))))
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) assert.include(Cause.pretty(exit.cause), "OUTREACH_NETWORK=unipile needs UNIPILE_DSN and UNIPILE_API_KEY")
      const sandbox = yield* Effect.exit(Effect.scoped(Layer.build(App.network.pipe(
        Layer.provide(TestDatabase.layer),
        Layer.provide(AppConfig.layerWith({ network: "sandbox" }))
      ))))
      assert.isTrue(Exit.isSuccess(sandbox))
    }))

  it.effect("with the sandbox default, the server holds Unipile beside the sandbox when it has the settings on the system clock", () =>
    Effect.gen(function*() {
      // Four servers' networks on one database: each built, asked, and stopped.
      const driversOn = (settings: Parameters<typeof AppConfig.layerWith>[0]) =>
        Effect.scoped(Effect.map(
          Layer.build(App.network.pipe(Layer.provide(AppConfig.layerWith(settings)))),
          (context) => Context.get(context, NetworkDriver).workspaces?.drivers
        ))
      assert.deepStrictEqual(yield* driversOn({ unipileDsn: dsn, unipileApiKey: key }), ["sandbox", "unipile"])
      assert.deepStrictEqual(yield* driversOn({ network: "unipile", unipileDsn: dsn, unipileApiKey: key }), ["sandbox", "unipile"])
      assert.deepStrictEqual(yield* driversOn({}), ["sandbox"])
      assert.deepStrictEqual(yield* driversOn({ unipileDsn: dsn, unipileApiKey: key, clock: "test" }), ["sandbox"])
    }).pipe(Effect.provide(TestDatabase.layer)), 120_000)
})
