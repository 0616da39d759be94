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
})
