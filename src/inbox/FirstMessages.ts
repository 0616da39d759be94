/**
 * New connections ready for a first message: the account's accepted
 * invitations whose person has neither been written to (a `send_message` job
 * of the account, `JobStore`) nor written (a message from them,
 * `people/Messages.ts`) yet, the latest accepted first.
 *
 * Each table is asked by its owner: a page of accepted invitations, then the
 * jobs and the messages about that page's people in one query each, page
 * after page until `limit` are found or the invitations run out.
 */
import { Effect } from "effect"
import type { JobStore } from "../jobs/JobStore.ts"
import type { AcceptedRow, Invitations } from "../accounts/Invitations.ts"
import type { Messages } from "../people/Messages.ts"

/** How many accepted invitations are read at a time. */
const PAGE = 500

/** Up to `limit` new connections of the account ready for a first message, the latest accepted first. */
export const readyForFirstMessage = (
  owners: {
    readonly invitations: Pick<Invitations["Service"], "acceptedOf">
    readonly jobs: Pick<JobStore["Service"], "messagedAmong">
    readonly messages: Pick<Messages["Service"], "whoHaveWritten">
  },
  accountId: string,
  limit: number
) =>
  Effect.gen(function*() {
    const ready: Array<AcceptedRow> = []
    let before: AcceptedRow | undefined
    while (ready.length < limit) {
      const page = yield* owners.invitations.acceptedOf(accountId, PAGE, before)
      const people = [...new Set(page.map((row) => row.providerId))]
      const messaged = yield* owners.jobs.messagedAmong(accountId, people)
      const wrote = yield* owners.messages.whoHaveWritten(accountId, people)
      ready.push(...page.filter((row) => !messaged.has(row.providerId) && !wrote.has(row.providerId)))
      if (page.length < PAGE) break
      before = page[page.length - 1]
    }
    return ready.slice(0, limit)
  })
