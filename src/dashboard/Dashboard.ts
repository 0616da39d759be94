/**
 * The people's dashboard at `/dashboard`: every page's routes, the assets and
 * the live counts, and an HTML page for any other path under it.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import type * as Gate from "../http/Gate.ts"
import * as Assets from "./Assets.ts"
import * as ActivityPage from "./ActivityPage.ts"
import * as ApprovalsPage from "./ApprovalsPage.ts"
import * as AssistantsPage from "./AssistantsPage.ts"
import * as AttentionPage from "./AttentionPage.ts"
import * as AutomationsPage from "./AutomationsPage.ts"
import * as InboxPage from "./InboxPage.ts"
import * as JobsPage from "./JobsPage.ts"
import * as KeysPage from "./KeysPage.ts"
import * as PasswordResetPage from "./PasswordResetPage.ts"
import * as PeoplePage from "./PeoplePage.ts"
import * as SeatsPage from "./SeatsPage.ts"
import * as SecurityPage from "./SecurityPage.ts"
import * as TeamPage from "./TeamPage.ts"
import * as WebhooksPage from "./WebhooksPage.ts"
import * as WorkflowsPage from "./WorkflowsPage.ts"
import { base } from "./Layout.ts"
import { liveCounts } from "./Live.ts"
import { currentPerson, guarded, notFoundPage } from "./Requests.ts"
import * as SignInPages from "./SignInPages.ts"

const live = HttpRouter.add(
  "GET",
  `${base}/live`,
  guarded(Effect.gen(function*() {
    const person = yield* currentPerson
    // Not signed in: 204 tells the browser not to reconnect.
    if (person === undefined) return HttpServerResponse.empty({ status: 204 })
    return yield* liveCounts(person)
  }))
)

/** Every route of the dashboard. */
export const routes = [
  ...AttentionPage.attentionRoutes,
  ...ApprovalsPage.approvalRoutes,
  ...SeatsPage.seatRoutes,
  ...InboxPage.inboxRoutes,
  ...JobsPage.jobRoutes,
  ...PeoplePage.peopleRoutes,
  ...TeamPage.teamRoutes,
  ...SecurityPage.securityRoutes,
  ...KeysPage.keyRoutes,
  ...WebhooksPage.webhookRoutes,
  ...ActivityPage.activityRoutes,
  ...SignInPages.signInRoutes,
  ...AssistantsPage.assistantRoutes,
  ...PasswordResetPage.passwordResetRoutes,
  ...WorkflowsPage.workflowRoutes,
  ...AutomationsPage.automationRoutes,
  ...Assets.assetRoutes,
  { method: "GET", path: `${base}/live` }
]

/** The dashboard as the gate is handed it: its routes for the 404/405 table, and its page for a miss under it. */
export const pages: Gate.Pages = { base, routes, notFound: notFoundPage }

export const layer = Layer.mergeAll(
  Assets.layer,
  SignInPages.layer,
  AttentionPage.layer,
  ApprovalsPage.layer,
  SeatsPage.layer,
  InboxPage.layer,
  JobsPage.layer,
  PeoplePage.layer,
  TeamPage.layer,
  SecurityPage.layer,
  KeysPage.layer,
  WebhooksPage.layer,
  AssistantsPage.layer,
  ActivityPage.layer,
  PasswordResetPage.layer,
  WorkflowsPage.layer,
  AutomationsPage.layer,
  live
)
