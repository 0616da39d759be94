/**
 * Page cursors: opaque to callers (base64url), and the one refusal of a
 * cursor the service did not give out.
 */
import { Invalid } from "./Failures.ts"

/** A cursor over a table's `seq` (`<kind>:<seq>`), for lists paged newest first. */
export const seqCursor = (kind: string) => {
  const pattern = new RegExp(`^${kind}:(\\d+)$`)
  return {
    encode: (seq: number): string => Buffer.from(`${kind}:${seq}`).toString("base64url"),
    /** The seq, or undefined when the cursor is not one `encode` made. */
    decode: (cursor: string): number | undefined => {
      const match = pattern.exec(Buffer.from(cursor, "base64url").toString("utf8"))
      return match === null ? undefined : Number(match[1])
    }
  }
}

/**
 * A cursor the service did not give out: well-formed text, as the document
 * describes a cursor, but it names no page. `start` says where a list
 * without one starts.
 */
export const foreignCursor = (start: string) =>
  new Invalid({
    message: "query.cursor: the cursor is not one this API gave out.",
    advice: { _tag: "RestartPaging", start }
  })
