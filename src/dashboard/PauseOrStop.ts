/**
 * Pausing, resuming and stopping something that runs over days (a workflow,
 * an automation) from its page: the card with the buttons (stopping asks for
 * a confirmation), and the form's handling: `startWorkflows` in the role
 * table, the change through `WorkflowActivity` (so it is in the activity
 * log), the page again with the reason when it cannot change.
 */
import { Effect } from "effect"
import { HttpRouter, type HttpServerResponse } from "effect/http"
import type { Missing, WrongState } from "../domain/Failures.ts"
import { actorOf } from "../domain/Principal.ts"
import * as WorkflowActivity from "../intake/WorkflowActivity.ts"
import { html } from "./Html.ts"
import { csrfInput } from "./Layout.ts"
import { may, notAllowedPage, type Person, seeOther, signedInAction } from "./Requests.ts"
import { confirmed } from "./Confirmation.ts"

/** The card: pause or resume, and stop once `confirm` (what stopping does, in words) is ticked. */
export const pauseOrStop = (person: Person, options: {
  readonly path: string
  readonly paused: boolean
  readonly confirm: string
  readonly stop: string
}) =>
  html`<section class="card" aria-labelledby="controls"><h2 id="controls">Pause or stop</h2>
<div class="seat-actions">${
    options.paused
      ? html`<form method="post" action="${options.path}/resume">${csrfInput(person)}<button type="submit">Resume</button></form>`
      : html`<form method="post" action="${options.path}/pause">${csrfInput(person)}<button type="submit" class="secondary">Pause</button></form>`
  }
<form method="post" action="${options.path}/stop">${csrfInput(person)}
<label class="check"><input type="checkbox" name="confirm" value="yes" required> ${options.confirm}</label>
<button type="submit" class="danger">${options.stop}</button></form></div></section>`

export type Recorded = Effect.Success<typeof WorkflowActivity.make>

/** A pause, resume or stop form's route: the change, then `done`'s page (a redirect), or why not. */
export const changeAction = <V, E, R>(options: {
  readonly run: (recorded: Recorded) => (workspaceId: string, id: string, actor: string) => Effect.Effect<V, Missing | WrongState>
  /** The thing's page again, with an error. */
  readonly page: (person: Person, id: string, error: { readonly error: string; readonly status: number }) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  readonly notFound: HttpServerResponse.HttpServerResponse
  /** What to say when stopping was not confirmed; none: no confirmation asked. */
  readonly unconfirmed?: string
  readonly conflict: (refused: WrongState) => string
  readonly done: (id: string) => string
}) =>
  signedInAction((person, form) =>
    Effect.gen(function*() {
      if (!may(person, "startWorkflows")) return notAllowedPage(person, "startWorkflows")
      const id = (yield* HttpRouter.params)["id"] ?? ""
      if (options.unconfirmed !== undefined && !confirmed(form)) {
        return yield* options.page(person, id, { error: options.unconfirmed, status: 422 })
      }
      const recorded = yield* WorkflowActivity.make
      const outcome = yield* Effect.result(options.run(recorded)(person.workspaceId, id, actorOf(person.principal)))
      if (outcome._tag === "Success") return seeOther(options.done(id))
      return outcome.failure._tag === "Missing"
        ? options.notFound
        : yield* options.page(person, id, { error: options.conflict(outcome.failure), status: 409 })
    })
  )
