/**
 * API keys: `GET/POST /v1/keys`, `POST /v1/keys/{id}/revoke`.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { DateTimeString, Ok, Uuid } from "./Envelope.ts"
import { NotAllowed, NotFound } from "./Errors.ts"
import { allowedTo, Authentication } from "./Security.ts"
import { AccessRole } from "../domain/Permissions.ts"
import { Text } from "../domain/Text.ts"

const keyExample = {
  id: "5e0a1c3d-2b4f-4a6e-8c9d-0f1e2d3c4b5a",
  name: "CRM sync",
  prefix: "svc_Q2xhdWRl",
  role: "member" as const,
  createdAt: "2026-11-21T09:30:00.000Z",
  lastUsedAt: null,
  revokedAt: null
}

const keyRole = AccessRole.annotate({
  description:
    "What the key may do (the table in docs/dashboard.md; each operation's `x-roles`): `owner`, `admin`, `member` (reads, runs commands, decides approvals, starts workflows) or `read_only` (reads only). Keys made before keys had roles are `owner`."
})

/** A key record; the key value itself is never stored or shown again after creation. */
export const ApiKey = Schema.Struct({
  id: Uuid,
  name: Schema.String,
  prefix: Schema.String.annotate({ description: "The first 12 characters of the key, to recognise it" }),
  role: keyRole,
  createdAt: DateTimeString,
  lastUsedAt: Schema.NullOr(DateTimeString).annotate({
    description: "Last authenticated request (recorded at most once a minute)"
  }),
  revokedAt: Schema.NullOr(DateTimeString)
}).annotate({
  identifier: "ApiKey",
  examples: [keyExample]
})

/** `POST /v1/keys` body. */
export const CreateKey = Schema.Struct({
  name: Text.check(Schema.isTrimmed(), Schema.isMinLength(1), Schema.isMaxLength(80)).annotate({
    description: "What the key is for, 1 to 80 characters",
    examples: ["CRM sync"]
  }),
  role: Schema.optionalKey(keyRole.annotate({
    description:
      "The key's role; by default the role of whoever makes it. Never stronger than that: an admin cannot make an owner key (403 `notAllowed`).",
    examples: ["member"]
  }))
}).annotate({ identifier: "CreateKey" })

export class KeysApi extends HttpApiGroup.make("keys")
  .add(
    HttpApiEndpoint.get("list", "/v1/keys", {
      success: Ok({ keys: Schema.Array(ApiKey) })
    }).annotateMerge(allowedTo("manageKeys")).annotateMerge(OpenApi.annotations({
      summary: "List API keys",
      description: "Every key of the workspace, newest first, revoked ones included. Values are never shown."
    })),
    HttpApiEndpoint.post("create", "/v1/keys", {
      payload: CreateKey,
      success: Ok({
        key: ApiKey,
        value: Schema.String.annotate({
          description: "The key value. Shown this once: only a hash is kept.",
          examples: ["svc_Q2xhdWRlIGlzIG5vdCBhIHJlYWwga2V5IGV4YW1wbGU0"]
        })
      }).pipe(HttpApiSchema.status(201)).annotate({
        examples: [{ ok: true, key: keyExample, value: "svc_Q2xhdWRlIGlzIG5vdCBhIHJlYWwga2V5IGV4YW1wbGU0" }]
      }),
      error: NotAllowed
    }).annotateMerge(allowedTo("manageKeys")).annotateMerge(OpenApi.annotations({
      summary: "Create an API key",
      description:
        "Creates a key with the role given (by default the caller's own; never a stronger one: 403 `notAllowed`). An assistant's key can be a `member`'s, or `read_only`. The response carries the value once; store it now."
    })),
    HttpApiEndpoint.post("revoke", "/v1/keys/:id/revoke", {
      params: { id: Uuid },
      success: Ok({ key: ApiKey }),
      error: NotFound
    }).annotateMerge(allowedTo("manageKeys")).annotateMerge(OpenApi.annotations({
      summary: "Revoke an API key",
      description:
        "Takes effect at once, on every server: the very next request with the key answers 401. Revoking a revoked key changes nothing."
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "API keys" }))
{}
