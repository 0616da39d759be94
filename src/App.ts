/**
 * The whole service as layers: core services on the configured database, the
 * start-up bootstrap, and the HTTP server. `main.ts` launches `layer`;
 * embedders pick the parts they need.
 *
 * @since 1.0.0
 */
import { Layer } from "effect"
import { Credentials } from "./auth/Credentials.ts"
import * as Server from "./http/Server.ts"
import * as Database from "./platform/Database.ts"
import * as Observability from "./platform/Observability.ts"
import { bootstrap, Workspaces } from "./workspaces/Workspaces.ts"

/** The core services (workspaces, keys, credentials); needs a migrated `SqlClient` and `AppConfig`. */
export const core = Layer.mergeAll(Workspaces.layer, Credentials.layer)

/** The HTTP server with its routes, after the bootstrap; needs the core services and `AppConfig`. */
export const server = Server.layer.pipe(Layer.provide(Layer.effectDiscard(bootstrap)))

/** Everything, on the configured database, with tracing; needs `AppConfig`. */
export const layer = server.pipe(
  Layer.provideMerge(core),
  Layer.provideMerge(Database.layer),
  Layer.provide(Observability.tracing)
)
