/**
 * Whole servers in one test process, on one database: each listens on a real
 * port that is also its runner address, so the cluster's runners reach each
 * other over HTTP as separate processes would.
 */
import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Layer } from "effect"
import { FetchHttpClient, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import * as App from "../../src/App.ts"
import { Platform } from "../../src/http/Platform.ts"
import { AppConfig, type AppSettings } from "../../src/platform/AppConfig.ts"
import * as ServiceClock from "../../src/platform/ServiceClock.ts"
import * as Server from "../../src/Server.ts"

export { freePort } from "./Processes.ts"

/** A whole server on `database`, listening on 127.0.0.1:`port`, which is also its runner address; `settings` override the defaults. */
export const serverOn = (database: Layer.Layer<SqlClient.SqlClient>, port: number, settings: Partial<AppSettings> = {}) =>
  Server.serve(Server.routes, { logRequests: false, logAddress: false }).pipe(
    Layer.provideMerge(HttpServer.layerTestClient.pipe(
      Layer.provide(Layer.fresh(FetchHttpClient.layer)),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port }))
    )),
    Layer.provideMerge(App.core),
    Layer.provideMerge(ServiceClock.layer),
    Layer.provideMerge(database),
    // Requests are served on configuration and logging, as in `App.layer`.
    Layer.provideMerge(Platform.layer),
    Layer.provideMerge(AppConfig.layerWith({ inboxSync: false, ...settings, host: "127.0.0.1", port }))
  )

