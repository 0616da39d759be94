/**
 * The whole service inside a benchmark's own process, on the test clock, quiet,
 * with the bench's recorder as its tracer. It listens on a port the system
 * picks: on a PostgreSQL server every process is a runner of the cluster, and
 * its peers (itself included) reach it over HTTP.
 */
import { Layer, References, Tracer } from "effect"
import * as App from "../src/App.ts"
import { AppConfig, type AppSettings } from "../src/platform/AppConfig.ts"
import { recorder } from "./recorder.ts"

export const serviceLayer = (settings: Partial<AppSettings>) =>
  App.layerTracedBy(Layer.succeed(Tracer.Tracer, recorder)).pipe(
    Layer.provideMerge(AppConfig.layerWith({
      host: "127.0.0.1",
      port: 0,
      clock: "test",
      // The jobs alone: background syncing of every account would share the database.
      inboxSync: false,
      logLevel: "Warn",
      ...settings
    })),
    // Merged too, not only provided: the bench's own calls (creating jobs) are traced as well.
    Layer.provideMerge(Layer.mergeAll(
      Layer.succeed(Tracer.Tracer, recorder),
      Layer.succeed(References.MinimumLogLevel, "Warn")
    ))
  )
