/**
 * One role rule on every surface (issue #32): every route of the HttpApi
 * definition and every MCP tool, called by a key of each role and by a
 * dashboard session of each role (REST with its cookie and CSRF token), is
 * answered as the table of `domain/Permissions.ts` says: 403 `notAllowed` for
 * a role it does not allow, anything but that for a role it does. A route
 * added without a rule fails here.
 */
import { readFileSync } from "node:fs"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { assert, layer } from "@effect/vitest"
import { Context, Effect } from "effect"
import { type HttpClient, HttpServer } from "effect/http"
import { HttpApi } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { Permission } from "../../src/api/Security.ts"
import { type AccessRole, accessRoles, type Action, actions, permits, rules } from "../../src/domain/Permissions.ts"
import { actionOf } from "../../src/http/Middleware.ts"
import { notAllowedCode, toolAction } from "../../src/mcp/Authorization.ts"
import { toolNames } from "../../src/mcp/Tools.ts"
import { cookieWithCsrf, ownerSession, teammate } from "../support/Teammates.ts"
import { call, type Reply, layer as serverLayer } from "../support/TestServer.ts"

interface Route {
  readonly name: string
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly action: Action | "public"
  readonly ruled: boolean
}

const isMethod = (method: string): method is Route["method"] => ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method)

/** Every route of the contract, walked from its definition. */
const routes: ReadonlyArray<Route> = (() => {
  const found: Array<Route> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group }) => {
      if (!isMethod(endpoint.method)) throw new Error(`unexpected method ${endpoint.method}`)
      found.push({
        name: `${group.identifier}.${endpoint.name}`,
        method: endpoint.method,
        path: endpoint.path,
        action: actionOf(endpoint),
        ruled: Context.getOrUndefined(endpoint.annotations, Permission) !== undefined
      })
    }
  })
  return found
})()

/** A caller of the walk: a key or a dashboard session (cookie and CSRF token) of a role. */
interface Caller {
  readonly label: string
  readonly role: AccessRole
  readonly send: (method: Route["method"], path: string, body: unknown) => Effect.Effect<Reply, never, HttpClient.HttpClient>
  /** The credential as a bearer token, for MCP. */
  readonly bearer: string
}

const keyCaller = (role: AccessRole, value: string): Caller => ({
  label: `${role} key`,
  role,
  bearer: value,
  send: (method, path, body) => call(method, path, { token: value, body })
})

const sessionCaller = (role: AccessRole, token: string): Caller => ({
  label: `${role} session`,
  role,
  bearer: token,
  send: (method, path, body) => call(method, path, { headers: cookieWithCsrf(token), body })
})

/** A workspace with a key of every role and a session of every role. */
const everyCaller = Effect.gen(function*() {
  const { key, token, actor, workspaceId } = yield* ownerSession
  const admin = yield* teammate(actor, "admin")
  const member = yield* teammate(actor, "member")
  const keys: Array<Caller> = [keyCaller("owner", key)]
  for (const role of ["admin", "member", "read_only"] as const) {
    const made = yield* call("POST", "/v1/keys", { token: key, body: { name: `${role} key`, role } })
    assert.strictEqual(made.status, 201, JSON.stringify(made.body))
    keys.push(keyCaller(role, made.body.value))
  }
  const sessions = [sessionCaller("owner", token), sessionCaller("admin", admin.token), sessionCaller("member", member.token)]
  return { callers: [...keys, ...sessions], ownerKey: key, memberToken: member.token, workspaceId }
})

/** A path with every parameter an id that names nothing. */
const concrete = (path: string) => path.replace(/:\w+/g, () => crypto.randomUUID())

const refusedForRole = (reply: Reply) => reply.status === 403 && reply.body?.error?.type === "notAllowed"

layer(serverLayer())("one role rule on every surface", (it) => {
  it("every route has a rule and every rule is an action of the table", () => {
    assert.isAbove(routes.length, 60)
    const unruled = routes.filter((route) => !route.ruled).map((route) => route.name)
    assert.deepStrictEqual(unruled, [], "routes without a rule: annotate them with allowedTo(...)")
    for (const route of routes) {
      assert.isTrue(route.action === "public" || actions.includes(route.action), route.name)
    }
    assert.deepStrictEqual(routes.filter((route) => route.action === "public").map((route) => route.path), ["/healthz"])
    // The rules the issue names.
    const actionOfRoute = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path)?.action
    assert.strictEqual(actionOfRoute("PATCH", "/v1/accounts/:id"), "manageSeats")
    assert.strictEqual(actionOfRoute("PUT", "/v1/accounts/:id/limits"), "manageSeats")
    assert.strictEqual(actionOfRoute("POST", "/v1/accounts/connect"), "manageSeats")
    assert.strictEqual(actionOfRoute("DELETE", "/v1/accounts/:id"), "manageSeats")
    assert.strictEqual(actionOfRoute("POST", "/v1/approvals/:id/approve"), "decideApprovals")
    assert.isFalse(permits("member", "manageSeats"))
    assert.isTrue(permits("member", "decideApprovals"))
    assert.isFalse(permits("read_only", "decideApprovals"))
  })

  it("docs/dashboard.md shows the table as the code has it", () => {
    const docs = readFileSync(new URL("../../docs/dashboard.md", import.meta.url), "utf8")
    for (const action of actions) {
      const cells = accessRoles.map((role) => permits(role, action) ? "yes" : "no").join(" | ")
      assert.include(docs, `| \`${action}\` | ${cells} | ${rules[action].covers} |`, action)
    }
  })

  it.effect("every route answers every role of a key and of a session as the table says", () =>
    Effect.gen(function*() {
      const { callers } = yield* everyCaller
      const wrong: Array<string> = []
      for (const route of routes) {
        if (route.action === "public") {
          const reply = yield* call(route.method, route.path)
          if (reply.status !== 200) wrong.push(`${route.name} without a key: ${reply.status}`)
          continue
        }
        for (const caller of callers) {
          const body = route.method === "GET" || route.method === "DELETE" ? undefined : {}
          const reply = yield* caller.send(route.method, concrete(route.path), body)
          const allowed = permits(caller.role, route.action)
          if (allowed && (refusedForRole(reply) || reply.status === 401 || reply.status >= 500)) {
            wrong.push(`${route.name} ${caller.label}: ${reply.status} ${JSON.stringify(reply.body)}`)
          }
          if (!allowed && !refusedForRole(reply)) wrong.push(`${route.name} ${caller.label}: ${reply.status}, expected 403 notAllowed`)
        }
      }
      assert.deepStrictEqual(wrong, [])
    }), { timeout: 120_000 })

  it.effect("a member's REST walk-around answers 403 notAllowed and changes nothing", () =>
    Effect.gen(function*() {
      const { ownerKey, memberToken } = yield* everyCaller
      // Connecting is enough: the role is checked before anything about the seat.
      const connected = yield* call("POST", "/v1/accounts/connect", { token: ownerKey, body: { label: "Ada" } })
      const accountId: string = connected.body.account.id
      const asMember = cookieWithCsrf(memberToken)
      for (const [method, path, body] of [
        ["PATCH", `/v1/accounts/${accountId}`, { mode: "autopilot" }],
        ["PUT", `/v1/accounts/${accountId}/limits`, { limits: [{ category: "invites", period: "daily", maxValue: 40 }] }],
        ["POST", `/v1/accounts/${accountId}/pause`, undefined],
        ["POST", `/v1/accounts/${accountId}/resume`, undefined],
        ["POST", "/v1/accounts/connect", { label: "Mine" }],
        ["DELETE", `/v1/accounts/${accountId}`, undefined]
      ] as const) {
        const reply = yield* call(method, path, { headers: asMember, body })
        assert.strictEqual(reply.status, 403, `${method} ${path}: ${JSON.stringify(reply.body)}`)
        assert.strictEqual(reply.body.error.type, "notAllowed")
        assert.include(reply.body.error.message, "Only owner and admin")
      }
      const account = yield* call("GET", `/v1/accounts/${accountId}`, { headers: asMember })
      assert.strictEqual(account.status, 200)
      assert.strictEqual(account.body.account.mode, "approve")
      assert.strictEqual(account.body.account.status, "connecting")
      const seats = yield* call("GET", "/v1/accounts", { headers: asMember })
      assert.strictEqual(seats.body.accounts.length, 1)
      // What a member may do, they can: decide approvals and read (here: an unknown approval is 404, not 403).
      const decide = yield* call("POST", `/v1/approvals/${crypto.randomUUID()}/approve`, { headers: asMember, body: {} })
      assert.strictEqual(decide.status, 404)
    }), { timeout: 60_000 })

  it.effect("every MCP tool answers every role as the table says", () =>
    Effect.gen(function*() {
      const { callers } = yield* everyCaller
      const server = yield* HttpServer.HttpServer
      const url = new URL(server.address._tag === "UnixPathAddress" ? "http://invalid/mcp" : `http://127.0.0.1:${server.address.port}/mcp`)
      const wrong: Array<string> = []
      for (const caller of callers) {
        const client = yield* Effect.acquireRelease(
          Effect.promise(async () => {
            const client = new Client({ name: "roles-test", version: "1.0.0" })
            await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${caller.bearer}` } } }))
            return client
          }),
          (client) => Effect.promise(() => client.close())
        )
        const { tools } = yield* Effect.promise(() => client.listTools())
        assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), [...toolNames].sort())
        for (const name of toolNames) {
          // Ids that name nothing: an allowed call fails later (not found, bad input), never for the role.
          const outcome = yield* Effect.promise(() =>
            client.callTool({ name, arguments: { accountId: crypto.randomUUID(), jobId: crypto.randomUUID(), input: {} } }).then(
              () => ({ code: 0, message: "" }),
              (error: unknown) => ({
                code: typeof error === "object" && error !== null && "code" in error && typeof error.code === "number" ? error.code : -1,
                message: error instanceof Error ? error.message : String(error)
              })
            )
          )
          const allowed = permits(caller.role, toolAction(name))
          const refused = outcome.code === notAllowedCode
          if (allowed === refused) wrong.push(`${name} ${caller.label}: ${outcome.code} ${outcome.message}`)
          if (refused && !outcome.message.includes("may not")) wrong.push(`${name} ${caller.label}: refusal without words`)
        }
      }
      assert.deepStrictEqual(wrong, [])
    }).pipe(Effect.scoped), { timeout: 120_000 })
})
