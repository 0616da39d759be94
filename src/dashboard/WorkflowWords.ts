/**
 * Workflows and automations in words, for their dashboard pages: a status
 * ("Waiting: the wait to pass", "Paused"), a step ("Message “Hi…”", "Wait 3
 * days", "If a reply: …"), a duration.
 */
import type { AutomationStatus } from "../domain/Automation.ts"
import { commandInWords, statusInWords } from "../domain/Words.ts"
import { type Condition, type Step, type WorkflowStatus, type WorkflowWaitReason } from "../domain/Workflow.ts"
import { type Html, html } from "./Html.ts"

/** Seconds as people say them: "3 days", "2 hours", "90 seconds". */
export const durationInWords = (seconds: number): string => {
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`
  if (seconds % 86_400 === 0) return unit(seconds / 86_400, "day")
  if (seconds % 3_600 === 0) return unit(seconds / 3_600, "hour")
  if (seconds % 60 === 0) return unit(seconds / 60, "minute")
  return unit(seconds, "second")
}

const conditionInWords = (condition: Condition): string => {
  switch (condition.type) {
    case "accepted":
      return "the invitation is accepted"
    case "replied":
      return condition.classes === undefined ? "the person replies" : `the person replies (${condition.classes.join(", ").replaceAll("_", " ")})`
    case "elapsed":
      return `${durationInWords(condition.seconds)} have passed since the start`
  }
}

const shortText = (input: unknown): string | undefined => {
  if (typeof input !== "object" || input === null) return undefined
  const text = "text" in input ? input.text : "note" in input ? input.note : undefined
  if (typeof text !== "string") return undefined
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}

const branches = (then: ReadonlyArray<Step> | undefined, otherwise: ReadonlyArray<Step> | undefined): Html =>
  html`${then === undefined || then.length === 0 ? "" : html`, then: <ol>${then.map(stepInWords)}</ol>`}${
    otherwise === undefined || otherwise.length === 0 ? "" : html`otherwise: <ol>${otherwise.map(stepInWords)}</ol>`
  }`

/** One step and those inside it, as a list item. */
export const stepInWords = (step: Step): Html => {
  switch (step.type) {
    case "command": {
      const text = shortText(step.input)
      return html`<li>${commandInWords(step.command)}${text === undefined ? "" : html` “${text}”`}</li>`
    }
    case "wait":
      return html`<li>Wait ${durationInWords(step.seconds)}</li>`
    case "waitFor":
      return html`<li>Wait up to ${durationInWords(step.timeoutSeconds)} until ${conditionInWords(step.condition)}${branches(step.then, step.else)}</li>`
    case "if":
      return html`<li>If ${conditionInWords(step.condition)}${branches(step.then, step.else)}</li>`
  }
}

const waitWords: Readonly<Record<WorkflowWaitReason, string>> = {
  job: "its step's job to finish",
  delay: "a wait to pass",
  condition: "a reply or an acceptance",
  resume: "a person to resume it"
}

const statusWords: Readonly<Record<WorkflowStatus, string>> = {
  running: "Running",
  waiting: "Waiting",
  completed: "Done",
  stopped: "Stopped: the person replied",
  failed: "Failed",
  cancelled: "Stopped by hand"
}

/**
 * A workflow's status in words, with what it waits for; when it waits for its step's job and that
 * job's status is known (`jobStatus`), what the job waits for: "Waiting for approval".
 */
export const workflowStatusInWords = (row: {
  readonly status: WorkflowStatus
  readonly paused: boolean
  readonly waitingReason: WorkflowWaitReason | null
}, jobStatus?: string): string => {
  if (row.paused && (row.status === "running" || row.status === "waiting")) return "Paused"
  if (row.status === "waiting" && row.waitingReason === "job" && jobStatus !== undefined) return statusInWords(jobStatus)
  if (row.status === "waiting" && row.waitingReason !== null) return `Waiting for ${waitWords[row.waitingReason]}`
  return statusWords[row.status]
}

/** The pill's colour of a workflow's status. */
export const workflowPill = (status: WorkflowStatus, paused: boolean): string =>
  status === "completed" || status === "stopped" ? "ok" : status === "failed" || status === "cancelled" ? "bad" : paused ? "warn" : "ok"

const automationWords: Readonly<Record<AutomationStatus, string>> = {
  active: "Active",
  paused: "Paused",
  stopped: "Stopped by hand",
  finished: "Finished: every person's run has ended"
}

/** An automation's status in words. */
export const automationStatusInWords = (status: AutomationStatus): string => automationWords[status]

/** A line of a workflow's log (the API's words) as people read it: commands and waits in words. */
export const logInWords = (entry: string): string => {
  const started = /^started (\w+)$/.exec(entry)
  if (started?.[1] !== undefined) return `started: ${commandInWords(started[1])}`
  const wait = /^started wait (\d+) s$/.exec(entry)
  if (wait?.[1] !== undefined) return `started: wait ${durationInWords(Number(wait[1]))}`
  const job = /^job \S+ \((\w+)\) created$/.exec(entry)
  if (job?.[1] !== undefined) return `${commandInWords(job[1])}: its job was made`
  if (entry === "took then") return "the condition held: took the first branch"
  if (entry === "took else") return "the condition did not hold: took the other branch"
  return entry
}
