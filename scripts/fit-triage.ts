/**
 * `npm run triage:fit`: fits the embedded reply classifier on the training
 * replies (`data/triage/replies.json`) with `fitOptions` and writes the model
 * the service loads at start-up, `data/triage/model.json`. Run it after
 * changing the training replies, the features or the settings;
 * `test/triage/ShippedModel.test.ts` fails while the file is stale.
 */
import { writeFileSync } from "node:fs"
import { Effect } from "effect"
import { fitOptions } from "../src/triage/Classifier.ts"
import { trainingReplies } from "../src/triage/Dataset.ts"
import { fit } from "../src/triage/LogisticRegression.ts"
import { encode, trainingDigestOf } from "../src/triage/ShippedModel.ts"

const training = Effect.runSync(trainingReplies)
const started = performance.now()
const model = fit(training, fitOptions)
const file = encode(model, fitOptions, trainingDigestOf(training))
const text = `${JSON.stringify(file)}\n`
writeFileSync(new URL("../data/triage/model.json", import.meta.url), text)
console.log(
  `data/triage/model.json: ${file.features.length} features from ${training.length} replies, ${
    (text.length / 1024).toFixed(0)
  } KiB, fitted in ${((performance.now() - started) / 1000).toFixed(1)} s`
)
