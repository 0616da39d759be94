/**
 * The address the service is reached at, for links it hands out: `PUBLIC_URL`
 * when set, else the scheme and Host of the request.
 */
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { AppSettings } from "../platform/AppConfig.ts"

export const baseUrlOf = (request: HttpServerRequest.HttpServerRequest, config: AppSettings): string =>
  Option.getOrElse(config.publicUrl, () => `http://${request.headers.host ?? `${config.host}:${config.port}`}`)
