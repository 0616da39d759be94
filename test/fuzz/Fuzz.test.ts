/**
 * The schema-driven fuzz suite: requests generated from the served OpenAPI
 * document (valid ones and every kind of hostile one, two workspaces, every
 * credential) against the real server, with the document as the oracle:
 * no 5xx, every failure an envelope, every status documented, every 2xx body
 * matching its schema, no request that matches the document refused, no
 * error body over 64 KB, no workspace reaching another's resources.
 *
 * `FUZZ_SEED` replays a run (the seed is printed); `FUZZ_REQUESTS` sets its size.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { connectedAccount } from "../jobs/support.ts"
import { call, layer as serverLayer, newWorkspace, type Reply } from "../support/TestServer.ts"
import { readDocument } from "./Document.ts"
import { build, type Credential, type Kind, plans, type Request, type Samples } from "./Requests.ts"

const seed = Number(process.env["FUZZ_SEED"] ?? Math.floor(Math.random() * 2 ** 31))
const requests = Number(process.env["FUZZ_REQUESTS"] ?? 2500)
const maxErrorBody = 64 * 1024
/** Requests a key sends before the test clock moves to the next rate-limit minute. */
const perMinute = 500

interface Finding {
  readonly problem: string
  readonly request: string
  readonly sent: string
  readonly status: number
  readonly body: string
}

const isEnvelope = (body: unknown): boolean => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false
  const keys = Object.keys(body).sort().join(",")
  if (keys !== "error,ok" || !("ok" in body) || body.ok !== false || !("error" in body)) return false
  const error = body.error
  return typeof error === "object" && error !== null && "type" in error && "message" in error && "next" in error &&
    typeof error.type === "string" && typeof error.message === "string" && typeof error.next === "string" &&
    error.message !== "" && error.next !== ""
}

layer(serverLayer({ allowPrivateWebhooks: true }), { timeout: 600_000 })("fuzz", (it) => {
  it.effect("requests drawn from the document: no 5xx, only envelopes, only documented statuses", () =>
    Effect.gen(function*() {
      console.log(`fuzz: seed ${seed}, ${requests} requests (replay with FUZZ_SEED=${seed})`)
      const { keyValue: token } = yield* newWorkspace("Fuzz A")
      const { keyValue: otherToken } = yield* newWorkspace("Fuzz B")
      const account = yield* connectedAccount(token, { mode: "approve" })
      const post = (path: string, body: unknown) => call("POST", path, { token, body })
      const victim = yield* post("/v1/keys", { name: "revoked by the fuzz" })
      const revoked = yield* post("/v1/keys", { name: "revoked first" })
      yield* post(`/v1/keys/${revoked.body.key.id}/revoke`, {})
      const job = yield* post(`/v1/accounts/${account}/connect`, { person: "maria-garcia-3a9f02c1b" })
      const webhook = yield* post("/v1/webhooks", { url: "http://127.0.0.1:9/hook" })
      const workflow = yield* post("/v1/workflows", {
        account,
        person: "maria-garcia-3a9f02c1b",
        steps: [{ type: "wait", seconds: 3600 }]
      })
      const samples: Samples = {
        "/v1/accounts": account,
        "/v1/sandbox/accounts": account,
        "/v1/keys": victim.body.key.id,
        "/v1/jobs": job.body.job.id,
        "/v1/approvals": job.body.job.approvalId,
        "/v1/webhooks": webhook.body.webhook.id,
        "/v1/workflows": workflow.body.workflow.id
      }
      const tokens: Record<Credential, string | undefined> = {
        workspace: token,
        none: undefined,
        bad: "svc_" + "A".repeat(43),
        revoked: revoked.body.value,
        other: otherToken
      }
      const doc = readDocument((yield* call("GET", "/openapi.json")).body)
      const ownIds = new Set(Object.values(samples))

      const findings: Array<Finding> = []
      const byKind: Partial<Record<Kind, number>> = {}
      const statuses: Record<number, number> = {}
      let validSent = 0
      let sent = 0

      const check = (request: Request, reply: Reply): ReadonlyArray<string> => {
        const problems: Array<string> = []
        const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? "")
        if (reply.status >= 500) problems.push("server error")
        if (reply.status >= 400 && !isEnvelope(reply.body)) problems.push("not an envelope")
        if (reply.status >= 400 && text.length > maxErrorBody) problems.push("error body over 64 KB")
        const operation = request.operation
        if (operation !== undefined) {
          if (!operation.responses.has(reply.status)) problems.push("undocumented status")
          const schema = operation.responses.get(reply.status)
          if (reply.status < 300 && schema !== undefined && !doc.matches(schema, reply.body)) {
            problems.push("2xx body does not match its schema")
          }
        } else if (![400, 401, 404, 405, 429].includes(reply.status)) {
          problems.push("unexpected status for a path or method the document does not have")
        }
        if (request.valid && [400, 413, 415].includes(reply.status)) problems.push("a request matching the document was refused")
        if (request.credential === "other" && reply.status < 300 && [...ownIds].some((id) => request.path.includes(id))) {
          problems.push("another workspace reached this workspace's resource")
        }
        return problems
      }

      for (const plan of plans(doc.operations.length, requests, seed)) {
        const request = build(doc, plan, samples)
        const credential = tokens[request.credential]
        // fetch sends no body with GET: a body attack on a GET goes without its body.
        const body = request.method === "GET" ? undefined : request.body
        const reply = yield* call(request.method, request.path, {
          ...(credential === undefined ? {} : { token: credential }),
          ...(body === undefined ? {} : "json" in body ? { body: body.json } : {
            raw: { text: body.raw, contentType: body.contentType }
          })
        })
        sent++
        if (request.valid) validSent++
        byKind[plan.kind] = (byKind[plan.kind] ?? 0) + 1
        statuses[reply.status] = (statuses[reply.status] ?? 0) + 1
        for (const problem of check(request, reply)) {
          findings.push({
            problem,
            request: `${plan.kind} ${request.method} ${request.path.slice(0, 200)}`,
            sent: body === undefined ? "" : ("json" in body ? JSON.stringify(body.json) : body.raw).slice(0, 300),
            status: reply.status,
            body: (typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? "")).slice(0, 300)
          })
        }
        // Each key may send 600 requests a calendar minute: the test clock moves to the next one.
        if (sent % perMinute === 0) yield* TestClock.adjust("61 seconds")
      }

      const counts = Object.fromEntries(
        [...new Set(findings.map((f) => f.problem))].map((problem) => [problem, findings.filter((f) => f.problem === problem).length])
      )
      console.log(JSON.stringify({ seed, sent, validSent, statuses, byKind, findings: counts }))
      assert.isAbove(validSent, requests / 40, "too few requests matched the document to mean anything")
      assert.deepStrictEqual(findings.slice(0, 15), [], `seed ${seed}: ${JSON.stringify(counts)}`)
    }), 300_000)
})
