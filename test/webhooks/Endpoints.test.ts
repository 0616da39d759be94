/** The stored `WebhookEndpoints` on a database, held to the endpoints' spec (`EndpointsContract.ts`). */
import { Effect, Layer } from "effect"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import { WebhookEndpoints } from "../../src/webhooks/Endpoints.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { endpointsExpectations, resolver } from "./EndpointsContract.ts"

endpointsExpectations({
  name: `stored, ${TestDatabase.backend}`,
  services: WebhookEndpoints.layer.pipe(
    Layer.provide([AppConfig.layerWith({}), resolver]),
    Layer.provideMerge(TestDatabase.layer)
  ),
  withFixture: (test) => Effect.flatMap(TestDatabase.twoWorkspaces, test)
})
