/**
 * A multinomial logistic regression (softmax) text model over presence
 * features (`Features.ts`), fitted from zero weights towards the optimum of
 * the L2-penalised likelihood. No randomness: the same examples always give
 * the same weights.
 */
import { features } from "./Features.ts"
import { type TriageClass, triageClasses } from "../domain/TriageClass.ts"

/** Training settings; the defaults were chosen by cross-validation on the training part. */
export interface FitOptions {
  /** Rounds of the accelerated update (see `fit`). */
  readonly iterations: number
  /** Strength of the L2 penalty on the weights and biases. */
  readonly l2: number
  /** How many training replies a feature must occur in to be weighed (rarer ones are dropped, keeping the model small). */
  readonly minRows: number
}

/**
 * A fitted model: one weight per class for each feature seen in training, plus
 * a bias per class. The weights are one array, a row of `triageClasses.length`
 * per feature at the row `index` gives it (few objects: a model is held for the
 * life of the service).
 */
export interface LogisticModel {
  readonly index: ReadonlyMap<string, number>
  readonly weights: Float64Array
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

const probabilities = (model: LogisticModel, featureList: Iterable<string>): Float64Array => {
  const logits = Float64Array.from(model.bias)
  for (const feature of featureList) {
    const row = model.index.get(feature)
    if (row === undefined) continue
    for (let k = 0; k < classCount; k++) logits[k] += model.weights[row * classCount + k]
  }
  return softmaxInPlace(logits)
}

/**
 * Fits the model: minimises the summed cross-entropy plus `l2 / 2` times the
 * squared weights and biases (a penalised bias keeps the catch-all `other`
 * from drifting into the default answer; cross-validation agreed). Each
 * weight steps by the inverse of a bound on its curvature (Böhning's bound
 * on the softmax, spread over the rows that carry the feature), so there is
 * no learning rate to tune, and Nesterov momentum makes a few hundred rounds
 * come close to the penalised optimum.
 */
export const fit = (
  examples: ReadonlyArray<{ readonly class: TriageClass; readonly text: string }>,
  options: FitOptions
): LogisticModel => {
  const index = new Map<string, number>()
  // Rows as runs in one array of feature ids: row r is ids[starts[r]] up to ids[starts[r + 1]].
  const ids: Array<number> = []
  const starts: Array<number> = [0]
  const targets = new Int32Array(examples.length)
  const rows = examples.map((example) => features(example.text))
  const seen = new Map<string, number>()
  for (const row of rows) for (const feature of row) seen.set(feature, (seen.get(feature) ?? 0) + 1)
  examples.forEach((example, r) => {
    for (const feature of rows[r]) {
      if ((seen.get(feature) ?? 0) < options.minRows) continue
      let id = index.get(feature)
      if (id === undefined) {
        id = index.size
        index.set(feature, id)
      }
      ids.push(id)
    }
    starts.push(ids.length)
    targets[r] = triageClasses.indexOf(example.class)
  })
  const rowIds = Int32Array.from(ids)
  // Parameters in one vector: a block of one weight per class for each
  // feature, then the biases as the block of a feature every row has.
  const biasAt = index.size * classCount
  const size = biasAt + classCount
  // A block's curvature is at most half the number of (row, feature) pairs
  // in the rows that carry it (Gershgorin); the penalty adds its own. Each
  // block's step is the inverse of that bound.
  const curvature = new Float64Array(index.size + 1)
  for (let r = 0; r < examples.length; r++) {
    const width = starts[r + 1] - starts[r] + 1
    for (let i = starts[r]; i < starts[r + 1]; i++) curvature[rowIds[i]] += width / 2
    curvature[index.size] += width / 2
  }
  const step = curvature.map((c) => 1 / (c + options.l2))
  const p = new Float64Array(classCount)
  const gradientAt = (theta: Float64Array, gradient: Float64Array): void => {
    gradient.fill(0)
    for (let r = 0; r < examples.length; r++) {
      for (let k = 0; k < classCount; k++) p[k] = theta[biasAt + k]
      for (let i = starts[r]; i < starts[r + 1]; i++) {
        const at = rowIds[i] * classCount
        for (let k = 0; k < classCount; k++) p[k] += theta[at + k]
      }
      softmaxInPlace(p)
      p[targets[r]] -= 1
      for (let k = 0; k < classCount; k++) gradient[biasAt + k] += p[k]
      for (let i = starts[r]; i < starts[r + 1]; i++) {
        const at = rowIds[i] * classCount
        for (let k = 0; k < classCount; k++) gradient[at + k] += p[k]
      }
    }
    for (let at = 0; at < size; at++) gradient[at] += options.l2 * theta[at]
  }
  // Accelerated (Nesterov) steps from an extrapolated point, restarted
  // whenever the step turns against the momentum (O'Donoghue and Candès).
  let theta = new Float64Array(size)
  let previous = new Float64Array(size)
  const point = new Float64Array(size)
  const gradient = new Float64Array(size)
  let momentum = 1
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const nextMomentum = (1 + Math.sqrt(1 + 4 * momentum * momentum)) / 2
    const beta = (momentum - 1) / nextMomentum
    for (let at = 0; at < size; at++) point[at] = theta[at] + beta * (theta[at] - previous[at])
    gradientAt(point, gradient)
    let alignment = 0
    for (let at = 0; at < size; at++) {
      const next = point[at] - step[(at / classCount) | 0] * gradient[at]
      alignment += gradient[at] * (next - theta[at])
      previous[at] = next
    }
    ;[theta, previous] = [previous, theta]
    momentum = alignment > 0 ? 1 : nextMomentum
  }
  return { index, weights: theta.slice(0, biasAt), bias: theta.slice(biasAt) }
}

/** Probabilities of every class, best first (ties keep the order of `triageClasses`). */
export const score = (model: LogisticModel, text: string): ReadonlyArray<Scored> => {
  const p = probabilities(model, features(text))
  return triageClasses
    .map((c, i) => ({ class: c, probability: p[i] }))
    .sort((a, b) => b.probability - a.probability)
}
