import { readFileSync } from "node:fs"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Api } from "../../src/api/Api.ts"
import { render } from "../../scripts/write-openapi.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

const apiPaths = Object.values(Api.groups).flatMap((group) =>
  Object.values(group.endpoints).map((endpoint) => ({
    method: endpoint.method.toLowerCase(),
    path: endpoint.path.replace(/:(\w+)/g, "{$1}")
  }))
)

describe("OpenAPI document", () => {
  it("the checked-in schema/openapi.json is up to date (run `npm run openapi`)", () => {
    const checkedIn = readFileSync(new URL("../../schema/openapi.json", import.meta.url), "utf8")
    assert.strictEqual(checkedIn, render(), "schema/openapi.json is stale: run `npm run openapi`")
  })
})

layer(serverLayer())("GET /openapi.json", (it) => {
  it.effect("is OpenAPI 3.1 with every path, the bearer scheme and the error envelope", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/openapi.json")
      assert.strictEqual(reply.status, 200)
      const doc = reply.body
      assert.match(doc.openapi, /^3\.1\.\d+$/)
      assert.strictEqual(doc.info.version, "1.0.0")
      for (const { method, path } of apiPaths) {
        assert.isDefined(doc.paths[path]?.[method], `${method} ${path} missing`)
      }
      const schemes = Object.values(doc.components.securitySchemes) as Array<{ type: string; scheme: string }>
      assert.isTrue(schemes.some((s) => s.type === "http" && s.scheme.toLowerCase() === "bearer"))
      const me = doc.paths["/v1/me"].get
      for (const status of ["200", "400", "401", "429", "500"]) {
        assert.isDefined(me.responses[status], `GET /v1/me lacks ${status}`)
      }
      assert.isDefined(doc.paths["/v1/keys"].get.responses["403"])
      assert.deepStrictEqual(reply.body, JSON.parse(render()))
    }))
})
