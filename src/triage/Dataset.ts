/**
 * The labelled replies the embedded classifier is fitted on
 * (`data/triage/replies.json`: plain and informal, some in French, German and
 * Spanish), and the rules every labelled reply follows, there and in the
 * evaluation set (`EvaluationSet.ts`).
 *
 * Labelling guide, so new examples stay consistent:
 * - `meeting`: proposes, accepts, moves or asks to schedule a call or meeting
 *   (a time, a calendar link, "send an invite", "let's set up a call").
 * - `interested`: positive or curious, asks for information, pricing,
 *   material or next steps, without yet scheduling anything.
 * - `referral`: points to another person who should be contacted instead.
 * - `not_now`: the answer is about timing; open later ("check back in Q3").
 * - `not_interested`: a closing no, with or without a reason; opt-outs.
 * - `objection`: a specific concern (price, incumbent tool, security,
 *   doubt, terms, commute) that leaves the door open or asks to be answered.
 * - `out_of_office`: automatic replies and "I'm away until ..." notes.
 * - `other`: no stance on the offer (pleasantries, who-are-you, off-topic).
 *
 * A reply with two intents ("not now, but ping Sara in Q3") takes the class
 * that decides what the sender does next, the first of `intentPrecedence`:
 * an absence first (nobody reads it now), then a time to talk, then another
 * person to write to, then timing, then a closed door, then a concern to
 * answer, then interest, and a pleasantry last.
 */
import { Effect, Schema } from "effect"
import replies from "../../data/triage/replies.json" with { type: "json" }
import { TriageClass } from "../domain/TriageClass.ts"

/** Which class wins when a reply carries two intents: the earlier in this list. */
export const intentPrecedence: ReadonlyArray<TriageClass> = [
  "out_of_office",
  "meeting",
  "referral",
  "not_now",
  "not_interested",
  "objection",
  "interested",
  "other"
]

/** One labelled reply; `id` is `<class>-<nn>`, numbered from 1 within its class. */
export const LabelledReply = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[a-z_]+-\d+$/)),
  class: TriageClass,
  text: Schema.String
})
export type LabelledReply = typeof LabelledReply.Type

const decodeReplies = Schema.decodeUnknownEffect(Schema.Array(LabelledReply))

/** The replies the embedded classifier is fitted on, decoded; a malformed file is a defect (it ships with the code). */
export const trainingReplies: Effect.Effect<ReadonlyArray<LabelledReply>> = decodeReplies(replies).pipe(Effect.orDie)
