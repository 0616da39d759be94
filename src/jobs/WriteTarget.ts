/**
 * What an approval shows of a write: who or what it is aimed at, and the
 * exact text it will send; and how a person's edited text replaces it. One
 * place knows which input field is which.
 */
import { categoryOfJob, commandOf } from "../domain/Commands.ts"
import type { QueuedWrite } from "./Plan.ts"

/** The text a write of `kind` sends, as its catalogue entry says; null when it sends none. */
const sentTextOf = (kind: string) => commandOf(kind)?.text ?? null

/** The longest text a write of `kind` may send; undefined when it sends none. */
export const textLimitOf = (kind: string): number | undefined => sentTextOf(kind)?.max

/** Whether a write of `kind` may go without its text (an invitation without a note). */
export const textOptional = (kind: string): boolean => sentTextOf(kind)?.optional === true

/** Input fields naming the target, most specific first. */
const targetFields = ["person", "chatId", "post", "company", "invitationId"] as const

const fieldsOf = (input: unknown): Readonly<Record<string, unknown>> =>
  typeof input === "object" && input !== null ? { ...input } : {}

/** The person, chat, post, company or invitation a write is aimed at; null when it has none (a new post). */
export const targetOf = (input: unknown): string | null => {
  const fields = fieldsOf(input)
  for (const name of targetFields) {
    const value = fields[name]
    if (typeof value === "string" && value.length > 0) return value
  }
  return null
}

/** The exact text a write will send; null when it sends none. */
export const textOf = (kind: string, input: unknown): string | null => {
  const text = sentTextOf(kind)
  if (text === null) return null
  const value = fieldsOf(input)[text.field]
  return typeof value === "string" ? value : null
}

/** Whether a write of `kind` sends text a person can edit. */
export const hasText = (kind: string): boolean => sentTextOf(kind) !== null

/** The input with its text replaced (validate the result with the command's schema); undefined when it has no text. */
export const withText = (kind: string, input: unknown, text: string): Record<string, unknown> | undefined => {
  const sent = sentTextOf(kind)
  return sent === null ? undefined : { ...fieldsOf(input), [sent.field]: text }
}

/**
 * What a write is about, as a key that keeps writes about one target in order (`chooseWrite`): its target,
 * lower-cased, with a profile address reduced to its slug so `https://www.linkedin.com/in/ada` and `ada`
 * are one person. Null when it has none.
 */
export const aboutOf = (input: unknown): string | null => {
  const target = targetOf(input)
  if (target === null) return null
  const key = target.trim().toLowerCase()
  const profile = /\/in\/([^/?#]+)/.exec(key)
  return profile === null ? key : profile[1]
}

/** A queued write as `chooseWrite` sees it: the budget it spends and what it is about. */
export const queuedWriteOf = (job: { readonly kind: string; readonly input: unknown }): QueuedWrite => ({
  category: categoryOfJob(job.kind, job.input),
  about: aboutOf(job.input)
})
