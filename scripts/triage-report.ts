/**
 * Scores the embedded reply classifier on a part of the evaluation set
 * (`src/triage/EvaluationSet.ts`), plain and informal apart, with the model
 * the service ships (`npm run triage:fit` first, after changing the training
 * replies, the features or the settings).
 *
 *   node scripts/triage-report.ts                 the development part, with every miss
 *   node scripts/triage-report.ts --held-out      the held-out part
 *   node scripts/triage-report.ts --write         the held-out figures into docs/inbox-and-triage.md
 *
 * Features and settings are chosen on the development part; the held-out
 * part only reports (and `test/triage/Evaluation.test.ts` guards it).
 */
import { readFileSync, writeFileSync } from "node:fs"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { confusionTable, evaluationIn, figuresOf, type Outcome, perClassTable } from "../src/triage/EvaluationSet.ts"
import { shippedClassifier } from "../src/triage/Triage.ts"
import { confidentFrom, isUnsure } from "../src/domain/TriageClass.ts"

const { values } = parseArgs({
  options: { "held-out": { type: "boolean", default: false }, write: { type: "boolean", default: false } }
})
const split = values["held-out"] || values.write ? "heldOut" : "development"

const classify = Effect.runSync(shippedClassifier)
const outcomes: Array<Outcome> = Effect.runSync(evaluationIn(split)).map((reply) => {
  const result = classify(reply.text)
  return { reply, actual: result.class, confidence: result.confidence }
})
const plain = figuresOf(outcomes.filter((o) => o.reply.style === "plain"))
const informal = figuresOf(outcomes.filter((o) => o.reply.style === "informal"))
const byLanguage = (["fr", "de", "es"] as const).map((language) => {
  const f = figuresOf(outcomes.filter((o) => o.reply.language === language))
  return `${language} ${f.correct}/${f.total}`
}).join(", ")
const twoIntents = figuresOf(outcomes.filter((o) => o.reply.twoIntents !== undefined))
const misses = outcomes.filter((o) => o.reply.class !== o.actual)
const unsureOf = (list: ReadonlyArray<Outcome>) => list.filter((o) => isUnsure(o.confidence)).length
const unsure = `Marked unsure (confidence below ${confidentFrom}): ${unsureOf(misses)} of the ${misses.length} misses, ${
  unsureOf(outcomes) - unsureOf(misses)
} of the ${outcomes.length - misses.length} right.`

const report = [
  perClassTable(plain, informal),
  "",
  `Not in English: ${byLanguage}. With two intents: ${twoIntents.correct}/${twoIntents.total}. ${unsure}`,
  "",
  "Plain replies, expected class by row, classified class by column (int interested, mtg meeting, ref referral,",
  "now not_now, no not_interested, obj objection, ooo out_of_office, oth other):",
  "",
  confusionTable(plain),
  "",
  "Informal replies:",
  "",
  confusionTable(informal)
].join("\n")

if (values.write) {
  const path = new URL("../docs/inbox-and-triage.md", import.meta.url)
  const begin = "<!-- triage-report:begin -->"
  const end = "<!-- triage-report:end -->"
  const doc = readFileSync(path, "utf8")
  const from = doc.indexOf(begin)
  const to = doc.indexOf(end)
  if (from < 0 || to < from) throw new Error(`docs/inbox-and-triage.md has no ${begin} ... ${end} section`)
  writeFileSync(path, `${doc.slice(0, from + begin.length)}\n${report}\n${doc.slice(to)}`)
  console.log("docs/inbox-and-triage.md: the held-out figures rewritten")
} else {
  console.log(`${split} part of the evaluation set\n\n${report}`)
  if (split === "development") {
    console.log("\nmisses:")
    for (const o of outcomes.filter((o) => o.reply.class !== o.actual)) {
      console.log(`  ${o.reply.style.padEnd(8)} ${o.reply.class} -> ${o.actual} (${o.confidence.toFixed(2)}): ${o.reply.text}`)
    }
  }
}
