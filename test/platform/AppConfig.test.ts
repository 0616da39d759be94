import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { AppConfig } from "../../src/platform/AppConfig.ts"

const settings = (env: Record<string, string>) =>
  Effect.gen(function*() {
    return yield* AppConfig
  }).pipe(Effect.provide(AppConfig.layer), Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))

describe("AppConfig", () => {
  it.effect("local webhook receivers: allowed by default only for a sandbox on the test clock", () =>
    Effect.gen(function*() {
      assert.isFalse((yield* settings({})).allowPrivateWebhooks)
      assert.isTrue((yield* settings({ OUTREACH_CLOCK: "test" })).allowPrivateWebhooks)
      assert.isFalse((yield* settings({ OUTREACH_CLOCK: "test", OUTREACH_ALLOW_PRIVATE_WEBHOOKS: "false" })).allowPrivateWebhooks)
      assert.isTrue((yield* settings({ OUTREACH_ALLOW_PRIVATE_WEBHOOKS: "true" })).allowPrivateWebhooks)
    }))

  it.effect("Unipile's requests a minute for one seat: 60 by default, a whole number of at least 1", () =>
    Effect.gen(function*() {
      assert.strictEqual((yield* settings({})).unipileRequestsPerMinute, 60)
      assert.strictEqual((yield* settings({ UNIPILE_REQUESTS_PER_MINUTE: "20" })).unipileRequestsPerMinute, 20)
      for (const bad of ["0", "-5", "1.5", "many"]) {
        const refused = yield* Effect.flip(settings({ UNIPILE_REQUESTS_PER_MINUTE: bad }))
        assert.include(String(refused), "UNIPILE_REQUESTS_PER_MINUTE", bad)
      }
    }))
})
