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
 * implementation is a different layer for the same service, chosen where the
 * application wires its layers; nothing else changes. `Triage.layerLanguageModel`
 * is one: triage by any `effect/ai` language model, with the embedded classifier
 * as its fallback.
 *
 * @since 1.0.0
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { LanguageModel } from "effect/ai"
import { type Classify, makeClassifier } from "./Classifier.ts"
import { type LabelledReply, repliesIn } from "./Dataset.ts"
import { TriageClass, triageClasses, type TriageResult } from "../domain/TriageClass.ts"

/** What the language model is asked to return. */
const ModelVerdict = Schema.Struct({
  class: TriageClass,
  suggestedReply: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1000)),
  confidence: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
})

const triagePrompt = (text: string): string =>
  [
    "You triage replies to professional outreach on a business social network.",
    `Classify the reply into exactly one of: ${triageClasses.join(", ")}.`,
    "meeting: proposes or accepts a time to talk; interested: wants to hear more; referral: points to someone else;",
    "not_now: maybe later; not_interested: declines; objection: raises a concern (price, timing, fit) without closing the door;",
    "out_of_office: an automatic absence reply; other: anything else.",
    "Suggest a short, polite answer the sender could send back, and give your confidence from 0 to 1.",
    "",
    `Reply: ${JSON.stringify(text)}`
  ].join("\n")

export { TriageClass, triageClasses, TriageResult } from "../domain/TriageClass.ts"

/**
 * The embedded classifier, fitted at the first reply it classifies rather than when its layer is
 * built: the fit was the largest part of the service's start-up (0.4-1.3 s of CPU on this
 * machine), spent before the first request could be answered, by a service that may have no
 * reply to triage for a while.
 */
const fittedOnFirstUse = (examples: ReadonlyArray<LabelledReply>): Classify => {
  let fitted: Classify | undefined
  return (text) => {
    fitted ??= makeClassifier(examples)
    return fitted(text)
  }
}

export class Triage extends Context.Service<Triage, {
  /** Classifies one reply's text; empty or whitespace-only text is `other`. Never fails. */
  readonly classify: (text: string) => Effect.Effect<TriageResult>
}>()("outreach/Triage") {
  /** The embedded classifier fitted on the given labelled replies (tests, embedders with their own data). */
  static readonly layerFromExamples = (examples: ReadonlyArray<LabelledReply>): Layer.Layer<Triage> =>
    Layer.sync(Triage, () => {
      const classify = fittedOnFirstUse(examples)
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

  /**
   * Triage by a language model (`effect/ai`'s `LanguageModel`, whatever provider layer the
   * application supplies): the model returns the class and a suggested answer as a structured
   * object. When it fails, answers something that does not fit, or takes longer than
   * `timeout`, the embedded classifier answers instead, so a reply is never left untriaged.
   */
  static readonly layerLanguageModel = (
    options: { readonly timeout?: Duration.Input } = {}
  ): Layer.Layer<Triage, never, LanguageModel.LanguageModel> =>
    Layer.effect(
      Triage,
      Effect.gen(function*() {
        const model = yield* LanguageModel.LanguageModel
        const embedded = fittedOnFirstUse(yield* repliesIn("training"))
        const timeout = options.timeout ?? Duration.seconds(10)
        return Triage.of({
          classify: Effect.fn("Triage.classify")(function*(text: string) {
            if (text.trim().length === 0) return embedded(text)
            return yield* model.generateObject({
              objectName: "triage",
              schema: ModelVerdict,
              prompt: triagePrompt(text)
            }).pipe(
              Effect.map((response): TriageResult => ({ ...response.value })),
              Effect.timeout(timeout),
              Effect.catchCause((cause) =>
                Effect.logWarning("the language model could not triage a reply; the embedded classifier did", cause).pipe(
                  Effect.as(embedded(text))
                )
              )
            )
          })
        })
      })
    )
}
