/**
 * The API reference page: the OpenAPI document rendered by Scalar, whose
 * browser script `effect` inlines (no CDN). Loading that script holds about
 * 12 MB of heap (the module's source and the script as a string), so it is
 * loaded at the first request for the page, not when the service starts.
 */
import { type HttpApi, type HttpApiGroup, HttpApiScalar } from "effect/http-api"
import { onFirstUse } from "./OnFirstUse.ts"

/** Serves `api`'s reference at `path`, built on its first request. */
export const layer = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  path: `/${string}`
) => onFirstUse(path, HttpApiScalar.layer(api, { path }))
