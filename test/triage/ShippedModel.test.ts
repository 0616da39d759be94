import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import shipped from "../../data/triage/model.json" with { type: "json" }
import { fitOptions, fromModel } from "../../src/triage/Classifier.ts"
import { trainingReplies } from "../../src/triage/Dataset.ts"
import { evaluationReplies } from "../../src/triage/EvaluationSet.ts"
import { fit } from "../../src/triage/LogisticRegression.ts"
import { decode, encode, ModelFile, trainingDigestOf } from "../../src/triage/ShippedModel.ts"

const file = Schema.decodeUnknownSync(ModelFile)(shipped)
const stale = "data/triage/model.json is stale: run `npm run triage:fit`"

describe("the shipped model (data/triage/model.json)", () => {
  it.effect("was fitted on today's training replies with today's settings", () =>
    Effect.gen(function*() {
      assert.strictEqual(file.trainingDigest, trainingDigestOf(yield* trainingReplies), stale)
      assert.deepStrictEqual(file.fitOptions, fitOptions, stale)
    }))

  it.effect("is what fitting today's features gives: the same features, weights within one stored step, the same classes", () =>
    Effect.gen(function*() {
      const training = yield* trainingReplies
      const fresh = encode(fit(training, fitOptions), fitOptions, trainingDigestOf(training))
      assert.deepStrictEqual(fresh.features, file.features, stale)
      const a = new Int8Array(Buffer.from(fresh.weights, "base64"))
      const b = new Int8Array(Buffer.from(file.weights, "base64"))
      let largestStep = 0
      for (let i = 0; i < a.length; i++) largestStep = Math.max(largestStep, Math.abs(a[i] - b[i]))
      assert.isAtMost(largestStep, 1, stale)
      const loaded = fromModel(decode(file))
      const refitted = fromModel(decode(fresh))
      for (const reply of yield* evaluationReplies) assert.strictEqual(loaded(reply.text).class, refitted(reply.text).class, reply.text)
    }), 60_000)

  it("refuses a file for other classes or with weights that do not match its features", () => {
    assert.throws(() => decode({ ...file, classes: ["yes", "no"] }), /other classes/)
    assert.throws(() => decode({ ...file, features: file.features.slice(1) }), /differ in size/)
  })
})
