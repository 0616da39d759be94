/**
 * What reply triage says about one incoming reply: its class (the eight the
 * contract lists for the Daily brief and the `message.received` event), a
 * suggested answer, and how sure the classifier is.
 *
 * @since 1.0.0
 */
import { Schema } from "effect"

/** The eight reply classes, in the order the contract lists them. */
export const triageClasses = [
  "interested",
  "meeting",
  "referral",
  "not_now",
  "not_interested",
  "objection",
  "out_of_office",
  "other"
] as const

/** One reply class (`triage.class` in the contract). */
export const TriageClass = Schema.Literals(triageClasses)
export type TriageClass = typeof TriageClass.Type

/**
 * The verdict on one reply. `confidence` is in [0, 1]: near 1 when a
 * high-precision cue decided, otherwise the model's posterior for the class.
 */
export const TriageResult = Schema.Struct({
  class: TriageClass,
  suggestedReply: Schema.String,
  confidence: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
})
export type TriageResult = typeof TriageResult.Type
