/**
 * The OpenAPI document describes the MCP endpoint: every tool is named, and
 * what an assistant may not do is said.
 */
import { assert, describe, it } from "@effect/vitest"
import { OpenApi } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { commandNames } from "../../src/domain/Commands.ts"
import { toolNames } from "../../src/mcp/Tools.ts"

describe("the OpenAPI document on MCP", () => {
  const description = OpenApi.fromApi(Api).info.description ?? ""

  it("names POST /mcp, every tool that is not a command, and the command tools", () => {
    assert.include(description, "POST /mcp")
    for (const name of toolNames.filter((name) => !commandNames.some((command) => command === name))) {
      assert.include(description, `\`${name}\``, name)
    }
    assert.include(description, "one per command, named as the command")
  })

  it("says an assistant may not decide approvals", () => {
    assert.match(description, /may not do: decide an approval/)
  })
})
