/**
 * What cannot be undone is asked twice: behind a disclosure, what it does in words, a box to
 * tick and its button; and the action refuses a form whose box was not ticked (a page that
 * lost its script, a replayed form), saying so in words. Disconnecting a seat, removing a
 * teammate and revoking a key all go through here.
 */
import { type Html, html } from "./Html.ts"
import { csrfInput } from "./Layout.ts"
import type { Form, Person } from "./Requests.ts"

/** The disclosure with its form posting to `action`. */
export const confirmedForm = (person: Person, options: {
  readonly action: string
  /** The disclosure's label ("Remove"). */
  readonly summary: string
  /** What it does, in words. */
  readonly explain: string
  /** The box to tick ("Yes, remove Ada"). */
  readonly tick: string
  /** The button ("Remove this teammate"). */
  readonly button: string
}): Html =>
  html`<details class="confirm"><summary>${options.summary}</summary><form method="post" action="${options.action}">${csrfInput(person)}
<p>${options.explain}</p>
<label class="check"><input type="checkbox" name="confirm" value="yes" required> ${options.tick}</label>
<button type="submit" class="danger">${options.button}</button></form></details>`

/** Whether the form's box was ticked. */
export const confirmed = (form: Form): boolean => form.get("confirm") === "yes"

/** What the page says when it was not. */
export const notConfirmed = (tick: string, why: string): string => `Tick "${tick}" to confirm: ${why}`
