/**
 * What an approval shows of a write: who or what it is aimed at, and the
 * exact text it will send; and how a person's edited text replaces it. One
 * place knows which input field is which.
 */
import { categoryOfJob } from "./Executor.ts"
import type { QueuedWrite } from "./Plan.ts"

import { COMMENT_MAX, MESSAGE_MAX, NOTE_MAX, POST_MAX } from "../domain/CommandInputs.ts"

/** The input field holding the text a write sends, by command (writes without text are absent). */
const textField: Readonly<Record<string, string>> = {
  connect: "note",
  send_message: "text",
  comment: "text",
  create_post: "text"
}

/** The network's length limit on that text, by command. */
const textMax: Readonly<Record<string, number>> = {
  connect: NOTE_MAX,
  send_message: MESSAGE_MAX,
  comment: COMMENT_MAX,
  create_post: POST_MAX
}

/** The longest text a write of `kind` may send; undefined when it sends none. */
export const textLimitOf = (kind: string): number | undefined => textMax[kind]

/** Whether a write of `kind` may go without its text (an invitation without a note). */
export const textOptional = (kind: string): boolean => kind === "connect"

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
  const field = textField[kind]
  if (field === undefined) return null
  const value = fieldsOf(input)[field]
  return typeof value === "string" ? value : null
}

/** Whether a write of `kind` sends text a person can edit. */
export const hasText = (kind: string): boolean => textField[kind] !== undefined

/** The input with its text replaced (validate the result with the command's schema); undefined when it has no text. */
export const withText = (kind: string, input: unknown, text: string): Record<string, unknown> | undefined => {
  const field = textField[kind]
  return field === undefined ? undefined : { ...fieldsOf(input), [field]: text }
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
