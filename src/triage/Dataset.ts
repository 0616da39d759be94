/**
 * The labelled replies in `data/triage/replies.json` and their fixed split
 * into a training part (what the embedded classifier is fitted on) and a
 * held-out part (only the evaluation test reads it).
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
 * @since 1.0.0
 */
import { Effect, Schema } from "effect"
import replies from "../../data/triage/replies.json" with { type: "json" }
import { TriageClass } from "../domain/TriageClass.ts"

/** One labelled reply; `id` is `<class>-<nn>`, numbered from 1 within its class. */
export const LabelledReply = Schema.Struct({
  id: Schema.String.check(Schema.isPattern(/^[a-z_]+-\d+$/)),
  class: TriageClass,
  text: Schema.String
})
export type LabelledReply = typeof LabelledReply.Type

/** Which part of the data set an example belongs to. */
export type Split = "training" | "heldOut"

/**
 * Every third example of each class (numbers 3, 6, 9, ...) is held out. The
 * rule depends only on the id, so the split is stratified by class and never
 * changes when examples are appended.
 */
export const splitOf = (reply: LabelledReply): Split => {
  const position = Number(reply.id.slice(reply.id.lastIndexOf("-") + 1))
  return position % 3 === 0 ? "heldOut" : "training"
}

const decodeReplies = Schema.decodeUnknownEffect(Schema.Array(LabelledReply))

/** All labelled replies, decoded; a malformed file is a defect (it ships with the code). */
export const allReplies: Effect.Effect<ReadonlyArray<LabelledReply>> = decodeReplies(replies).pipe(Effect.orDie)

/** The examples of one part of the split. */
export const repliesIn = (split: Split): Effect.Effect<ReadonlyArray<LabelledReply>> =>
  Effect.map(allReplies, (all) => all.filter((reply) => splitOf(reply) === split))
