/**
 * The contract of creating requests that take an `Idempotency-Key` (jobs,
 * workflows, automations): the header, and the 202 answer that says when it
 * repeats the first request's response.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { Ok } from "./Envelope.ts"

const IdempotencyKey = Schema.String.check(Schema.isPattern(/^[\x21-\x7E]{1,255}$/u)).annotate({
  description:
    "1 to 255 visible ASCII characters. Scoped to the workspace and the endpoint, kept 24 hours: a repeat with the same body returns the first response (the same resource) with `idempotent-replayed: true`; the same key with a different body is 422 `unprocessable`; a repeat while the first is still being handled is 409 `conflict`.",
  examples: ["connect-maria-garcia-2026-11-23"]
})

/** The optional `Idempotency-Key` request header. */
export const idempotencyHeaders = { "idempotency-key": Schema.optionalKey(IdempotencyKey) }

const Replayed = Schema.Literal("true").annotate({
  description: "Present on a repeat with the same Idempotency-Key and body: this is the first request's response, nothing new was created"
})

/** A 202 answer `{ok: true, ...fields}` that may repeat the first response of its Idempotency-Key. */
export const accepted = <const Fields extends Schema.Struct.Fields>(fields: Fields, description: string) =>
  HttpApiSchema.WithHeaders(
    Ok(fields).annotate({ description }).pipe(HttpApiSchema.status(202)),
    { "idempotent-replayed": Schema.optionalKey(Replayed) }
  )

/** The answer of such an endpoint, with `idempotent-replayed: true` when it repeats the first response. */
export const acceptedAnswer = <B>(body: B, replayed: boolean) =>
  HttpApiSchema.withHeaders({
    body,
    headers: replayed ? { "idempotent-replayed": "true" as const } : {}
  })
