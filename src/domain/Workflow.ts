/**
 * What a workflow is made of: a tree of steps about one person, run for one
 * account. A step runs a command (a job through the Governor), waits a
 * while, waits for something to happen (with a time limit and a branch for
 * each outcome), or branches at once on a condition; and where a workflow is
 * (its status, what it waits for). The schemas here are the API's; the rules
 * (how deep, how many steps, what a step's input defaults to) are written
 * once, here.
 */
import { Schema } from "effect"
import { type CommandName, CommandNameSchema, commands } from "./Commands.ts"
import { describedOnly } from "./Rules.ts"
import { TriageClass } from "./TriageClass.ts"

/** The most steps one workflow may hold, counting those inside branches. */
export const MAX_STEPS = 50
/** The deepest a branch may nest. */
export const MAX_DEPTH = 5
/** The longest a workflow may wait in one step (90 days), in seconds. */
export const MAX_WAIT_SECONDS = 90 * 24 * 3600

/**
 * A workflow's status:
 * - `running`: a step is under way (a command's job is being created, a branch is decided);
 * - `waiting`: it waits for a job, a time or a condition (`waitingFor` says which);
 * - `completed`: every step ran; `stopped`: it ended early because the person replied
 *   (automations); `failed`: a step's job failed; `cancelled`: cancelled by a caller.
 */
export const workflowStatuses = ["running", "waiting", "completed", "stopped", "failed", "cancelled"] as const
export const WorkflowStatus = Schema.Literals(workflowStatuses).annotate({
  description: "running, waiting (see waitingFor), completed, stopped (the person replied, or a step that depends on the class of a reply met one triage is unsure of), failed or cancelled"
})
export type WorkflowStatus = typeof WorkflowStatus.Type

/**
 * What a waiting workflow waits for:
 * - `job`: the job of a command step to finish;
 * - `delay`: a wait step's time to pass (or, in an automation, a reply);
 * - `condition`: a waitFor step's condition to hold, or its time limit;
 * - `resume`: a person to resume it (paused).
 */
export const workflowWaitReasons = ["job", "delay", "condition", "resume"] as const
export const WorkflowWaitReason = Schema.Literals(workflowWaitReasons).annotate({
  description: "job (a command step's job to finish), delay (a wait step), condition (a waitFor step) or resume (paused)"
})
export type WorkflowWaitReason = typeof WorkflowWaitReason.Type

/** Statuses that do not change again. */
export const finishedWorkflowStatuses: ReadonlySet<WorkflowStatus> = new Set([
  "completed",
  "stopped",
  "failed",
  "cancelled"
])

const Seconds = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_WAIT_SECONDS })).annotate({
  description: `Seconds, 1 to ${MAX_WAIT_SECONDS} (90 days)`
})

/**
 * Something a workflow can wait for or branch on, about its person:
 * - `accepted`: the account's invitation to the person was accepted (as syncing recorded it);
 * - `replied`: the person replied to the account since the workflow started, in one of
 *   `classes` when given (triage classes);
 * - `elapsed`: at least `seconds` have passed since the workflow started.
 */
export const Condition = Schema.Union([
  Schema.Struct({ type: Schema.Literal("accepted") }),
  Schema.Struct({
    type: Schema.Literal("replied"),
    classes: Schema.optionalKey(Schema.Array(TriageClass).check(Schema.isMinLength(1), Schema.isMaxLength(TriageClass.literals.length)).annotate({
      description: "Only replies triaged into one of these classes with confidence count, and a reply triage is unsure of stops the workflow; omit for any reply"
    }))
  }),
  Schema.Struct({ type: Schema.Literal("elapsed"), seconds: Seconds })
]).annotate({
  identifier: "WorkflowCondition",
  description: "accepted (the invitation was accepted), replied (optionally of given triage classes) or elapsed (time since the start)",
  examples: [{ type: "accepted" }, { type: "replied", classes: ["interested", "meeting"] }]
})
export type Condition = typeof Condition.Type

/** A command step: the command's input; `person` defaults to the workflow's person. */
export interface CommandStep {
  readonly type: "command"
  readonly command: CommandName
  readonly input?: { readonly [key: string]: unknown } | undefined
}
/** A pause of a fixed length. */
export interface WaitStep {
  readonly type: "wait"
  readonly seconds: number
}
/** Waits until the condition holds (then `then`) or `timeoutSeconds` pass (then `else`). */
export interface WaitForStep {
  readonly type: "waitFor"
  readonly condition: Condition
  readonly timeoutSeconds: number
  readonly then?: ReadonlyArray<Step> | undefined
  readonly else?: ReadonlyArray<Step> | undefined
}
/** Branches at once on whether the condition holds now. */
export interface IfStep {
  readonly type: "if"
  readonly condition: Condition
  readonly then?: ReadonlyArray<Step> | undefined
  readonly else?: ReadonlyArray<Step> | undefined
}
export type Step = CommandStep | WaitStep | WaitForStep | IfStep

export const CommandStep = Schema.Struct({
  type: Schema.Literal("command"),
  command: CommandNameSchema,
  input: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "The command's input (as POST /v1/accounts/{id}/{command} takes it); `person` defaults to the workflow's person"
  }))
})
export const WaitStep = Schema.Struct({ type: Schema.Literal("wait"), seconds: Seconds })

/**
 * A step at nesting level `level` (1 for the workflow's own list). Depth is
 * bounded by the schema itself, not checked after decoding: a branch at
 * `MAX_DEPTH` cannot hold `then` or `else`, so a body nested thousands deep is
 * refused at the sixth level instead of being decoded all the way down.
 */
const stepSchemaAt = (level: number): Schema.Codec<Step> => {
  const annotations = {
    identifier: level === 1 ? "WorkflowStep" : `WorkflowStepLevel${level}`,
    description: level === 1
      ? "command (a job through the Governor), wait (a fixed pause), waitFor (a condition or a time limit, with a branch for each) or if (a branch now)"
      : `A step inside a branch, at nesting level ${level} of at most ${MAX_DEPTH}${level === MAX_DEPTH ? " (no branches here)" : ""}`
  }
  const waitFor = { type: Schema.Literal("waitFor"), condition: Condition, timeoutSeconds: Seconds }
  const ifNow = { type: Schema.Literal("if"), condition: Condition }
  if (level === MAX_DEPTH) {
    return Schema.Union([CommandStep, WaitStep, Schema.Struct(waitFor), Schema.Struct(ifNow)]).annotate(annotations)
  }
  const branch = Schema.optionalKey(Schema.Array(stepSchemaAt(level + 1)).check(Schema.isMaxLength(MAX_STEPS)))
  return Schema.Union([
    CommandStep,
    WaitStep,
    Schema.Struct({ ...waitFor, then: branch, else: branch }),
    Schema.Struct({ ...ifNow, then: branch, else: branch })
  ]).annotate(annotations)
}

export const Step: Schema.Codec<Step> = stepSchemaAt(1)

/** A workflow's steps, checked against the limits above. */
export const Steps = Schema.Array(Step).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(MAX_STEPS),
  Schema.makeFilter(
    (steps: ReadonlyArray<Step>) =>
      countSteps(steps) <= MAX_STEPS || `A workflow holds at most ${MAX_STEPS} steps, counting those in branches.`,
    { toJsonSchema: () => describedOnly }
  ),
  // Depth needs no check here: `stepSchemaAt` allows no branch below MAX_DEPTH.
).annotate({
  description: `At most ${MAX_STEPS} steps in all, counting those inside branches, and branches nest at most ${MAX_DEPTH} deep`
})

const branchesOf = (step: Step): ReadonlyArray<ReadonlyArray<Step>> =>
  step.type === "waitFor" || step.type === "if" ? [step.then ?? [], step.else ?? []] : []

/** Every step, counting those inside branches. */
export const countSteps = (steps: ReadonlyArray<Step>): number =>
  steps.reduce((n, step) => n + 1 + branchesOf(step).reduce((m, branch) => m + countSteps(branch), 0), 0)

/** The command steps of a tree, each with its path (`0`, `2.then.1`, ...). */
export const commandSteps = (
  steps: ReadonlyArray<Step>,
  path = ""
): ReadonlyArray<{ readonly path: string; readonly step: CommandStep }> =>
  steps.flatMap((step, i) => {
    const here = `${path}${i}`
    if (step.type === "command") return [{ path: here, step }]
    if (step.type === "waitFor" || step.type === "if") {
      return [
        ...commandSteps(step.then ?? [], `${here}.then.`),
        ...commandSteps(step.else ?? [], `${here}.else.`)
      ]
    }
    return []
  })

// Inputs that already say who or what the command is about.
const addressKeys = ["person", "chatId", "invitationId"] as const

/**
 * A command step's input as the job gets it: `person` is the workflow's person
 * unless the input names its target itself, for commands that take a person.
 */
export const inputOf = (step: CommandStep, person: string): { readonly [key: string]: unknown } => {
  const given = step.input ?? {}
  const takesPerson = "person" in commands[step.command].input.fields
  return takesPerson && addressKeys.every((key) => given[key] === undefined) ? { ...given, person } : given
}

/** A step located by its path (`2.then.0`), as the API shows where a workflow is. */
export interface StepAt {
  readonly path: string
  readonly index: number
  readonly depth: number
  readonly type: Step["type"]
  readonly command: string | null
}

/** The step at `path` in `steps`, or undefined when the path leads nowhere. */
export const stepAt = (steps: ReadonlyArray<Step>, path: string): StepAt | undefined => {
  const parts = path.split(".")
  let list = steps
  let found: Step | undefined
  let index = -1
  for (let i = 0; i < parts.length; i += 2) {
    index = Number(parts[i])
    found = list[index]
    if (found === undefined) return undefined
    const branch = parts[i + 1]
    if (branch === undefined) break
    if (branch !== "then" && branch !== "else") return undefined
    list = (found.type === "waitFor" || found.type === "if" ? found[branch] : undefined) ?? []
  }
  if (found === undefined) return undefined
  return { path, index, depth: Math.ceil(parts.length / 2), type: found.type, command: found.type === "command" ? found.command : null }
}

/** A short account of a step, for the workflow's progress. */
export const describe = (step: Step): string => {
  switch (step.type) {
    case "command":
      return `${step.command}`
    case "wait":
      return `wait ${step.seconds} s`
    case "waitFor":
      return `wait up to ${step.timeoutSeconds} s for ${describeCondition(step.condition)}`
    case "if":
      return `branch on ${describeCondition(step.condition)}`
  }
}

/** A condition in words. */
export const describeCondition = (condition: Condition): string => {
  switch (condition.type) {
    case "accepted":
      return "the invitation to be accepted"
    case "replied":
      return condition.classes === undefined ? "a reply" : `a reply (${condition.classes.join(", ")})`
    case "elapsed":
      return `${condition.seconds} s since the start`
  }
}
