import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { intentPrecedence, trainingReplies } from "../../src/triage/Dataset.ts"
import {
  confusionTable,
  evaluationIn,
  evaluationReplies,
  figuresOf,
  nearDuplicates,
  normalised,
  type Outcome,
  perClassTable,
  splitOf
} from "../../src/triage/EvaluationSet.ts"
import { Triage, triageClasses } from "../../src/triage/Triage.ts"

/** What the embedded classifier must keep on the held-out part of the evaluation set (issue #35). */
const requiredPlain = 0.95
const requiredInformal = 0.9

describe("the evaluation set", () => {
  it.effect("holds at least 400 replies over the 8 classes, half or more informal, some with two intents, some in French, German and Spanish", () =>
    Effect.gen(function*() {
      const all = yield* evaluationReplies
      assert.isAtLeast(all.length, 400)
      assert.isAtLeast(all.filter((r) => r.style === "informal").length, all.length / 2)
      assert.strictEqual(new Set(all.map((r) => r.id)).size, all.length)
      for (const language of ["fr", "de", "es"] as const) {
        assert.isAtLeast(all.filter((r) => r.language === language).length, 12, language)
      }
      assert.isAtLeast(all.filter((r) => r.twoIntents !== undefined).length, 20)
      for (const c of triageClasses) {
        const ofClass = all.filter((r) => r.class === c)
        assert.isTrue(ofClass.every((r) => r.id.startsWith(`${c}-`)), c)
        for (const split of ["development", "heldOut"] as const) {
          for (const style of ["plain", "informal"] as const) {
            assert.isAtLeast(ofClass.filter((r) => splitOf(r) === split && r.style === style).length, 8, `${c} ${split} ${style}`)
          }
        }
      }
    }))

  it.effect("shares no reply, nor a near-duplicate of one, with the training replies, and its two parts share none either", () =>
    Effect.gen(function*() {
      const training = (yield* trainingReplies).map((r) => r.text)
      const heldOut = (yield* evaluationIn("heldOut")).map((r) => r.text)
      const development = (yield* evaluationIn("development")).map((r) => r.text)
      assert.deepStrictEqual(nearDuplicates(heldOut, training), [])
      assert.deepStrictEqual(nearDuplicates(development, training), [])
      assert.deepStrictEqual(nearDuplicates(heldOut, development), [])
      assert.strictEqual(new Set(heldOut.map(normalised)).size, heldOut.length)
    }))

  it("finds near-duplicates through case, accents, punctuation, numbers and small edits, and keeps emoji apart", () => {
    assert.strictEqual(normalised("Not interested, thanks! 🙂"), "notinterestedthanks🙂")
    assert.lengthOf(nearDuplicates(["👍"], ["👍 "]), 1)
    assert.lengthOf(nearDuplicates(["👍"], ["🙏"]), 0)
    assert.strictEqual(normalised("Café à 10h"), "cafea0h")
    assert.lengthOf(nearDuplicates(["out of office till the 12th"], ["Out of office till the 3rd!"]), 1)
    assert.lengthOf(nearDuplicates(["sounds interesting, can you send more info?"], ["sounds interesting, can u send more info"]), 1)
    assert.lengthOf(nearDuplicates(["not interested"], ["not now, maybe in q3"]), 0)
  })

  it.effect("labels every reply with two intents by the precedence of intents, and says which two", () =>
    Effect.gen(function*() {
      for (const reply of yield* evaluationReplies) {
        if (reply.twoIntents === undefined) continue
        const [pair] = reply.twoIntents.split(":")
        const intents = pair.split(" + ").map((intent) => intent.trim())
        assert.lengthOf(intents, 2, reply.text)
        assert.include(intents, reply.class, reply.text)
        const ranks = intents.map((intent) => intentPrecedence.findIndex((c) => c === intent))
        assert.isTrue(ranks.every((rank) => rank >= 0), reply.twoIntents)
        assert.strictEqual(intentPrecedence[Math.min(...ranks)], reply.class, reply.text)
      }
    }))

  it("splits by id alone, every second reply of a class held out", () => {
    assert.strictEqual(splitOf({ id: "meeting-02" }), "heldOut")
    assert.strictEqual(splitOf({ id: "meeting-03" }), "development")
    assert.strictEqual(splitOf({ id: "not_now-44" }), "heldOut")
  })
})

layer(Triage.layerEmbedded)("held-out evaluation of the embedded classifier", (it) => {
  it.effect(`keeps accuracy >= ${requiredPlain} on plain and >= ${requiredInformal} on informal replies it was never fitted on`, () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const outcomes: Array<Outcome> = []
      for (const reply of yield* evaluationIn("heldOut")) {
        const result = yield* triage.classify(reply.text)
        outcomes.push({ reply, actual: result.class, confidence: result.confidence })
      }
      const plain = figuresOf(outcomes.filter((o) => o.reply.style === "plain"))
      const informal = figuresOf(outcomes.filter((o) => o.reply.style === "informal"))
      const misses = outcomes
        .filter((o) => o.reply.class !== o.actual)
        .map((o) => `  ${o.reply.style} ${o.reply.class} -> ${o.actual}: ${o.reply.text}`)
      console.log(`${perClassTable(plain, informal)}\n\n${confusionTable(informal)}\nmisclassified:\n${misses.join("\n")}`)
      assert.isAtLeast(plain.total, 80)
      assert.isAtLeast(informal.total, 120)
      assert.isAtLeast(plain.accuracy, requiredPlain)
      assert.isAtLeast(informal.accuracy, requiredInformal)
    }))
})
