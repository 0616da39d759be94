/**
 * Reading a failure's cause the way an operator would: every error and
 * defect in it, each followed down its own `cause` chain, and the codes the
 * system put on them (`ECONNREFUSED`, PostgreSQL's SQLSTATE).
 */
import { Cause, Predicate } from "effect"

/** Everything the cause holds, errors and defects, each followed by its own `cause` chain. */
export const chainOf = (cause: Cause.Cause<unknown>): ReadonlyArray<unknown> =>
  cause.reasons.flatMap((reason) => {
    const chain: Array<unknown> = []
    let current: unknown = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    for (let depth = 0; current !== undefined && depth < 10; depth++) {
      chain.push(current)
      current = Predicate.hasProperty(current, "cause")
        ? current.cause
        : Predicate.hasProperty(current, "reason")
        ? current.reason
        : undefined
    }
    return chain
  })

/** The `code` an error carries (a system error's, or PostgreSQL's SQLSTATE). */
export const codeOf = (error: unknown): string | undefined =>
  Predicate.hasProperty(error, "code") && typeof error.code === "string" ? error.code : undefined

/** The `_tag` of a tagged error. */
export const tagOf = (error: unknown): string | undefined =>
  Predicate.hasProperty(error, "_tag") && typeof error._tag === "string" ? error._tag : undefined

/** An error's message. */
export const messageOf = (error: unknown): string =>
  error instanceof Error ? error.message : Predicate.hasProperty(error, "message") ? String(error.message) : String(error)

/** Codes that say the database could not be reached or went away, not that a statement was wrong. */
const unreachable = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08003",
  "08006"
])

/** Whether the failure is the database being out of reach (a stop, a restart, a lost connection). */
export const isDatabaseUnreachable = (cause: Cause.Cause<unknown>): boolean =>
  chainOf(cause).some((error) =>
    tagOf(error) === "ConnectionError" || unreachable.has(codeOf(error) ?? "") ||
    /Connection terminated|connection is closed|terminating connection/i.test(messageOf(error))
  )

/**
 * Codes of a statement given up by the session's own timeouts (`Database.sessionSettings`): it
 * waited for a row another session holds (55P03 `lock_not_available`), or ran past the statement
 * timeout (57014 `query_canceled`). Nothing was changed; trying again later is right.
 */
const busy = new Set(["55P03", "57014"])
const busyTags = new Set(["LockTimeoutError", "StatementTimeoutError"])

/** Whether the failure is a statement given up by a lock or statement timeout. */
export const isDatabaseBusy = (cause: Cause.Cause<unknown>): boolean =>
  chainOf(cause).some((error) => busy.has(codeOf(error) ?? "") || busyTags.has(tagOf(error) ?? ""))
