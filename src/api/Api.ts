/**
 * The whole HTTP contract. It never imports server code, so an integrator can
 * derive a typed client from it and an embedder can serve it.
 */
import { HttpApi, OpenApi } from "effect/http-api"
import { AccountsApi } from "./AccountsApi.ts"
import { ActivityApi } from "./ActivityApi.ts"
import { ApprovalsApi } from "./ApprovalsApi.ts"
import { AutomationsApi } from "./AutomationsApi.ts"
import { IdentityApi } from "./IdentityApi.ts"
import { ForecastApi } from "./ForecastApi.ts"
import { InboxApi } from "./InboxApi.ts"
import { documentBearerScheme, documentBodyErrors, documentBodyExamples, documentRateLimitHeaders, documentRoles, documentWebhooks } from "./OpenApiExtras.ts"
import { JobsApi } from "./JobsApi.ts"
import { KeysApi } from "./KeysApi.ts"
import { PeopleApi } from "./PeopleApi.ts"
import { SandboxClockApi } from "./SandboxClockApi.ts"
import { SandboxApi } from "./SandboxApi.ts"
import { RequestErrors } from "./Security.ts"
import { SystemApi } from "./SystemApi.ts"
import { WebhooksApi } from "./WebhooksApi.ts"
import { WorkflowsApi } from "./WorkflowsApi.ts"

/**
 * The MCP endpoint, for the document's readers (it is JSON-RPC, not a REST operation). The
 * tools are named here in words; `test/mcp/Document.test.ts` fails when a tool is missing.
 */
const mcpDescription = [
  "## AI assistants: MCP at `POST /mcp`",
  "",
  "An MCP server (streamable HTTP; protocol 2025-06-18, 2025-11-25 and 2026-07-28) on the same server. It takes the same",
  "`Authorization: Bearer svc_...` API key, checked on every request, so a revoked key fails the assistant's very next call;",
  "and every request counts against the key's 600 a minute. Desktop assistants use `npm run mcp` (stdio, bridged to this server).",
  "",
  "Tools, derived from this document's schemas, with closed arguments (an unknown one is an error naming it), ids named",
  "`<thing>Id`, numbers as numbers, a title each and annotations that hold (a write is idempotent only with its `idempotencyKey`):",
  "- one per command, named as the command (`get_profile` ... `create_post`), taking `{accountId, input, idempotencyKey?}`:",
  "  a read answers with its job, completed with its result when it finishes within 10 seconds; a write answers with its job",
  "  and its `waitingFor`, through the Governor like `POST /v1/accounts/{id}/<command>`;",
  "- jobs: `get_job` (with `wait`), `list_jobs`, `cancel_job`;",
  "- accounts: `list_accounts`, `get_account`, `get_brief`, `get_health_report`, `list_invitations`, `forecast_account`;",
  "- people: `find_people`, `get_person`;",
  "- workflows: `start_workflow`, `list_workflows`, `get_workflow`, `pause_workflow`, `resume_workflow`, `stop_workflow`;",
  "- automations: `start_automation`, `list_automations`, `get_automation`, `pause_automation`, `resume_automation`, `stop_automation`;",
  "- approvals: `list_approvals`.",
  "",
  "Prompts: `review_approvals`, `triage_replies`, `plan_campaign`. Resources: `outreach://accounts/{accountId}/brief`,",
  "`outreach://accounts/{accountId}/health-report`, and `outreach://openapi.json`: an index of this document's operation groups,",
  "each group's own document at `outreach://openapi/<group>`.",
  "",
  "What an assistant may not do: decide an approval (it may only list them; a person or an API key decides, over REST or in",
  "the dashboard), manage keys, webhooks or seats, or run a write past the Governor. A failed call answers this API's envelope.",
  "Each call also needs the key's role to allow the tool (the same table as the operations' `x-roles`): a `member` key runs",
  "commands and workflows, a `read_only` key only reads; a refused call is the JSON-RPC error -32003 with the envelope as `data`.",
  "",
  "### Sign-in for remote assistants (OAuth 2.1)",
  "",
  "Instead of a key, a person can sign an assistant in, as the MCP authorization specification describes. `POST /mcp` without",
  "credentials answers 401 with `WWW-Authenticate: Bearer resource_metadata=\"<base>/.well-known/oauth-protected-resource/mcp\"`;",
  "`GET /.well-known/oauth-protected-resource` (RFC 9728) and `GET /.well-known/oauth-authorization-server` (RFC 8414) describe",
  "`POST /oauth/register` (dynamic registration, RFC 7591; public clients, `token_endpoint_auth_method: none`), `GET /oauth/authorize`",
  "(authorization code with PKCE, `S256` only; the person signs in on the dashboard with two-factor and consents on a page naming",
  "the assistant and the workspace) and `POST /oauth/token` (`authorization_code`, `refresh_token`). Decisions: the assistant acts",
  "as that person, with their role of the moment and no more; access tokens (`oat_...`) last 15 minutes and work at `/mcp` only",
  "(this REST API answers them 401); refresh tokens rotate on every use, and a code or refresh token used twice revokes the grant;",
  "only hashes are stored; the person revokes a grant at `/dashboard/assistants` and the assistant's next call answers 401. These",
  "endpoints answer RFC 6749's error JSON (`error`, `error_description`), not this API's envelope. API keys work unchanged."
].join("\n")

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
  .add(ForecastApi)
  .add(PeopleApi)
  .add(WorkflowsApi)
  .add(AutomationsApi)
  .add(WebhooksApi)
  .add(ActivityApi)
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
      "Successful bodies start with `ok: true`; every error is `{ok: false, error: {type, message, next}}`.",
      "",
      mcpDescription
    ].join("\n"),
    transform: (spec) =>
      documentBodyExamples(documentBearerScheme(documentWebhooks(documentRateLimitHeaders(documentBodyErrors(documentRoles(spec))))))
  }))
{}
