/**
 * The embedded classifier's model as it ships, `data/triage/model.json`:
 * fitted ahead of time by `npm run triage:fit` from the training replies, so
 * the service loads it in milliseconds at start-up instead of fitting it
 * (seconds of CPU). Weights are stored as signed bytes (one scale for all),
 * base64-encoded, a few hundred kilobytes; `trainingDigest` names the
 * training replies it was fitted on, so a stale file is caught by a test.
 */
import { createHash } from "node:crypto"
import { Schema } from "effect"
import type { FitOptions, LogisticModel } from "./LogisticRegression.ts"
import { triageClasses } from "../domain/TriageClass.ts"

/** The file's shape. */
export const ModelFile = Schema.Struct({
  /** The settings it was fitted with. */
  fitOptions: Schema.Struct({ iterations: Schema.Int, l2: Schema.Number, minRows: Schema.Int }),
  /** SHA-256 of the training replies (as `trainingDigestOf` computes it). */
  trainingDigest: Schema.String,
  /** The classes, in the order of each feature's weights. */
  classes: Schema.Array(Schema.String),
  /** What one step of a stored weight is worth. */
  scale: Schema.Number,
  bias: Schema.Array(Schema.Number),
  features: Schema.Array(Schema.String),
  /** `features.length` times `classes.length` signed bytes, base64. */
  weights: Schema.String
})
export type ModelFile = typeof ModelFile.Type

/** Identifies a set of training replies: the SHA-256 of their ids, classes and texts in order. */
export const trainingDigestOf = (
  examples: ReadonlyArray<{ readonly id: string; readonly class: string; readonly text: string }>
): string =>
  createHash("sha256").update(JSON.stringify(examples.map((e) => [e.id, e.class, e.text]))).digest("hex")

/** The model as the file stores it: weights rounded to the nearest of 255 steps. */
export const encode = (model: LogisticModel, fitOptions: FitOptions, trainingDigest: string): ModelFile => {
  let largest = 0
  for (const v of model.weights) largest = Math.max(largest, Math.abs(v))
  const scale = largest === 0 ? 1 : largest / 127
  const count = triageClasses.length
  const features = [...model.index.keys()].sort()
  const bytes = new Int8Array(features.length * count)
  features.forEach((feature, f) => {
    const row = model.index.get(feature) ?? 0
    for (let k = 0; k < count; k++) bytes[f * count + k] = Math.round(model.weights[row * count + k] / scale)
  })
  return {
    fitOptions,
    trainingDigest,
    classes: [...triageClasses],
    scale,
    bias: [...model.bias],
    features,
    weights: Buffer.from(bytes.buffer).toString("base64")
  }
}

/** The model a file holds; a file for other classes than the service's is a defect (it ships with the code). */
export const decode = (file: ModelFile): LogisticModel => {
  if (file.classes.join() !== triageClasses.join()) throw new Error("data/triage/model.json was fitted for other classes")
  const bytes = new Int8Array(Buffer.from(file.weights, "base64"))
  const count = triageClasses.length
  if (bytes.length !== file.features.length * count) throw new Error("data/triage/model.json: weights and features differ in size")
  return {
    index: new Map(file.features.map((feature, f) => [feature, f])),
    weights: Float64Array.from(bytes, (step) => step * file.scale),
    bias: Float64Array.from(file.bias)
  }
}
