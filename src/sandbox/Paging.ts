/**
 * Cursors and page sizes of the sandbox's lists. A cursor is an opaque
 * base64url token holding the offset of the next item.
 */
import { Result, Schema } from "effect"

/** A page request the sandbox cannot serve: an unknown cursor or a page size out of range. */
export class InvalidPageRequest extends Schema.TaggedError<InvalidPageRequest>()("InvalidPageRequest", {
  reason: Schema.Literals(["badCursor", "badLimit"]),
  message: Schema.String
}) {}

/** How much of a list to return. */
export interface PageRequest {
  /** The cursor of a previous page; absent for the first page. */
  readonly cursor?: string | null | undefined
  /** Items per page, 1 to 100; default 10. */
  readonly limit?: number | undefined
}

/** The page size when none is asked for: the network's own page of ten. */
export const DEFAULT_LIMIT = 10
/** The largest page the sandbox serves. */
export const MAX_LIMIT = 100

/** The cursor of the item at `offset`. */
export const encodeCursor = (offset: number): string => Buffer.from(`offset:${offset}`, "utf8").toString("base64url")

/** The offset and size of the page asked for. */
export const pageWindow = (
  request: PageRequest
): Result.Result<{ readonly offset: number; readonly limit: number }, InvalidPageRequest> => {
  const limit = request.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return Result.fail(
      new InvalidPageRequest({ reason: "badLimit", message: `limit must be an integer from 1 to ${MAX_LIMIT}.` })
    )
  }
  if (request.cursor === undefined || request.cursor === null) return Result.succeed({ offset: 0, limit })
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(request.cursor, "base64url").toString("utf8"))
  return match === null
    ? Result.fail(
      new InvalidPageRequest({
        reason: "badCursor",
        message: "The cursor is not one this list returned; start again without a cursor."
      })
    )
    : Result.succeed({ offset: Number(match[1]), limit })
}

/**
 * One page of a list of `available` items (of which the network reports
 * `total`), with the cursor of the next page or null on the last.
 */
export const pageOf = <A>(
  window: { readonly offset: number; readonly limit: number },
  available: number,
  total: number,
  itemAt: (index: number) => A
): { readonly items: ReadonlyArray<A>; readonly total: number; readonly cursor: string | null } => {
  const end = Math.min(available, window.offset + window.limit)
  const items: Array<A> = []
  for (let i = window.offset; i < end; i++) items.push(itemAt(i))
  return { items, total, cursor: end < available ? encodeCursor(end) : null }
}
