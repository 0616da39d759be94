import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as Observability from "../../src/platform/Observability.ts"
import { strangers, workspaceWithAccount } from "../jobs/support.ts"
import { eventually } from "../support/Eventually.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"

const exporter = new InMemorySpanExporter()

layer(serverLayer().pipe(Layer.provide(Observability.tracingTo(exporter))))("OpenTelemetry traces", (it) => {
  it.effect("every request and every SQL statement is a span, in one trace", () =>
    Effect.gen(function*() {
      const { keyValue } = yield* newWorkspace()
      exporter.reset()
      const reply = yield* call("GET", "/v1/me", { token: keyValue })
      assert.strictEqual(reply.status, 200)
      const spans = exporter.getFinishedSpans()
      const server = spans.find((span) => span.kind === 1 && span.name.includes("GET"))
      assert.isDefined(server, `no server span among ${spans.map((s) => s.name).join(", ")}`)
      assert.strictEqual(server!.attributes["http.response.status_code"], 200)
      // A new key's first request claims its rate-limit lease from the database, under this span.
      const claim = spans.find((span) => span.name === "Credentials.claim")
      assert.isDefined(claim)
      const traceId = server!.spanContext().traceId
      const isSql = (span: (typeof spans)[number]) =>
        span.name.startsWith("sql.") || span.attributes["db.system.name"] !== undefined ||
        span.attributes["db.system"] !== undefined
      // Background work (the webhook dispatcher) traces its own SQL; the request's statements are in its trace.
      const requestSql = spans.filter((span) => isSql(span) && span.spanContext().traceId === traceId)
      assert.isAbove(requestSql.length, 0, `no SQL span in the request's trace among ${spans.map((s) => s.name).join(", ")}`)
      assert.strictEqual(claim!.spanContext().traceId, traceId)
      assert.isTrue(requestSql.some((span) => span.parentSpanContext?.spanId === claim!.spanContext().spanId))
    }))

  it.effect("a job is followed from the request to the account's owner: its message and its run carry the account and the runner", () =>
    Effect.gen(function*() {
      const { token, accountId } = yield* workspaceWithAccount()
      exporter.reset()
      const [person] = strangers(accountId, 1, "tracing")
      const created = yield* call("POST", `/v1/accounts/${accountId}/get_profile`, { token, body: { person } })
      assert.strictEqual(created.status, 202)
      const run = yield* eventually(
        "the job's run span",
        Effect.sync(() => exporter.getFinishedSpans().find((span) => span.name === "Governor.start")),
        (span) => span !== undefined,
        10_000
      )
      assert.strictEqual(run?.attributes["accountId"], accountId)
      assert.strictEqual(run?.attributes["jobId"], created.body.job.id)
      assert.isString(run?.attributes["runner"])
      const message = exporter.getFinishedSpans().find((span) => span.name === "Account.Read")
      assert.isDefined(message, `no entity message span among ${exporter.getFinishedSpans().map((s) => s.name).join(", ")}`)
      assert.strictEqual(message!.attributes["entity.id"], accountId)
      assert.strictEqual(message!.attributes["runner"], run?.attributes["runner"])
      // The message is in the request's trace: one job, one trace, whichever server runs it.
      const request = exporter.getFinishedSpans().find((span) => span.kind === 1 && span.name.includes("POST"))
      assert.strictEqual(message!.spanContext().traceId, request?.spanContext().traceId)
    }))
})

layer(Observability.tracing.pipe(Layer.provide(AppConfig.layerWith({}))))("without an OTLP endpoint", (it) => {
  it.effect("no span is built: nothing would read it", () =>
    Effect.gen(function*() {
      const span = yield* Effect.currentSpan.pipe(Effect.withSpan("Jobs.get"))
      assert.isFalse(span.sampled)
      assert.strictEqual(span.spanId, "noop")
    }))
})
