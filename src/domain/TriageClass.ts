/**
 * What reply triage says about one incoming reply: its class (the eight the
 * contract lists for the Daily brief and the `message.received` event), a
 * suggested answer, and how sure the classifier is.
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
 * Below this confidence a verdict is unsure: the class is less likely than not
 * (the model gives it under even odds). Chosen on the development part of the
 * evaluation set, where it marks both replies the embedded classifier got
 * wrong and 3 of the 220 it got right (on the held-out part: 2 of 9 misses).
 */
export const confidentFrom = 0.5

/**
 * Whether a reply's class is too unsure to act on without a person: its
 * confidence is below `confidentFrom`. A reply recorded before confidence
 * was (null) counts as sure, as it did then.
 */
export const isUnsure = (confidence: number | null): boolean => confidence !== null && confidence < confidentFrom

/** How sure triage is of a reply's class. */
export const Confidence = Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 })).annotate({
  description: `How sure triage is of the class, 0 to 1 (near 1 when a precise cue decided, otherwise the model's probability); below ${confidentFrom} the reply is unsure`
})

/** Whether a reply's class is unsure (`isUnsure`), as the API and events say it. */
export const Unsure = Schema.Boolean.annotate({
  description: `confidence below ${confidentFrom}: a person should read this reply; a workflow step that depends on the reply's class stops rather than carrying on`
})

/**
 * The verdict on one reply. `confidence` is in [0, 1]: near 1 when a
 * high-precision cue decided, otherwise the model's posterior for the class.
 */
export const TriageResult = Schema.Struct({
  class: TriageClass,
  suggestedReply: Schema.String,
  confidence: Confidence
})
export type TriageResult = typeof TriageResult.Type
