/**
 * The jobs and approvals contract: its OpenAPI document, the request schemas
 * the server decodes with, and (through a real HttpApi server with stand-in
 * handlers) empty optional bodies, the 202 with `idempotent-replayed` and the
 * 400 that names `input.<field>`.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Schema, SchemaIssue } from "effect"
import { HttpClient, HttpClientRequest, HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiGroup, OpenApi } from "effect/http-api"
import { Api } from "../../src/api/Api.ts"
import { type Approval, ApprovalsApi } from "../../src/api/ApprovalsApi.ts"
import {
  acceptedJob,
  commandEndpointName,
  CreateJob,
  decodeJob,
  Job,
  type JobOf,
  JobsApi,
  jobSchemaOf
} from "../../src/api/JobsApi.ts"
import { Authentication, RequestErrors } from "../../src/api/Security.ts"
import { commandNames, commands, type InputOf } from "../../src/domain/Commands.ts"
import { RequestErrorsLive } from "../../src/http/Middleware.ts"
import { AnyCaller } from "../support/AnyCaller.ts"

// Untyped JSON, read as an integrator reads the document.
type Json = any

// The service's own document, as GET /openapi.json serves it.
const doc: Json = OpenApi.fromApi(Api)
const schemas: Json = doc.components.schemas

const deref = (schema: Json): Json => {
  const ref: string | undefined = schema?.$ref ?? schema?.allOf?.find((s: Json) => s.$ref !== undefined)?.$ref
  return ref === undefined ? schema : schemas[ref.replace("#/components/schemas/", "")]
}

/** Field paths of a decode failure, as the 400 envelope names them. */
const failingPaths = (schema: Schema.Decoder<unknown>, value: unknown): ReadonlyArray<string> => {
  const exit = Schema.decodeUnknownExit(schema, { errors: "all" })(value)
  if (Exit.isSuccess(exit)) return []
  const error = exit.cause.reasons.flatMap((reason) => reason._tag === "Fail" ? [reason.error] : [])[0]
  if (!Schema.isSchemaError(error)) return ["<defect>"]
  return SchemaIssue.makeFormatterStandardSchemaV1()(error.issue).issues.map((issue) =>
    (issue.path ?? []).map((segment) =>
      String(typeof segment === "object" && segment !== null && "key" in segment ? segment.key : segment)
    ).join(".")
  )
}

const accountId = "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c"

describe("the jobs contract (OpenAPI)", () => {
  it("has one POST /v1/accounts/{id}/<command> per command, answering 202 with that command's job", () => {
    assert.strictEqual(commandNames.length, 21)
    for (const command of commandNames) {
      const operation = doc.paths[`/v1/accounts/{id}/${command}`]?.post
      assert.isDefined(operation, `POST /v1/accounts/{id}/${command} missing`)
      assert.strictEqual(operation.operationId, `jobs.command_${command}`)
      assert.include(operation.summary, commands[command].description)
      // 403: a role that may not run commands (a read-only key).
      assert.deepStrictEqual(Object.keys(operation.responses).sort(), ["202", "400", "401", "403", "404", "405", "408", "409", "413", "415", "422", "429", "431", "500"])
      const accepted = operation.responses["202"]
      assert.deepStrictEqual(
        accepted.content["application/json"].schema.properties.job,
        { $ref: `#/components/schemas/Job_${command}` }
      )
      assert.deepStrictEqual(accepted.headers["idempotent-replayed"].schema.enum, ["true"])
      assert.isFalse(accepted.headers["idempotent-replayed"].required)
      const key = operation.parameters.find((p: Json) => p.name === "idempotency-key")
      assert.strictEqual(key.in, "header")
      assert.isFalse(key.required)
      assert.deepStrictEqual(operation.security, [{ bearer: [] }])
      assert.deepStrictEqual(deref(operation.requestBody.content["application/json"].schema), deref({
        $ref: `#/components/schemas/${Schema.resolveAnnotations(commands[command].input)?.identifier}`
      }))
    }
  })

  it("describes each command's approval by mode and its budget, from the catalogue", () => {
    const description = (command: string): string => doc.paths[`/v1/accounts/{id}/${command}`].post.description
    assert.include(description("connect"), "approval in `assist` and `approve` mode")
    assert.include(description("connect"), "`invites` budget")
    assert.include(description("withdraw_invite"), "approval in `assist` mode")
    assert.notInclude(description("withdraw_invite"), "`approve` mode")
    assert.include(description("decline_invite"), "approval in `assist` mode")
    assert.include(description("get_profile"), "never waits for approval")
    assert.include(description("send_message"), "`inmails` when it goes as an InMail")
    assert.include(description("search_people"), "one per row returned")
    assert.include(description("ssi"), "spends no budget")
  })

  it("Job_connect carries connect's input and result schemas, every field described, with examples", () => {
    const job = schemas["Job_connect"]
    assert.deepStrictEqual(job.required, [
      "id",
      "accountId",
      "kind",
      "status",
      "input",
      "result",
      "error",
      "eta",
      "waitingFor",
      "approvalId",
      "createdAt",
      "startedAt",
      "finishedAt"
    ])
    assert.deepStrictEqual(job.properties.kind.enum, ["connect"])
    const input = deref(job.properties.input)
    assert.deepStrictEqual(Object.keys(input.properties).sort(), ["note", "person"])
    assert.deepStrictEqual(input.required, ["person"])
    assert.strictEqual(job.properties.result.anyOf[0].$ref, "#/components/schemas/InvitationSent")
    for (const [name, field] of Object.entries<Json>(job.properties)) {
      const described = field.description ?? field.allOf?.find((s: Json) => s.description)?.description
      assert.isString(described, `Job_connect.${name} has no description`)
    }
    assert.isAtLeast(job.examples.length, 2)
    const connectExample = Schema.resolveAnnotations(commands.connect.input)?.examples?.[0]
    assert.deepStrictEqual(job.examples[0].input, connectExample)
    assert.deepStrictEqual(job.examples[1].result, Schema.resolveAnnotations(commands.connect.result)?.examples?.[0])
    const jobError = schemas["JobError"]
    assert.deepStrictEqual(jobError.required, ["type", "message", "next"])
    assert.include(jobError.properties.type.enum, "lowInviteQuality")
    assert.include(jobError.properties.type.description, "`cannotResendYet`")
  })

  it("every Job_<command> has examples that its own schema accepts", () => {
    for (const command of commandNames) {
      const examples: ReadonlyArray<unknown> = schemas[`Job_${command}`].examples ?? []
      assert.strictEqual(examples.length, 2, `Job_${command} examples`)
      for (const example of examples) {
        assert.isTrue(Schema.is(jobSchemaOf(command))(example), `Job_${command} example`)
        assert.isTrue(Schema.is(Job)(example))
      }
      assert.isAtLeast(schemas[`CreateJob_${command}`].examples.length, 1, `CreateJob_${command} examples`)
    }
  })

  it("the jobs and approvals endpoints are documented", () => {
    assert.strictEqual(doc.paths["/v1/jobs"].post.responses["202"].content["application/json"].schema.properties.job.$ref, "#/components/schemas/Job")
    assert.lengthOf(schemas["Job"].anyOf, 21)
    // A renamed copy (`Job_1`) would mean one schema reached the document in two versions.
    assert.deepStrictEqual(Object.keys(schemas).filter((name) => /^(Job|CreateJob|Approv).*_\d+$/.test(name)), [])
    assert.lengthOf(schemas["CreateJob"].anyOf, 21)
    const getJob = doc.paths["/v1/jobs/{id}"].get
    const wait = getJob.parameters.find((p: Json) => p.name === "wait")
    assert.isFalse(wait.required)
    assert.include(wait.schema.description, "0 to 60")
    assert.isDefined(getJob.responses["404"])
    const list = doc.paths["/v1/jobs"].get
    assert.deepStrictEqual(list.parameters.map((p: Json) => p.name), ["account", "status", "kind", "cursor", "limit"])
    assert.include(list.parameters[4].schema.description, "default 50")
    assert.lengthOf(list.responses["200"].content["application/json"].schema.examples, 1)
    assert.lengthOf(doc.paths["/v1/approvals"].get.responses["200"].content["application/json"].schema.examples, 1)
    assert.deepStrictEqual(Object.keys(doc.paths["/v1/jobs/{id}/cancel"].post.responses).sort(), ["200", "400", "401", "403", "404", "405", "408", "409", "429", "431", "500"])

    const approve = doc.paths["/v1/approvals/{id}/approve"].post
    assert.isFalse(approve.requestBody.required)
    assert.deepStrictEqual(Object.keys(approve.responses).sort(), ["200", "400", "401", "403", "404", "405", "408", "409", "413", "415", "422", "429", "431", "500"])
    assert.include(approve.responses["422"].description, "expired")
    assert.isFalse(doc.paths["/v1/approvals/{id}/reject"].post.requestBody.required)
    const approval = schemas["Approval"]
    assert.deepStrictEqual(approval.required, [
      "id",
      "accountId",
      "jobId",
      "kind",
      "status",
      "target",
      "text",
      "reason",
      "createdAt",
      "expiresAt",
      "decidedAt"
    ])
    assert.isAtLeast(approval.examples.length, 1)
    assert.notInclude(approval.properties.kind.enum, "get_profile")
    assert.include(approval.properties.kind.enum, "connect")
    assert.isDefined(schemas["ApprovalExpiredEncoded"])
    assert.deepStrictEqual(doc.paths["/v1/approvals"].get.security, [{ bearer: [] }])
  })
})

describe("the jobs contract (requests)", () => {
  it("POST /v1/jobs: a bad input is named as input.<field>", () => {
    assert.deepStrictEqual(failingPaths(CreateJob, { account: accountId, command: "connect", input: { note: "Hi" } }), [
      "input.person"
    ])
    assert.deepStrictEqual(
      failingPaths(CreateJob, { account: accountId, command: "react", input: { post: "urn:li:activity:1", reaction: "wow" } }),
      ["input.reaction"]
    )
    assert.deepStrictEqual(failingPaths(CreateJob, { account: accountId, command: "connect", input: { person: "maria-garcia" } }), [])
    assert.isNotEmpty(failingPaths(CreateJob, { account: accountId, command: "dance", input: {} }))
    assert.deepStrictEqual(failingPaths(CreateJob, { account: "nope", command: "ssi", input: {} }), ["account"])
  })

  it.effect("decodeJob checks input and result against the job's own command", () =>
    Effect.gen(function*() {
      const [example] = Schema.resolveAnnotations(jobSchemaOf("connect"))?.examples ?? []
      assert.isDefined(example)
      const decoded = yield* decodeJob(example)
      assert.strictEqual(decoded.kind, "connect")
      const mismatched = yield* Effect.flip(decodeJob({ ...example, kind: "send_message" }))
      assert.isTrue(Schema.isSchemaError(mismatched))
    }))
})

// ---------------------------------------------------------------------------
// Through a real HttpApi server: the contract's endpoints with stand-in handlers

const probe = HttpApiGroup.make("probe")
  .add(
    JobsApi.endpoints[commandEndpointName("connect")],
    JobsApi.endpoints.create,
    JobsApi.endpoints.get,
    JobsApi.endpoints.list
  )
  .middleware(Authentication)

const served = HttpApi.make("served")
  .add(probe)
  .add(ApprovalsApi)
  .middleware(RequestErrors)
  .annotate(HttpApi.ParseOptions, { errors: "all" })

/** A job of `connect`, typed by the contract's helper type. */
const connectJob = (input: InputOf<"connect">): JobOf<"connect"> => ({
  id: "9a7e4c2b-1d3f-4e5a-8b6c-0d1e2f3a4b5c",
  accountId,
  kind: "connect",
  status: "awaiting_approval",
  input,
  result: null,
  error: null,
  eta: null,
  waitingFor: { reason: "approval", until: null },
  approvalId: "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f",
  createdAt: "2026-11-23T08:55:00.000Z",
  startedAt: null,
  finishedAt: null
})

const approvalOf = (status: Approval["status"], fields: { readonly text?: string | undefined; readonly reason?: string | undefined }): Approval => ({
  id: "c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f",
  accountId,
  jobId: "9a7e4c2b-1d3f-4e5a-8b6c-0d1e2f3a4b5c",
  kind: "connect",
  status,
  target: "maria-garcia",
  text: fields.text ?? "Hi",
  reason: fields.reason ?? null,
  createdAt: "2026-11-23T08:55:00.000Z",
  expiresAt: "2026-11-26T08:55:00.000Z",
  decidedAt: "2026-11-23T09:00:00.000Z"
})

const ProbeHandlers = HttpApiBuilder.group(served, "probe", (handlers) =>
  handlers
    .handle("command_connect", ({ payload, headers }) =>
      Effect.succeed(acceptedJob(connectJob(payload), headers["idempotency-key"] === "replay")))
    .handle("create", ({ payload }) =>
      payload.command === "connect"
        ? Effect.succeed(acceptedJob(connectJob(payload.input), false))
        : Effect.die(new Error(`the probe runs only connect, not ${payload.command}`)))
    // The stand-ins answer what they decoded, so the tests see the server's reading of the query.
    .handle("get", ({ query }) => Effect.succeed({ ok: true as const, job: connectJob({ person: String(query.wait ?? "none") }) }))
    .handle("list", ({ query }) => Effect.succeed({ ok: true as const, jobs: [], nextCursor: JSON.stringify(query) })))

const ApprovalsHandlers = HttpApiBuilder.group(served, "approvals", (handlers) =>
  handlers
    .handle("list", ({ query }) => Effect.succeed({ ok: true as const, approvals: [], nextCursor: JSON.stringify(query) }))
    .handle("approve", ({ payload }) =>
      Effect.succeed({
        ok: true as const,
        approval: approvalOf("approved", { text: payload?.text }),
        job: { ...connectJob({ person: "maria-garcia" }), status: "queued" as const }
      }))
    .handle("reject", ({ payload }) =>
      Effect.succeed({
        ok: true as const,
        approval: approvalOf("rejected", { reason: payload?.reason }),
        job: { ...connectJob({ person: "maria-garcia" }), status: "failed" as const }
      })))


const server = HttpRouter.serve(
  HttpApiBuilder.layer(served).pipe(
    Layer.provide([ProbeHandlers, ApprovalsHandlers]),
    Layer.provide([AnyCaller, RequestErrorsLive])
  ),
  { disableLogger: true, disableListenLog: true }
).pipe(Layer.provideMerge(NodeHttpServer.layerTest))

const send = (
  method: "GET" | "POST",
  path: string,
  options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(path).pipe(
      HttpClientRequest.bearerToken("svc_test"),
      HttpClientRequest.setHeaders(options.headers ?? {})
    )
    if (options.body !== undefined) request = HttpClientRequest.bodyJsonUnsafe(request, options.body)
    const response = yield* client.execute(request)
    const text = yield* response.text
    const body: Json = text === "" ? undefined : JSON.parse(text)
    return { status: response.status, headers: response.headers, body }
  }).pipe(Effect.orDie)

const post = (path: string, options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}) =>
  send("POST", path, options)
const get = (path: string) => send("GET", path)

layer(server)("the contract served by HttpApi", (it) => {
  it.effect("a command answers 202 with its job; a replay carries idempotent-replayed: true", () =>
    Effect.gen(function*() {
      const first = yield* post(`/v1/accounts/${accountId}/connect`, {
        body: { person: "maria-garcia", note: "Hi María" },
        headers: { "idempotency-key": "first" }
      })
      assert.strictEqual(first.status, 202, JSON.stringify(first.body))
      assert.strictEqual(first.body.ok, true)
      assert.deepStrictEqual(first.body.job.input, { person: "maria-garcia", note: "Hi María" })
      assert.isUndefined(first.headers["idempotent-replayed"])
      const replay = yield* post(`/v1/accounts/${accountId}/connect`, {
        body: { person: "maria-garcia" },
        headers: { "idempotency-key": "replay" }
      })
      assert.strictEqual(replay.status, 202)
      assert.strictEqual(replay.headers["idempotent-replayed"], "true")
    }))

  it.effect("a bad Idempotency-Key and a bad input are 400 naming the field", () =>
    Effect.gen(function*() {
      const badKey = yield* post(`/v1/accounts/${accountId}/connect`, {
        body: { person: "maria-garcia" },
        headers: { "idempotency-key": "two words" }
      })
      assert.strictEqual(badKey.status, 400)
      assert.include(badKey.body.error.message, "header.idempotency-key")
      const badInput = yield* post("/v1/jobs", { body: { account: accountId, command: "connect", input: { note: "Hi" } } })
      assert.strictEqual(badInput.status, 400)
      assert.strictEqual(badInput.body.error.type, "badRequest")
      assert.include(badInput.body.error.message, "body.input.person")
      const good = yield* post("/v1/jobs", { body: { account: accountId, command: "connect", input: { person: "maria-garcia" } } })
      assert.strictEqual(good.status, 202)
      assert.strictEqual(good.body.job.kind, "connect")
    }))

  it.effect("approve and reject take an empty body, {} or the optional field", () =>
    Effect.gen(function*() {
      const approvalPath = "/v1/approvals/c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f"
      const bare = yield* post(`${approvalPath}/approve`)
      assert.strictEqual(bare.status, 200, JSON.stringify(bare.body))
      assert.strictEqual(bare.body.approval.text, "Hi")
      const empty = yield* post(`${approvalPath}/approve`, { body: {} })
      assert.strictEqual(empty.status, 200)
      const edited = yield* post(`${approvalPath}/approve`, { body: { text: "Hello María" } })
      assert.strictEqual(edited.body.approval.text, "Hello María")
      const blank = yield* post(`${approvalPath}/approve`, { body: { text: "   " } })
      assert.strictEqual(blank.status, 400)
      assert.include(blank.body.error.message, "body.text")

      const rejected = yield* post(`${approvalPath}/reject`)
      assert.strictEqual(rejected.status, 200)
      assert.isNull(rejected.body.approval.reason)
      const withReason = yield* post(`${approvalPath}/reject`, { body: { reason: "Wrong person" } })
      assert.strictEqual(withReason.body.approval.reason, "Wrong person")
      const tooLong = yield* post(`${approvalPath}/reject`, { body: { reason: "x".repeat(501) } })
      assert.strictEqual(tooLong.status, 400)
      assert.include(tooLong.body.error.message, "body.reason")
    }))

  it.effect("Idempotency-Key: 1 to 255 visible ASCII characters", () =>
    Effect.gen(function*() {
      const statusWith = (key: string) =>
        Effect.map(
          post(`/v1/accounts/${accountId}/connect`, { body: { person: "maria-garcia" }, headers: { "idempotency-key": key } }),
          (reply) => reply.status
        )
      assert.strictEqual(yield* statusWith("a"), 202)
      assert.strictEqual(yield* statusWith("order-42:connect/maria"), 202)
      assert.strictEqual(yield* statusWith("x".repeat(255)), 202)
      assert.strictEqual(yield* statusWith("x".repeat(256)), 400)
      assert.strictEqual(yield* statusWith("two words"), 400)
      const none = yield* post(`/v1/accounts/${accountId}/connect`, { body: { person: "maria-garcia" } })
      assert.strictEqual(none.status, 202)
    }))

  it.effect("GET /v1/jobs: limit 1 to 200 (optional on both sides; the handler takes 50), status and kind checked", () =>
    Effect.gen(function*() {
      const plain = yield* get("/v1/jobs")
      assert.deepStrictEqual(JSON.parse(plain.body.nextCursor), {})
      const filtered = yield* get(`/v1/jobs?limit=200&kind=connect&status=scheduled&account=${accountId}&cursor=am9iOjQy`)
      assert.deepStrictEqual(JSON.parse(filtered.body.nextCursor), {
        account: accountId,
        status: "scheduled",
        kind: "connect",
        cursor: "am9iOjQy",
        limit: 200
      })
      for (const bad of ["limit=0", "limit=201", "limit=ten", "kind=dance", "status=done", "account=nope"]) {
        const reply = yield* get(`/v1/jobs?${bad}`)
        assert.strictEqual(reply.status, 400, bad)
        assert.include(reply.body.error.message, `query.${bad.split("=")[0]}`)
      }
    }))

  it.effect("GET /v1/jobs/{id}: wait 0 to 60 seconds", () =>
    Effect.gen(function*() {
      const jobPath = "/v1/jobs/9a7e4c2b-1d3f-4e5a-8b6c-0d1e2f3a4b5c"
      assert.strictEqual((yield* get(jobPath)).body.job.input.person, "none")
      assert.strictEqual((yield* get(`${jobPath}?wait=60`)).body.job.input.person, "60")
      assert.strictEqual((yield* get(`${jobPath}?wait=0`)).body.job.input.person, "0")
      assert.strictEqual((yield* get(`${jobPath}?wait=61`)).status, 400)
      assert.strictEqual((yield* get(`${jobPath}?wait=1.5`)).status, 400)
      assert.strictEqual((yield* get("/v1/jobs/not-a-uuid")).status, 400)
    }))

  it.effect("GET /v1/approvals: status and limit optional (the handler takes pending and 50)", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(JSON.parse((yield* get("/v1/approvals")).body.nextCursor), {})
      assert.deepStrictEqual(
        JSON.parse((yield* get("/v1/approvals?status=expired&limit=5")).body.nextCursor),
        { status: "expired", limit: 5 }
      )
      assert.strictEqual((yield* get("/v1/approvals?status=all")).status, 400)
    }))
})
