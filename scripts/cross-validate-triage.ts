/**
 * Cross-validates the embedded reply classifier on its training replies
 * (`data/triage/replies.json`) only, so settings and features can be tuned
 * without looking at the evaluation set (`scripts/triage-report.ts` scores
 * its development part).
 *
 *   node scripts/cross-validate-triage.ts [--folds 10] [--repeats 3] [--iterations n] [--l2 x] [--min-rows n] [--misses]
 *
 * Folds are stratified and deterministic: within each class the examples are
 * ordered (as in the file for the first repeat, by a hash of id and repeat for
 * the others) and the n-th goes to fold n mod k. Prints the accuracy of each
 * repeat, the mean over all folds, and the confusions summed over all folds
 * (with `--misses`, the misclassified texts of the first repeat too).
 */
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { fitOptions, fromModel } from "../src/triage/Classifier.ts"
import { type LabelledReply, trainingReplies } from "../src/triage/Dataset.ts"
import { fit, type FitOptions } from "../src/triage/LogisticRegression.ts"
import { triageClasses } from "../src/domain/TriageClass.ts"

const { values } = parseArgs({
  options: {
    folds: { type: "string", default: "10" },
    repeats: { type: "string", default: "3" },
    iterations: { type: "string", default: String(fitOptions.iterations) },
    l2: { type: "string", default: String(fitOptions.l2) },
    "min-rows": { type: "string", default: String(fitOptions.minRows) },
    misses: { type: "boolean", default: false }
  }
})

const folds = Number(values.folds)
const repeats = Number(values.repeats)
const options: FitOptions = { iterations: Number(values.iterations), l2: Number(values.l2), minRows: Number(values["min-rows"]) }

// FNV-1a: a fixed, well-spread order that differs per repeat.
const hash = (text: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}

const foldsOf = (training: ReadonlyArray<LabelledReply>, repeat: number): ReadonlyMap<LabelledReply, number> => {
  const result = new Map<LabelledReply, number>()
  for (const c of triageClasses) {
    const ofClass = training.filter((r) => r.class === c)
    const ordered = repeat === 0 ? ofClass : [...ofClass].sort((a, b) => hash(`${repeat}:${a.id}`) - hash(`${repeat}:${b.id}`))
    ordered.forEach((r, n) => result.set(r, n % folds))
  }
  return result
}

const training = Effect.runSync(trainingReplies)
const confusions = new Map<string, number>()
const perRepeat: Array<number> = []
const misses: Array<string> = []
for (let repeat = 0; repeat < repeats; repeat++) {
  const fold = foldsOf(training, repeat)
  let correct = 0
  for (let k = 0; k < folds; k++) {
    const classify = fromModel(fit(training.filter((r) => fold.get(r) !== k), options))
    for (const reply of training.filter((r) => fold.get(r) === k)) {
      const actual = classify(reply.text).class
      if (actual === reply.class) correct++
      else {
        const pair = `${reply.class} -> ${actual}`
        confusions.set(pair, (confusions.get(pair) ?? 0) + 1)
        if (repeat === 0) misses.push(`  ${pair}: ${reply.text.replace(/\s+/g, " ")}`)
      }
    }
  }
  perRepeat.push(correct / training.length)
}

const mean = perRepeat.reduce((a, b) => a + b, 0) / perRepeat.length
console.log(`${repeats} x ${folds}-fold on ${training.length} training replies, ${JSON.stringify(options)}`)
console.log(`repeats: ${perRepeat.map((a) => a.toFixed(4)).join(" ")}`)
console.log(`mean accuracy ${mean.toFixed(4)}`)
console.log([...confusions].sort((a, b) => b[1] - a[1]).map(([pair, n]) => `  ${n} ${pair}`).join("\n"))
if (values.misses) console.log(misses.sort().join("\n"))
