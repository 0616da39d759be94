/**
 * The embedded reply classifier as a pure function: high-precision cues
 * first (auto-replies, concrete meeting times, named referrals), the
 * logistic regression model for everything else.
 *
 * @since 1.0.0
 */
import * as Cues from "./Cues.ts"
import { fit, type FitOptions, type LogisticModel, score } from "./LogisticRegression.ts"
import { suggestReply } from "./SuggestedReplies.ts"
import type { TriageClass, TriageResult } from "../domain/TriageClass.ts"

/**
 * Training settings, chosen by `scripts/cross-validate-triage.ts` (3 x 10-fold
 * on the training part only; the held-out part played no role). Penalties from
 * 0.03 to 2 score within a point of each other there; 300 rounds score as well
 * as running to convergence (1,500) and keep start-up short.
 */
export const fitOptions: FitOptions = { iterations: 300, l2: 0.1 }

/** How sure a reply decided by a cue is; cues are precise but not infallible. */
const cueConfidence = 0.95

/** Which cue, if any, decides the class on its own. Order matters: an auto-reply may name a colleague or a time. */
export const decidedByCue = (text: string): TriageClass | undefined => {
  if (Cues.isAutoReply(text)) return "out_of_office"
  if (Cues.isMeetingProposal(text)) return "meeting"
  if (Cues.isReferral(text)) return "referral"
  return undefined
}

/** A fitted classifier. */
export type Classify = (text: string) => TriageResult

/** The classifier for an already fitted model. */
export const fromModel = (model: LogisticModel): Classify => (text) => {
  if (text.trim().length === 0) return { class: "other", suggestedReply: suggestReply("other", ""), confidence: 1 }
  const cue = decidedByCue(text)
  if (cue !== undefined) return { class: cue, suggestedReply: suggestReply(cue, text), confidence: cueConfidence }
  const [best] = score(model, text)
  return { class: best.class, suggestedReply: suggestReply(best.class, text), confidence: best.probability }
}

/** Fits the model on labelled examples and returns the classifier. */
export const makeClassifier = (
  examples: ReadonlyArray<{ readonly class: TriageClass; readonly text: string }>
): Classify => fromModel(fit(examples, fitOptions))
