/**
 * Page cursors: opaque to callers (base64url), and the one refusal of a
 * cursor the service did not give out.
 */
import { Effect } from "effect"
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

/**
 * Paging newest first over a table's `seq`, with `kind`'s cursors: one page of `listing` read by
 * `newest(beforeSeq, limit)` (at most `limit` rows, newest first, older than `beforeSeq` when it is
 * given), and the cursor of the next page (null on the last). A cursor it did not give out is
 * {@link foreignCursor}, `start` saying where the list starts.
 */
export const seqPaging = (kind: string, start: string) => {
  const cursors = seqCursor(kind)
  return <Row extends { readonly seq: number }>(
    listing: { readonly cursor?: string | undefined; readonly limit: number },
    newest: (beforeSeq: number | undefined, limit: number) => Effect.Effect<ReadonlyArray<Row>>
  ): Effect.Effect<{ readonly rows: ReadonlyArray<Row>; readonly nextCursor: string | null }, Invalid> =>
    Effect.gen(function*() {
      const beforeSeq = listing.cursor === undefined ? undefined : cursors.decode(listing.cursor)
      if (listing.cursor !== undefined && beforeSeq === undefined) return yield* Effect.fail(foreignCursor(start))
      const rows = yield* newest(beforeSeq, listing.limit + 1)
      const page = rows.slice(0, listing.limit)
      const last = page[page.length - 1]
      return { rows: page, nextCursor: rows.length > listing.limit && last !== undefined ? cursors.encode(last.seq) : null }
    })
}
