/**
 * The evaluation set of reply triage, `data/triage/evaluation.json`: replies
 * the embedded classifier is never fitted on, plain and informal, in English,
 * French, German and Spanish, some with two intents (the class that wins
 * follows `intentPrecedence`, and the reply says why). It is split into a
 * development part, for choosing features and settings, and a held-out part,
 * scored only by the evaluation test and `scripts/triage-report.ts`.
 *
 * Here too: what makes two replies near-duplicates (the test keeps the
 * held-out part clear of them), and the figures reported on a part.
 */
import { Effect, Schema } from "effect"
import evaluation from "../../data/triage/evaluation.json" with { type: "json" }
import { LabelledReply } from "./Dataset.ts"
import { type TriageClass, triageClasses } from "../domain/TriageClass.ts"

/** How a reply is written: `plain` (whole sentences) or `informal` (short, lower case, slang, typos, emoji). */
export const Style = Schema.Literals(["plain", "informal"])
export type Style = typeof Style.Type

/** One reply of the evaluation set, with how it is written, its language and, for two intents, why its class wins. */
export const EvaluationReply = Schema.Struct({
  ...LabelledReply.fields,
  style: Style,
  language: Schema.Literals(["en", "fr", "de", "es"]),
  twoIntents: Schema.optionalKey(Schema.String)
})
export type EvaluationReply = typeof EvaluationReply.Type

/** Which part of the evaluation set a reply belongs to. */
export type EvaluationSplit = "development" | "heldOut"

/**
 * Every second reply of each class (numbers 2, 4, 6, ...) is held out; the
 * others are the development part. The rule depends only on the id, so both
 * parts hold every class, plain and informal alike, and never change when
 * replies are appended.
 */
export const splitOf = (reply: Pick<EvaluationReply, "id">): EvaluationSplit => {
  const position = Number(reply.id.slice(reply.id.lastIndexOf("-") + 1))
  return position % 2 === 0 ? "heldOut" : "development"
}

const decodeEvaluation = Schema.decodeUnknownEffect(Schema.Array(EvaluationReply))

/** The whole evaluation set, decoded; a malformed file is a defect. */
export const evaluationReplies: Effect.Effect<ReadonlyArray<EvaluationReply>> = decodeEvaluation(evaluation).pipe(
  Effect.orDie
)

/** One part of the evaluation set. */
export const evaluationIn = (split: EvaluationSplit): Effect.Effect<ReadonlyArray<EvaluationReply>> =>
  Effect.map(evaluationReplies, (all) => all.filter((reply) => splitOf(reply) === split))

// --- near-duplicates ----------------------------------------------------------

/**
 * A reply reduced to what tells replies apart: lower case, accents,
 * punctuation (but question marks) and spacing dropped, every number `0`;
 * emoji kept, since in a short reply they are most of what it says.
 */
export const normalised = (text: string): string =>
  text.normalize("NFKD").toLowerCase().replace(/\p{M}/gu, "").replace(/\d+/g, "0").replace(/[^\p{L}0?\p{Extended_Pictographic}]+/gu, "")

const trigrams = (text: string): ReadonlySet<string> => {
  const result = new Set<string>()
  for (let i = 0; i + 3 <= text.length; i++) result.add(text.slice(i, i + 3))
  return result
}

/** How alike two replies read at least for near-duplicates: the Jaccard index of their normalised character trigrams. */
export const nearDuplicateSimilarity = 0.7

const similarity = (x: ReadonlySet<string>, y: ReadonlySet<string>): number => {
  if (x.size === 0 || y.size === 0) return 0
  let shared = 0
  for (const t of x) if (y.has(t)) shared++
  return shared / (x.size + y.size - shared)
}

/**
 * The pairs of near-duplicates between two lists of replies: equal once
 * normalised, or sharing at least `nearDuplicateSimilarity` of their
 * normalised character trigrams.
 */
export const nearDuplicates = (
  texts: ReadonlyArray<string>,
  others: ReadonlyArray<string>
): ReadonlyArray<readonly [string, string]> => {
  const prepare = (text: string) => {
    const key = normalised(text)
    return { text, key, grams: trigrams(key) }
  }
  const right = others.map(prepare)
  const pairs: Array<readonly [string, string]> = []
  for (const a of texts.map(prepare)) {
    for (const b of right) {
      if (a.key === b.key || similarity(a.grams, b.grams) >= nearDuplicateSimilarity) pairs.push([a.text, b.text])
    }
  }
  return pairs
}

// --- figures -------------------------------------------------------------------

/** One scored reply: its label and what the classifier said. */
export interface Outcome {
  readonly reply: EvaluationReply
  readonly actual: TriageClass
  readonly confidence: number
}

/** Counts of replies by expected class (rows) and classified class (columns), in `triageClasses` order. */
export type Confusion = ReadonlyArray<ReadonlyArray<number>>

/** The figures of a set of outcomes. */
export interface Figures {
  readonly total: number
  readonly correct: number
  readonly accuracy: number
  /** For each class: replies of it, and how many were classified right. */
  readonly perClass: ReadonlyArray<{ readonly class: TriageClass; readonly support: number; readonly correct: number }>
  readonly confusion: Confusion
}

/** Accuracy, per-class recall and the confusion matrix of some outcomes. */
export const figuresOf = (outcomes: ReadonlyArray<Outcome>): Figures => {
  const confusion = triageClasses.map(() => triageClasses.map(() => 0))
  for (const o of outcomes) confusion[triageClasses.indexOf(o.reply.class)][triageClasses.indexOf(o.actual)]++
  const correct = outcomes.filter((o) => o.reply.class === o.actual).length
  return {
    total: outcomes.length,
    correct,
    accuracy: outcomes.length === 0 ? 0 : correct / outcomes.length,
    perClass: triageClasses.map((c, i) => ({ class: c, support: confusion[i].reduce((a, b) => a + b, 0), correct: confusion[i][i] })),
    confusion
  }
}

const ratio = (correct: number, total: number): string => total === 0 ? "-" : (correct / total).toFixed(2)

/** A Markdown table of per-class accuracy, plain and informal apart. */
export const perClassTable = (plain: Figures, informal: Figures): string =>
  [
    "| class | plain | informal |",
    "| --- | --- | --- |",
    ...triageClasses.map((c, i) =>
      `| ${c} | ${ratio(plain.perClass[i].correct, plain.perClass[i].support)} (${plain.perClass[i].correct}/${plain.perClass[i].support}) | ${
        ratio(informal.perClass[i].correct, informal.perClass[i].support)
      } (${informal.perClass[i].correct}/${informal.perClass[i].support}) |`
    ),
    `| **all** | **${plain.accuracy.toFixed(3)}** (${plain.correct}/${plain.total}) | **${informal.accuracy.toFixed(3)}** (${informal.correct}/${informal.total}) |`
  ].join("\n")

const abbreviations: Readonly<Record<TriageClass, string>> = {
  interested: "int",
  meeting: "mtg",
  referral: "ref",
  not_now: "now",
  not_interested: "no",
  objection: "obj",
  out_of_office: "ooo",
  other: "oth"
}

/** A Markdown confusion matrix: a row per expected class, a column per classified class. */
export const confusionTable = (figures: Figures): string =>
  [
    `| expected \\ classified | ${triageClasses.map((c) => abbreviations[c]).join(" | ")} |`,
    `| --- |${triageClasses.map(() => " ---: |").join("")}`,
    ...triageClasses.map((c, i) =>
      `| ${c} | ${figures.confusion[i].map((n, j) => (n === 0 ? "." : i === j ? `**${n}**` : String(n))).join(" | ")} |`
    )
  ].join("\n")
