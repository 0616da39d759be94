/**
 * `GET /v1/me`: who the credential is.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Role } from "../domain/Principal.ts"
import { WorkspaceNetwork } from "../domain/WorkspaceNetwork.ts"
import { DateTimeString, Ok, Uuid } from "./Envelope.ts"
import { allowedTo, Authentication } from "./Security.ts"

/** The workspace, shown to signed-in people. */
export const Org = Schema.Struct({
  id: Uuid,
  name: Schema.String,
  seats: Schema.Struct({ total: Schema.Int }),
  network: WorkspaceNetwork.annotate({ examples: ["sandbox"] }),
  createdAt: DateTimeString
}).annotate({ identifier: "Org" })

/** The signed-in person. */
export const User = Schema.Struct({
  id: Uuid,
  email: Schema.String,
  name: Schema.String,
  role: Role
}).annotate({ identifier: "User" })

/** The body of `GET /v1/me`. */
export const Me = Ok({
  orgId: Uuid.annotate({ description: "The workspace (organisation) the credential belongs to" }),
  kind: Schema.Literals(["key", "session"]),
  keyName: Schema.String.annotate({ description: "The API key's name; empty for a session" }),
  org: Schema.NullOr(Org).annotate({ description: "null with an API key" }),
  user: Schema.NullOr(User).annotate({ description: "null with an API key" })
}).annotate({
  identifier: "Me",
  examples: [{
    ok: true,
    orgId: "3b1f8a52-4c1e-4d8e-9c77-2a5e0d6f9b10",
    kind: "key",
    keyName: "CRM sync",
    org: null,
    user: null
  }]
})

export class IdentityApi extends HttpApiGroup.make("identity")
  .add(
    HttpApiEndpoint.get("me", "/v1/me", { success: Me }).annotateMerge(allowedTo("read")).annotateMerge(OpenApi.annotations({
      summary: "Who am I",
      description: "Reports the workspace and the kind of credential. With an API key `org` and `user` are null."
    }))
  )
  .middleware(Authentication)
  .annotateMerge(OpenApi.annotations({ title: "Identity" }))
{}
