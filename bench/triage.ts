/**
 * `npm run bench:triage`: what the embedded reply classifier costs.
 *
 * - start-up: a fresh Node process reads the shipped model
 *   (`data/triage/model.json`), imports the triage module, decodes the model
 *   and classifies one reply; the time from the start to the answer, median
 *   of 5 processes, beside importing effect alone (which any service start pays).
 * - per reply: classifying every reply of the evaluation set (437, plain and
 *   informal) in a warm process, 20 rounds; mean, p50 and p99 of a reply.
 * - for comparison: fitting the model from the training replies instead
 *   (what start-up cost before the model shipped).
 */
import { execFileSync } from "node:child_process"
import { Effect } from "effect"
import { fitOptions, makeClassifier } from "../src/triage/Classifier.ts"
import { trainingReplies } from "../src/triage/Dataset.ts"
import { evaluationReplies } from "../src/triage/EvaluationSet.ts"
import { shippedClassifier } from "../src/triage/Triage.ts"
import { percentile } from "./support.ts"

const processes = 5
const rounds = 20

const startUp = `
const started = performance.now()
await import(${JSON.stringify(new URL("../data/triage/model.json", import.meta.url).href)}, { with: { type: "json" } })
const read = performance.now() - started
const { shippedClassifier } = await import(${JSON.stringify(new URL("../src/triage/Triage.ts", import.meta.url).href)})
const { Effect } = await import("effect")
const imported = performance.now()
const classify = Effect.runSync(shippedClassifier)
classify("sounds good, send me more info")
console.log(JSON.stringify({ total: performance.now() - started, read, load: performance.now() - imported }))
`

// Importing effect is part of any service start; the rows separate it from the model's own load.
const baseline = `
const started = performance.now()
await import("effect")
console.log(JSON.stringify({ total: performance.now() - started }))
`

const runChild = (source: string): { total: number; read?: number; load?: number } =>
  JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", source], { cwd: new URL("..", import.meta.url), encoding: "utf8" }))

const starts = Array.from({ length: processes }, () => runChild(startUp))
const effectOnly = Array.from({ length: processes }, () => runChild(baseline).total)
const median = (values: ReadonlyArray<number>) => percentile(values, 50)

const classify = Effect.runSync(shippedClassifier)
const texts = Effect.runSync(evaluationReplies).map((r) => r.text)
for (const text of texts) classify(text)
const samples: Array<number> = []
for (let round = 0; round < rounds; round++) {
  for (const text of texts) {
    const started = performance.now()
    classify(text)
    samples.push(performance.now() - started)
  }
}
const mean = samples.reduce((a, b) => a + b, 0) / samples.length

const training = Effect.runSync(trainingReplies)
const fitStarted = performance.now()
makeClassifier(training)
const fitMs = performance.now() - fitStarted

const ms = (value: number) => `${value.toFixed(1)} ms`
const us = (value: number) => `${(value * 1000).toFixed(0)} µs`
console.log(`reply triage, embedded classifier (${training.length} training replies, ${JSON.stringify(fitOptions)})`)
console.log(`start-up, import to first answer (median of ${processes} processes): ${ms(median(starts.map((s) => s.total)))}`)
console.log(`  of which importing effect alone:                  ${ms(median(effectOnly))}`)
console.log(`  of which reading data/triage/model.json:          ${ms(median(starts.map((s) => s.read ?? 0)))}`)
console.log(`  of which decoding the model + the first reply:     ${ms(median(starts.map((s) => s.load ?? 0)))}`)
console.log(`per reply (${samples.length} classifications): mean ${us(mean)}, p50 ${us(percentile(samples, 50))}, p99 ${us(percentile(samples, 99))}`)
console.log(`fitting from the training replies instead (not done at start-up): ${ms(fitMs)}`)
