/**
 * Reply triage: every reply a connected account receives gets one of eight
 * classes (`interested`, `meeting`, `referral`, `not_now`, `not_interested`,
 * `objection`, `out_of_office`, `other`) and a short suggested answer, as
 * the Daily brief and the `message.received` event carry them.
 *
 * Callers see only the `Triage` service. `Triage.layerEmbedded` is the
 * offline implementation: a softmax logistic regression over word, bigram
 * and concept features, fitted when the layer is built from the training
 * part of `data/triage/replies.json`, behind a few high-precision cues
 * (auto-replies, concrete meeting times, named referrals). It is
 * deterministic and classifies a reply in microseconds. Another
 * implementation (an LLM, say) is a different layer for the same service,
 * chosen where the application wires its layers; nothing else changes.
 *
 * @since 1.0.0
 */
import { Context, Effect, Layer } from "effect"
import { makeClassifier } from "./Classifier.ts"
import { type LabelledReply, repliesIn } from "./Dataset.ts"
import type { TriageResult } from "./TriageClass.ts"

export { TriageClass, triageClasses, TriageResult } from "./TriageClass.ts"

export class Triage extends Context.Service<Triage, {
  /** Classifies one reply's text; empty or whitespace-only text is `other`. Never fails. */
  readonly classify: (text: string) => Effect.Effect<TriageResult>
}>()("outreach/Triage") {
  /** The embedded classifier fitted on the given labelled replies (tests, embedders with their own data). */
  static readonly layerFromExamples = (examples: ReadonlyArray<LabelledReply>): Layer.Layer<Triage> =>
    Layer.sync(Triage, () => {
      const classify = makeClassifier(examples)
      return Triage.of({
        classify: Effect.fn("Triage.classify")(function*(text: string) {
          return classify(text)
        })
      })
    })

  /** The embedded classifier fitted on the training part of the shipped labelled set; works offline. */
  static readonly layerEmbedded: Layer.Layer<Triage> = Layer.unwrap(
    Effect.map(repliesIn("training"), (examples) => Triage.layerFromExamples(examples))
  )
}
