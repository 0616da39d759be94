/**
 * Commands in words, as people read them ("Invitation", not
 * `connect`).
 *
 * @since 1.0.0
 */

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
