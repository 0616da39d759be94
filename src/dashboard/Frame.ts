/**
 * A signed-in page in its frame, with the live counts read now (the SSE
 * stream keeps them current afterwards).
 */
import { Effect } from "effect"
import type { Part } from "./Html.ts"
import { attentionOf, countsHtml } from "./Attention.ts"
import { page, type Section } from "./Layout.ts"
import { may, type Person } from "./Requests.ts"

export const framed = (person: Person, options: {
  readonly title: string
  readonly section: Section
  readonly body: Part
  readonly notice?: string | undefined
  readonly error?: string | undefined
  readonly status?: number
}) =>
  Effect.map(attentionOf(person.workspaceId, { webhooks: may(person, "manageWebhooks") }), (attention) =>
    page({ ...options, viewer: person, live: countsHtml(attention, { webhooks: may(person, "manageWebhooks") }) }))

/** A notice chosen by a code in the query string (never text from the query string itself). */
export const noticeFrom = (url: string, notices: Readonly<Record<string, string>>): string | undefined => {
  const code = new URL(url, "http://localhost").searchParams.get("notice")
  return code === null ? undefined : notices[code]
}
