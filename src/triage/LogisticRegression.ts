/**
 * A multinomial logistic regression (softmax) text model over the same
 * presence features as the naive Bayes model, fitted by full-batch gradient
 * descent from zero weights with L2 regularisation. No randomness: the same
 * examples always give the same weights.
 *
 * @since 1.0.0
 */
import { features } from "./Features.ts"
import { type TriageClass, triageClasses } from "./TriageClass.ts"

/** Training settings; the defaults were chosen by cross-validation on the training part. */
export interface FitOptions {
  readonly iterations: number
  readonly learningRate: number
  readonly l2: number
}

/** A fitted model: one weight per class for each feature seen in training, plus a bias per class. */
export interface LogisticModel {
  readonly weights: ReadonlyMap<string, Float64Array>
  readonly bias: Float64Array
}

/** One class's score: its probability given the text. */
export interface Scored {
  readonly class: TriageClass
  readonly probability: number
}

const classCount = triageClasses.length

const softmaxInPlace = (logits: Float64Array): Float64Array => {
  let max = -Infinity
  for (const v of logits) max = Math.max(max, v)
  let total = 0
  for (let k = 0; k < logits.length; k++) {
    logits[k] = Math.exp(logits[k] - max)
    total += logits[k]
  }
  for (let k = 0; k < logits.length; k++) logits[k] /= total
  return logits
}

const probabilities = (
  weights: ReadonlyMap<string, Float64Array>,
  bias: Float64Array,
  featureList: ReadonlyArray<string>
): Float64Array => {
  const logits = Float64Array.from(bias)
  for (const feature of featureList) {
    const w = weights.get(feature)
    if (w === undefined) continue
    for (let k = 0; k < classCount; k++) logits[k] += w[k]
  }
  return softmaxInPlace(logits)
}

/** Fits the model on labelled examples. */
export const fit = (
  examples: ReadonlyArray<{ readonly class: TriageClass; readonly text: string }>,
  options: FitOptions
): LogisticModel => {
  const rows = examples.map((example) => ({
    features: [...features(example.text)],
    target: triageClasses.indexOf(example.class)
  }))
  const weights = new Map<string, Float64Array>()
  for (const row of rows) {
    for (const feature of row.features) if (!weights.has(feature)) weights.set(feature, new Float64Array(classCount))
  }
  const bias = new Float64Array(classCount)
  const step = options.learningRate / Math.max(1, rows.length)
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const gradient = new Map<string, Float64Array>()
    const biasGradient = new Float64Array(classCount)
    for (const row of rows) {
      const p = probabilities(weights, bias, row.features)
      p[row.target] -= 1
      for (let k = 0; k < classCount; k++) biasGradient[k] += p[k]
      for (const feature of row.features) {
        let g = gradient.get(feature)
        if (g === undefined) {
          g = new Float64Array(classCount)
          gradient.set(feature, g)
        }
        for (let k = 0; k < classCount; k++) g[k] += p[k]
      }
    }
    for (const [feature, w] of weights) {
      const g = gradient.get(feature)
      for (let k = 0; k < classCount; k++) w[k] -= step * ((g?.[k] ?? 0) + options.l2 * w[k])
    }
    for (let k = 0; k < classCount; k++) bias[k] -= step * biasGradient[k]
  }
  return { weights, bias }
}

/** Probabilities of every class, best first (ties keep the order of `triageClasses`). */
export const score = (model: LogisticModel, text: string): ReadonlyArray<Scored> => {
  const p = probabilities(model.weights, model.bias, [...features(text)])
  return triageClasses
    .map((c, i) => ({ class: c, probability: p[i] }))
    .sort((a, b) => b.probability - a.probability)
}
