/**
 * Prompts for the daily work, as an assistant's user picks them from a menu:
 * review the approvals queue, triage today's replies, plan a campaign within
 * the account's budgets. Each names the tools to use and the rules that hold
 * (the assistant never decides an approval; writes go through the Governor;
 * a retry carries its `idempotencyKey`).
 */
import { Effect, Layer, Schema } from "effect"
import { McpServer } from "effect/ai"
import { Uuid } from "../api/Envelope.ts"
import { Text } from "../domain/Text.ts"

const account = Uuid.annotate({ description: "The account (seat) to work on" })

const reviewApprovals = McpServer.prompt({
  name: "review_approvals",
  title: "Review the approvals queue",
  description: "Go through the writes waiting for a person, oldest first, and recommend a decision for each.",
  parameters: { accountId: Schema.optionalKey(account.annotate({ description: "Only this account's approvals (all accounts when left out)" })) },
  content: ({ accountId }) =>
    Effect.succeed([
      `Review the approvals queue${accountId === undefined ? "" : ` of account ${accountId}`}.`,
      "",
      `1. Call list_approvals${accountId === undefined ? "" : ` with {"accountId": "${accountId}"}`}; follow nextCursor until it is null.`,
      "2. For each approval, oldest first (the first to expire after 72 hours): the account, the person, the command and the exact text.",
      "3. Recommend approve, reject or edit, with one line of reason: tone, typos, a wrong person, a duplicate of a recent message (get_person shows the timeline).",
      "",
      "You cannot approve or reject: no tool does. Give the person your recommendations; they decide in the dashboard (Approvals), where an edit changes the text before it goes."
    ].join("\n"))
})

const triageReplies = McpServer.prompt({
  name: "triage_replies",
  title: "Triage today's replies",
  description: "Sort the account's replies of the day by priority and draft an answer to each that needs one.",
  parameters: { accountId: account },
  content: ({ accountId }) =>
    Effect.succeed([
      `Triage today's replies on account ${accountId}.`,
      "",
      `1. Call get_brief with {"accountId": "${accountId}"}: replies in priority order, each with its class and a suggested answer; new connections; the queue; budgets.`,
      "2. For each reply that needs an answer, say why in one line and draft the answer (start from the suggestion; keep it short and personal). Skip out-of-office and closed threads, and say so.",
      "3. Only after the person agrees, send each with send_message, giving an idempotencyKey (for example reply-<chat id>-<date>) so a retry never sends twice.",
      "",
      "Every send is a job through the account's Governor: in approve or assist mode it waits for the person's approval; outside working hours or over budget it is scheduled, not refused. Follow the jobs with get_job."
    ].join("\n"))
})

const planCampaign = McpServer.prompt({
  name: "plan_campaign",
  title: "Plan a campaign within budgets",
  description: "Plan who to invite and message, and when, within the account's budgets, working hours and warm-up.",
  parameters: {
    accountId: account,
    goal: Text.check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({
      description: "What the campaign is for and whom it addresses, in a sentence"
    })
  },
  content: ({ accountId, goal }) =>
    Effect.succeed([
      `Plan a campaign on account ${accountId}. Goal: ${goal}`,
      "",
      `1. Call get_account with {"accountId": "${accountId}"}: mode, working hours, limits, the budgets left today, this week and this month, and warm-up.`,
      `2. Call get_health_report with {"accountId": "${accountId}"}: stale invitations to withdraw first, acceptance rate, recommendations.`,
      "3. Find the people: search_people (a network read) and find_people (people the workspace already dealt with; skip those another seat holds).",
      "4. Propose the plan: how many invitations and messages a day, which days, the note and the follow-up sequence, so that no day goes over a budget or outside working hours. Show the numbers against the budgets.",
      "5. Only after the person agrees, start it with start_automation (one automation for the list, with an idempotencyKey), then report its id; pause_automation and stop_automation stop it.",
      "",
      "The Governor enforces the budgets anyway (over budget a write waits for the next window), so a plan within them finishes when it says."
    ].join("\n"))
})

/** Every prompt. */
export const layer = Layer.mergeAll(reviewApprovals, triageReplies, planCampaign)
