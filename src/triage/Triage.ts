/**
 * Reply triage: every reply a connected account receives gets one of eight
 * classes (`interested`, `meeting`, `referral`, `not_now`, `not_interested`,
 * `objection`, `out_of_office`, `other`) and a short suggested answer, as
 * the Daily brief and the `message.received` event carry them.
 *
 * Callers see only the `Triage` service. `Triage.layerEmbedded` is the
 * offline implementation: a softmax logistic regression over word, bigram,
 * character n-gram, negation and concept features, fitted ahead of time on
 * `data/triage/replies.json` and shipped as `data/triage/model.json`, behind
 * a few high-precision cues (auto-replies, concrete meeting times, named
 * referrals). It loads in milliseconds, is deterministic and classifies a
 * reply in well under a millisecond. Another
 * implementation is a different layer for the same service, chosen where the
 * application wires its layers; nothing else changes. `Triage.layerLanguageModel`
 * is one: triage by any `effect/ai` language model, with the embedded classifier
 * as its fallback.
 */
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { LanguageModel } from "effect/ai"
import shippedModel from "../../data/triage/model.json" with { type: "json" }
import { type Classify, fromModel, makeClassifier } from "./Classifier.ts"
import type { LabelledReply } from "./Dataset.ts"
import { decode, ModelFile } from "./ShippedModel.ts"
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

const decodeModelFile = Schema.decodeUnknownEffect(ModelFile)

/** The embedded classifier with the model shipped in `data/triage/model.json` (`npm run triage:fit` writes it). */
export const shippedClassifier: Effect.Effect<Classify> = decodeModelFile(shippedModel).pipe(
  Effect.map((file) => fromModel(decode(file))),
  Effect.orDie
)

/** A service over a classifier of the embedded kind. */
const embeddedService = (classify: Classify) =>
  Triage.of({
    classify: Effect.fn("Triage.classify")(function*(text: string) {
      return classify(text)
    })
  })

export class Triage extends Context.Service<Triage, {
  /** Classifies one reply's text; empty or whitespace-only text is `other`. Never fails. */
  readonly classify: (text: string) => Effect.Effect<TriageResult>
}>()("outreach/Triage") {
  /** The embedded classifier fitted on the given labelled replies (tests, embedders with their own data); fits when built. */
  static readonly layerFromExamples = (examples: ReadonlyArray<LabelledReply>): Layer.Layer<Triage> =>
    Layer.sync(Triage, () => embeddedService(makeClassifier(examples)))

  /** The embedded classifier with the shipped model, fitted on the training replies; works offline, loads in milliseconds. */
  static readonly layerEmbedded: Layer.Layer<Triage> = Layer.effect(Triage, Effect.map(shippedClassifier, embeddedService))

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
        const embedded = yield* shippedClassifier
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
