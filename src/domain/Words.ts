/**
 * Commands and statuses in words, as people read them ("Invitation", not
 * `connect`; "Signed out: reconnect it", not `reconnect_required`).
 */
import type { AccountStatus } from "./Account.ts"

const commandWords: Readonly<Record<string, string>> = {
  connect: "Invitation",
  send_message: "Message",
  withdraw_invite: "Withdraw invitation",
  accept_invite: "Accept invitation",
  decline_invite: "Decline invitation",
  endorse: "Endorsement",
  save_lead: "Save lead",
  react: "Reaction",
  comment: "Comment",
  create_post: "Post"
}

/** A command as people call it; the name itself for one without words yet. */
export const commandInWords = (kind: string): string => commandWords[kind] ?? kind.replace(/_/g, " ")

/** The kinds of write that wait for approval, in words, for filters. */
export const writeKinds: ReadonlyArray<{ readonly kind: string; readonly label: string }> = Object.entries(commandWords).map(
  ([kind, label]) => ({ kind, label })
)

const statusWords: Readonly<Record<string, string>> = {
  queued: "Queued",
  awaiting_approval: "Waiting for approval",
  scheduled: "Scheduled",
  running: "Running",
  completed: "Done",
  failed: "Failed",
  cancelled: "Cancelled"
}

/** A job's status as people say it. */
export const statusInWords = (status: string): string => statusWords[status] ?? status

const waitWords: Readonly<Record<string, string>> = {
  approval: "a person's approval",
  working_hours: "the seat's working hours",
  budget: "room in the seat's budget",
  account_paused: "the seat to be resumed",
  account_connecting: "the seat to finish connecting",
  reconnect: "the seat to be reconnected",
  pacing: "a pause between writes (pacing)",
  queue: "the writes before it"
}

/** Why a job waits, as people say it: "waits for the seat's working hours". */
export const waitInWords = (reason: string): string => waitWords[reason] ?? reason.replace(/_/g, " ")

const accountStatusWords: Readonly<Record<AccountStatus, string>> = {
  connecting: "Connecting",
  warming: "Warming up",
  active: "Active",
  paused: "Paused",
  stopped: "Stopped (health)",
  restricted: "Restricted by the network",
  reconnect_required: "Signed out: reconnect it"
}

/** A seat's status as people say it. */
export const accountStatusInWords = (status: AccountStatus): string => accountStatusWords[status]
