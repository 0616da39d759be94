/**
 * The string formats records are written in: an instant as ISO 8601, an id
 * as a UUID. The contract shows them with these annotations.
 */
import { Schema } from "effect"

/** An ISO 8601 date-time string. */
export const DateTimeString = Schema.String.annotate({
  format: "date-time",
  description: "ISO 8601 date-time (UTC)",
  examples: ["2026-11-21T09:30:00.000Z"]
})

/** A UUID string. */
export const Uuid = Schema.String.check(Schema.isUUID()).annotate({
  format: "uuid",
  examples: ["7f0c2f6e-5a7b-4d1c-9a44-1d2b3c4d5e6f"]
})
