/** The in-memory `WebhookEndpoints`, held to the endpoints' spec (`EndpointsContract.ts`). */
import { Effect, Layer } from "effect"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as EndpointsMemory from "../../src/webhooks/EndpointsMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { endpointsExpectations, resolver } from "./EndpointsContract.ts"

endpointsExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) =>
    test(twoWorkspaceIds()).pipe(
      Effect.provide(EndpointsMemory.layer.pipe(Layer.provide([AppConfig.layerWith({}), resolver])))
    )
})
