/**
 * Writes the OpenAPI 3.1 document derived from the HttpApi contract to
 * `schema/openapi.json` (`npm run openapi`). A test fails when the checked-in
 * copy is stale.
 */
import { writeFileSync } from "node:fs"
import { OpenApi } from "effect/http-api"
import { Api } from "../src/api/Api.ts"

export const render = (): string => JSON.stringify(OpenApi.fromApi(Api), null, 2) + "\n"

if (import.meta.main) {
  const target = new URL("../schema/openapi.json", import.meta.url)
  writeFileSync(target, render())
  console.log(`wrote ${target.pathname}`)
}
