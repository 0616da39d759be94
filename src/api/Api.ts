/**
 * The whole HTTP contract. It never imports server code, so an integrator can
 * derive a typed client from it and an embedder can serve it.
 *
 * @since 1.0.0
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { AccountsApi } from "./AccountsApi.ts"
import { ApprovalsApi } from "./ApprovalsApi.ts"
import { AutomationsApi } from "./AutomationsApi.ts"
import { IdentityApi } from "./IdentityApi.ts"
import { InboxApi } from "./InboxApi.ts"
import { documentBodyErrors, documentRateLimitHeaders, documentWebhooks } from "./OpenApiExtras.ts"
import { JobsApi } from "./JobsApi.ts"
import { KeysApi } from "./KeysApi.ts"
import { PeopleApi } from "./PeopleApi.ts"
import { SandboxClockApi } from "./SandboxClockApi.ts"
import { SandboxApi } from "./SandboxApi.ts"
import { RequestErrors } from "./Security.ts"
import { SystemApi } from "./SystemApi.ts"
import { WebhooksApi } from "./WebhooksApi.ts"
import { WorkflowsApi } from "./WorkflowsApi.ts"

export class Api extends HttpApi.make("outreach")
  .add(SystemApi)
  .add(IdentityApi)
  .add(KeysApi)
  .add(AccountsApi)
  .add(SandboxApi)
  .add(SandboxClockApi)
  .add(JobsApi)
  .add(ApprovalsApi)
  .add(InboxApi)
  .add(PeopleApi)
  .add(WorkflowsApi)
  .add(AutomationsApi)
  .add(WebhooksApi)
  .middleware(RequestErrors)
  // Report every problem of a request at once, not only the first.
  .annotate(HttpApi.ParseOptions, { errors: "all" })
  // A body field the operation does not know is refused, never dropped: a misspelled
  // setting must not be a silent no-op. (Query strings and headers stay open.)
  .annotate(HttpApi.PayloadParseOptions, { errors: "all", onExcessProperty: "error" })
  .annotateMerge(OpenApi.annotations({
    title: "Outreach Service API",
    version: "1.0.0",
    servers: [
      { url: "/", description: "The server that serves this document" },
      { url: "http://127.0.0.1:8080", description: "`npm start` on its defaults (HOST 127.0.0.1, PORT 8080)" }
    ],
    description: [
      "A JSON REST API that drives connected accounts (seats) on a professional social network safely.",
      "Every action is a job; a per-account Governor runs writes one at a time inside working hours, budgets,",
      "warm-up and human approval; signed webhooks report what happened.",
      "",
      "Every response carries `ratelimit-limit`, `ratelimit-remaining` and `ratelimit-reset`.",
      "Successful bodies start with `ok: true`; every error is `{ok: false, error: {type, message, next}}`."
    ].join("\n"),
    transform: (spec) => documentWebhooks(documentRateLimitHeaders(documentBodyErrors(spec)))
  }))
{}
