/**
 * The embedded reply classifier as a pure function: high-precision cues
 * first (auto-replies, concrete meeting times, named referrals), the
 * logistic regression model for everything else.
 */
import * as Cues from "./Cues.ts"
import { fit, type FitOptions, type LogisticModel, score } from "./LogisticRegression.ts"
import { unslang } from "./Slang.ts"
import { suggestReply } from "./SuggestedReplies.ts"
import type { TriageClass, TriageResult } from "../domain/TriageClass.ts"

/**
 * Training settings, chosen on the development part of the evaluation set
 * (`node scripts/triage-report.ts`; the held-out part played no role): 100 to
 * 300 rounds, penalties 0.1 to 0.3 and dropping features seen in fewer than 1
 * to 3 training replies all score within two replies of each other there;
 * features seen once are dropped to keep the shipped model small (about
 * 7,500 features instead of 16,600).
 */
export const fitOptions: FitOptions = { iterations: 300, l2: 0.3, minRows: 2 }

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
  // Cues and suggestions read informal spellings in their usual form ("til", "tmrw", "ooo").
  const usual = unslang(text)
  const cue = decidedByCue(usual)
  if (cue !== undefined) return { class: cue, suggestedReply: suggestReply(cue, usual), confidence: cueConfidence }
  const [best] = score(model, text)
  return { class: best.class, suggestedReply: suggestReply(best.class, usual), confidence: best.probability }
}

/** Fits the model on labelled examples and returns the classifier. */
export const makeClassifier = (
  examples: ReadonlyArray<{ readonly class: TriageClass; readonly text: string }>
): Classify => fromModel(fit(examples, fitOptions))
