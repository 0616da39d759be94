import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { allReplies, repliesIn, splitOf } from "../../src/triage/Dataset.ts"
import { Triage, triageClasses } from "../../src/triage/Triage.ts"
import type { TriageClass } from "../../src/domain/TriageClass.ts"

/**
 * The accuracy the embedded classifier must keep on the held-out part. The
 * goal was 0.90; it reaches 0.920 (206 of 224) with settings and cues chosen
 * by cross-validation on the training part alone, so this floor sits just
 * below that and a second lost reply fails.
 */
const requiredAccuracy = 0.915

interface ClassMetrics {
  readonly class: TriageClass
  readonly precision: number
  readonly recall: number
  readonly support: number
}

const metricsOf = (pairs: ReadonlyArray<{ readonly expected: TriageClass; readonly actual: TriageClass }>) => {
  const perClass: Array<ClassMetrics> = triageClasses.map((c) => {
    const truePositives = pairs.filter((p) => p.expected === c && p.actual === c).length
    const predicted = pairs.filter((p) => p.actual === c).length
    const support = pairs.filter((p) => p.expected === c).length
    return {
      class: c,
      precision: predicted === 0 ? 0 : truePositives / predicted,
      recall: support === 0 ? 0 : truePositives / support,
      support
    }
  })
  const accuracy = pairs.filter((p) => p.expected === p.actual).length / pairs.length
  return { perClass, accuracy }
}

const table = (perClass: ReadonlyArray<ClassMetrics>, accuracy: number, total: number): string => {
  const rows = perClass.map((m) =>
    `| ${m.class.padEnd(14)} | ${m.precision.toFixed(2).padStart(9)} | ${m.recall.toFixed(2).padStart(6)} | ${
      String(m.support).padStart(7)
    } |`
  )
  return [
    "| class          | precision | recall | support |",
    "|----------------|-----------|--------|---------|",
    ...rows,
    `| overall accuracy ${accuracy.toFixed(3)} on ${total} held-out replies |`
  ].join("\n")
}

describe("the labelled set", () => {
  it.effect("is large enough, balanced, unique, and split into disjoint parts", () =>
    Effect.gen(function*() {
      const all = yield* allReplies
      const training = yield* repliesIn("training")
      const heldOut = yield* repliesIn("heldOut")
      assert.isAtLeast(all.length, 680)
      assert.isAtLeast(heldOut.length, 224)
      assert.strictEqual(training.length + heldOut.length, all.length)
      assert.strictEqual(new Set(all.map((r) => r.id)).size, all.length)
      assert.strictEqual(new Set(all.map((r) => r.text.trim().toLowerCase())).size, all.length)
      const heldOutTexts = new Set(heldOut.map((r) => r.text))
      assert.isFalse(training.some((r) => heldOutTexts.has(r.text)))
      for (const c of triageClasses) {
        assert.isAtLeast(all.filter((r) => r.class === c).length, 85, c)
        assert.isAtLeast(heldOut.filter((r) => r.class === c).length, 28, c)
        assert.isTrue(all.filter((r) => r.class === c).every((r) => r.id.startsWith(`${c}-`)), c)
      }
    }))

  it("splits by id alone, every third example of a class held out", () => {
    assert.strictEqual(splitOf({ id: "meeting-03", class: "meeting", text: "" }), "heldOut")
    assert.strictEqual(splitOf({ id: "meeting-04", class: "meeting", text: "" }), "training")
    assert.strictEqual(splitOf({ id: "other-45", class: "meeting", text: "" }), "heldOut")
  })
})

layer(Triage.layerEmbedded)("held-out evaluation of the embedded classifier", (it) => {
  it.effect(`reaches overall accuracy >= ${requiredAccuracy} on replies it was not fitted on`, () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const heldOut = yield* repliesIn("heldOut")
      const pairs: Array<{ expected: TriageClass; actual: TriageClass; text: string }> = []
      for (const reply of heldOut) {
        const result = yield* triage.classify(reply.text)
        pairs.push({ expected: reply.class, actual: result.class, text: reply.text })
      }
      const { accuracy, perClass } = metricsOf(pairs)
      const misses = pairs
        .filter((p) => p.expected !== p.actual)
        .map((p) => `  ${p.expected} -> ${p.actual}: ${p.text.replace(/\s+/g, " ").slice(0, 100)}`)
      console.log(`${table(perClass, accuracy, pairs.length)}\nmisclassified:\n${misses.join("\n")}`)
      assert.isAtLeast(accuracy, requiredAccuracy)
    }))
})
