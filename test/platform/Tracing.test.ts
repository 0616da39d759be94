import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base"
import { assert, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as Observability from "../../src/platform/Observability.ts"
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
})
