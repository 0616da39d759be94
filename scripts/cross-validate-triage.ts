/**
 * Cross-validates the embedded reply classifier on the training part of
 * `data/triage/replies.json` only, so settings and features can be tuned
 * without looking at the held-out part the evaluation test scores.
 *
 *   node scripts/cross-validate-triage.ts [--folds 10] [--iterations 150] [--learningRate 100] [--l2 0.05] [--misses]
 *
 * Folds are stratified and deterministic: the n-th training example of a
 * class goes to fold n mod k. Prints the accuracy of each fold, the mean,
 * and the confusions summed over all folds (with `--misses`, the texts too).
 */
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { fitOptions, fromModel } from "../src/triage/Classifier.ts"
import { type LabelledReply, repliesIn } from "../src/triage/Dataset.ts"
import { fit, type FitOptions } from "../src/triage/LogisticRegression.ts"
import { triageClasses } from "../src/triage/TriageClass.ts"

const { values } = parseArgs({
  options: {
    folds: { type: "string", default: "10" },
    iterations: { type: "string", default: String(fitOptions.iterations) },
    learningRate: { type: "string", default: String(fitOptions.learningRate) },
    l2: { type: "string", default: String(fitOptions.l2) },
    misses: { type: "boolean", default: false }
  }
})

const folds = Number(values.folds)
const options: FitOptions = {
  iterations: Number(values.iterations),
  learningRate: Number(values.learningRate),
  l2: Number(values.l2)
}

const foldOf = (training: ReadonlyArray<LabelledReply>): ReadonlyMap<LabelledReply, number> => {
  const result = new Map<LabelledReply, number>()
  for (const c of triageClasses) training.filter((r) => r.class === c).forEach((r, n) => result.set(r, n % folds))
  return result
}

const training = Effect.runSync(repliesIn("training"))
const fold = foldOf(training)
const confusions = new Map<string, number>()
const accuracies: Array<number> = []
const misses: Array<string> = []
for (let k = 0; k < folds; k++) {
  const classify = fromModel(fit(training.filter((r) => fold.get(r) !== k), options))
  const validation = training.filter((r) => fold.get(r) === k)
  let correct = 0
  for (const reply of validation) {
    const actual = classify(reply.text).class
    if (actual === reply.class) correct++
    else {
      const pair = `${reply.class} -> ${actual}`
      confusions.set(pair, (confusions.get(pair) ?? 0) + 1)
      misses.push(`  ${pair}: ${reply.text.replace(/\s+/g, " ")}`)
    }
  }
  accuracies.push(correct / validation.length)
}

const mean = accuracies.reduce((a, b) => a + b, 0) / accuracies.length
console.log(`${folds}-fold on ${training.length} training replies, ${JSON.stringify(options)}`)
console.log(`folds: ${accuracies.map((a) => a.toFixed(3)).join(" ")}`)
console.log(`mean accuracy ${mean.toFixed(4)}`)
console.log([...confusions].sort((a, b) => b[1] - a[1]).map(([pair, n]) => `  ${n} ${pair}`).join("\n"))
if (values.misses) console.log(misses.sort().join("\n"))
