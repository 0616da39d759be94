/**
 * The sandbox's write commands. Each checks the network's own rules first and
 * fails with a named `NetworkError` (already connected, already invited,
 * `cannotResendYet` within 3 weeks of a withdrawal, the free tier's 5 notes a
 * month, not a connection...), then records what the account did. Whether
 * and when people answer is not decided here but in `Outcomes`, from the
 * records and the clock.
 */
import { randomBytes, randomInt, randomUUID } from "node:crypto"
import { Effect } from "effect"
import type { CommandInputs, CommandResults, WriteCommand } from "../domain/Commands.ts"
import type { Post } from "../domain/NetworkModels.ts"
import { networkError, type NetworkError } from "../network/NetworkErrors.ts"
import { accountFacts, hasInMail, hasSalesNavigator } from "./AccountProfiles.ts"
import { type PostAddress, profileOfProviderId } from "./Addresses.ts"
import { isConnected, withDegree } from "./Connections.ts"
import { chatIdOf, postIdOf, providerIdOfChat, providerIdOfInvitation, publishedAtOfPostId } from "./Ids.ts"
import { receivedInvitations } from "./Invites.ts"
import { invitationAt, RESEND_WAIT_MS, type SentInvitation } from "./Outcomes.ts"
import { memberFrom, personAt, summaryOf } from "./SandboxPeople.ts"
import { rng } from "./Random.ts"
import { conversationWith, messageReaches, type Session, summaryFor } from "./Reads.ts"
import { everything, personIn, postIn } from "./Refs.ts"
import { iso } from "./Timeline.ts"

type WriteHandlers = {
  readonly [C in WriteCommand]: (
    session: Session,
    input: CommandInputs[C]
  ) => Effect.Effect<CommandResults[C], NetworkError>
}

/** A free account may add a note to this many invitations per calendar month (UTC). */
export const FREE_NOTES_PER_MONTH = 5

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const monthBounds = (now: number) => {
  const date = new Date(now)
  return {
    start: Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1),
    next: Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)
  }
}

const day = (ms: number) => iso(ms).slice(0, 10)

/** The post at an address, refused when its id dates it after now. */
const publishedPost = (session: Session, raw: string): Effect.Effect<PostAddress, NetworkError> =>
  Effect.flatMap(postIn("post", raw), (address) =>
    publishedAtOfPostId(address.id) > session.now
      ? Effect.fail(networkError(
        "notFound",
        `post: urn:li:activity:${address.id} is not published yet.`,
        "Take post addresses from get_posts."
      ))
      : Effect.succeed(address))

/** The account's own person on the sandbox network (the author of its posts). */
export const selfOf = (accountId: string) => memberFrom(rng("account-self", accountId))

const connect: WriteHandlers["connect"] = (session, input) =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    const ref = yield* personIn("person", input.person)
    const note = input.note === undefined || input.note.trim() === "" ? null : input.note
    const facts = yield* accountFacts(state, accountId)
    const person = personAt(ref, { account: accountId, now })
    return yield* state.transaction(Effect.gen(function*() {
      if (yield* isConnected(state, accountId, ref.providerId, now)) {
        return yield* networkError(
          "guardrail",
          `${person.name} is already a connection of the account.`,
          "Send a message instead (send_message)."
        )
      }
      const latest = (yield* state.invitationsTo(accountId, ref.providerId))[0]
      if (latest !== undefined) {
        const status = invitationAt(latest, now)
        if (status.status === "pending") {
          return yield* networkError(
            "guardrail",
            `An invitation to ${person.name} is already pending (sent ${status.sentAt}).`,
            `Wait for an answer, or withdraw it with withdraw_invite {invitationId: "${latest.id}"}.`
          )
        }
        if (status.status === "withdrawn" && latest.withdrawnAtMs !== null && now < latest.withdrawnAtMs + RESEND_WAIT_MS) {
          const until = iso(latest.withdrawnAtMs + RESEND_WAIT_MS)
          return yield* networkError(
            "cannotResendYet",
            `The invitation to ${person.name} was withdrawn on ${day(latest.withdrawnAtMs)}; the network refuses a new one until ${until}.`,
            `Try again after ${until}.`,
            until
          )
        }
      }
      if (facts.workspaceId !== null) {
        const others = yield* state.workspaceInvitationsTo(facts.workspaceId, accountId, ref.providerId)
        const pending = others.find((invitation) => invitationAt(invitation, now).status === "pending")
        if (pending !== undefined) {
          return yield* networkError(
            "guardrail",
            `${person.name} has a pending invitation from another seat of the workspace (account ${pending.accountId}, sent ${iso(pending.sentAtMs)}).`,
            "Let that invitation run its course, or withdraw it from that account first."
          )
        }
      }
      if (note !== null && facts.tier === "free") {
        const month = monthBounds(now)
        const used = yield* state.notesSentBetween(accountId, month.start, month.next)
        if (used >= FREE_NOTES_PER_MONTH) {
          const until = iso(month.next)
          return yield* networkError(
            "noteQuotaExhausted",
            `The free tier allows ${FREE_NOTES_PER_MONTH} invitation notes a month and this account has sent ${used}; the note was not dropped, the invitation was not sent.`,
            `Send the invitation without a note, or wait until ${until}.`,
            until
          )
        }
      }
      const invitation: SentInvitation = {
        id: randomUUID(),
        accountId,
        providerId: ref.providerId,
        note,
        sentAtMs: now,
        withdrawnAtMs: null,
        forcedAcceptedAtMs: null
      }
      yield* state.insertInvitation(invitation)
      return {
        invitationId: invitation.id,
        person: summaryOf(ref, accountId),
        note,
        status: "pending" as const,
        sentAt: iso(now)
      }
    }))
  })

const withdrawInvite: WriteHandlers["withdraw_invite"] = (session, input) =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    let invitation: SentInvitation | undefined
    if (input.invitationId !== undefined) {
      if (!UUID.test(input.invitationId)) {
        return yield* networkError(
          "invalidInput",
          `invitationId: "${input.invitationId}" is not an invitation id (reason: malformedIdentifier).`,
          "Use the invitationId that connect returned, or give the person instead."
        )
      }
      invitation = yield* state.invitation(accountId, input.invitationId)
    } else {
      const ref = yield* personIn("person", input.person ?? "")
      invitation = (yield* state.invitationsTo(accountId, ref.providerId))[0]
    }
    if (invitation === undefined) {
      return yield* networkError(
        "notFound",
        "The account has sent no such invitation.",
        "Use the invitationId that connect returned."
      )
    }
    const status = invitationAt(invitation, now)
    if (status.status === "accepted") {
      return yield* networkError(
        "guardrail",
        `The invitation was accepted on ${status.acceptedAt}; there is nothing to withdraw.`,
        "The person is a connection now: message them instead."
      )
    }
    if (status.status !== "pending") {
      return yield* networkError(
        "notFound",
        `The invitation is no longer pending (withdrawn ${status.resolvedAt}).`,
        "Nothing to do."
      )
    }
    yield* state.withdraw(invitation.id, now)
    return {
      invitationId: invitation.id,
      providerId: invitation.providerId,
      withdrawnAt: iso(now),
      canResendAfter: iso(now + RESEND_WAIT_MS)
    }
  })

const sendMessage: WriteHandlers["send_message"] = (session, input) =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    let providerId: string
    if (input.chatId !== undefined) {
      const fromChat = providerIdOfChat(input.chatId)
      if (fromChat === null) {
        return yield* networkError(
          "invalidInput",
          `chatId: "${input.chatId}" is not a chat id (reason: malformedIdentifier).`,
          "Take chat ids from list_chats, or give the person instead."
        )
      }
      providerId = profileOfProviderId(fromChat).providerId
    } else {
      providerId = (yield* personIn("person", input.person ?? "")).providerId
    }
    const conversation = yield* conversationWith(session, providerId)
    const inmail = !(yield* messageReaches(session, providerId))
    if (inmail && input.inmail !== true) {
      return yield* networkError(
        "guardrail",
        `${conversation.attendee.name} is not a connection of the account; the network only delivers messages to connections.`,
        "Connect first, or send it as an InMail with inmail: true."
      )
    }
    if (inmail && !hasInMail(yield* accountFacts(state, accountId))) {
      return yield* networkError(
        "guardrail",
        "The account is on the free tier, which has no InMail credits.",
        "Connect first and message after the invitation is accepted."
      )
    }
    return yield* state.transaction(Effect.gen(function*() {
      const earlier = yield* state.messagesTo(accountId, providerId)
      const message = {
        id: `msg-${randomBytes(8).toString("hex")}`,
        accountId,
        providerId,
        chatId: chatIdOf(providerId),
        seq: earlier.length,
        text: input.text,
        subject: inmail ? input.subject ?? null : null,
        inmail,
        sentAtMs: now
      }
      yield* state.insertMessage(message)
      return {
        chatId: message.chatId,
        messageId: message.id,
        recipientProviderId: providerId,
        text: message.text,
        inmail,
        sentAt: iso(now)
      }
    }))
  })

const answerInvite = (answer: "accepted" | "declined"): WriteHandlers["accept_invite"] => (session, input) =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    const providerId = providerIdOfInvitation(input.invitationId)
    if (providerId === null) {
      return yield* networkError(
        "invalidInput",
        `invitationId: "${input.invitationId}" is not a received invitation id (reason: malformedIdentifier).`,
        "Take invitation ids from list_invites."
      )
    }
    const answered = (yield* state.answers(accountId)).find((item) => item.invitationId === input.invitationId)
    const received = everything((request) => receivedInvitations(accountId, now, request))
      .find((invitation) => invitation.id === input.invitationId)
    if (answered !== undefined || received === undefined) {
      return yield* networkError(
        "notFound",
        answered === undefined
          ? "The account has no pending invitation with this id."
          : `The invitation was already ${answered.answer} on ${iso(answered.answeredAtMs)}.`,
        "Take invitation ids from list_invites."
      )
    }
    yield* state.insertAnswer(accountId, {
      invitationId: input.invitationId,
      providerId: received.from.providerId,
      answer,
      answeredAtMs: now
    })
    return {
      invitationId: input.invitationId,
      from: withDegree(received.from, answer === "accepted"),
      answer,
      answeredAt: iso(now)
    }
  })

const endorse: WriteHandlers["endorse"] = (session, input) =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    const ref = yield* personIn("person", input.person)
    const person = personAt(ref, { account: accountId, now })
    if (!(yield* isConnected(state, accountId, ref.providerId, now))) {
      return yield* networkError(
        "guardrail",
        `${person.name} is not a connection of the account; only connections can be endorsed.`,
        "Connect first and endorse after the invitation is accepted."
      )
    }
    const wanted = input.skill.trim().toLowerCase()
    const skill = person.skills.find((candidate) => candidate.toLowerCase() === wanted)
    if (skill === undefined) {
      return yield* networkError(
        "invalidInput",
        person.skills.length === 0
          ? `skill: ${person.name} lists no skills.`
          : `skill: ${person.name} does not list "${input.skill}"; the profile lists ${person.skills.join(", ")}.`,
        "Pick one of the skills get_profile shows."
      )
    }
    const target = `${ref.providerId}|${skill}`
    const earlier = yield* state.action(accountId, "endorse", target)
    const at = earlier?.atMs ?? now
    if (earlier === undefined) yield* state.putAction(accountId, "endorse", { id: randomUUID(), target, detail: { skill }, atMs: now })
    return { person: yield* summaryFor(session, ref.providerId), skill, endorsedAt: iso(at) }
  })

const saveLead: WriteHandlers["save_lead"] = (session, input) =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    const ref = yield* personIn("person", input.person)
    if (!hasSalesNavigator(yield* accountFacts(state, accountId))) {
      return yield* networkError(
        "guardrail",
        "Lead lists are a Sales Navigator feature and the account does not have it.",
        "Use an account with Sales Navigator."
      )
    }
    const list = input.list?.trim() ?? "Leads"
    const target = `${ref.providerId}|${list}`
    const earlier = yield* state.action(accountId, "save_lead", target)
    const at = earlier?.atMs ?? now
    if (earlier === undefined) yield* state.putAction(accountId, "save_lead", { id: randomUUID(), target, detail: { list }, atMs: now })
    return { person: yield* summaryFor(session, ref.providerId), list, savedAt: iso(at) }
  })

const react: WriteHandlers["react"] = (session, input) =>
  Effect.gen(function*() {
    const address = yield* publishedPost(session, input.post)
    yield* session.state.putAction(session.accountId, "react", {
      id: randomUUID(),
      target: address.id,
      detail: { reaction: input.reaction },
      atMs: session.now
    })
    return { post: `urn:li:activity:${address.id}`, reaction: input.reaction, reactedAt: iso(session.now) }
  })

const comment: WriteHandlers["comment"] = (session, input) =>
  Effect.gen(function*() {
    const address = yield* publishedPost(session, input.post)
    const commentId = postIdOf(session.now, randomInt(0, 1 << 22))
    yield* session.state.putAction(session.accountId, "comment", {
      id: randomUUID(),
      target: commentId,
      detail: { post: address.id, text: input.text },
      atMs: session.now
    })
    return { commentId, post: `urn:li:activity:${address.id}`, text: input.text, commentedAt: iso(session.now) }
  })

const createPost: WriteHandlers["create_post"] = (session, input) =>
  Effect.gen(function*() {
    const { accountId, now } = session
    const id = postIdOf(now, randomInt(0, 1 << 22))
    const visibility = input.visibility ?? "anyone"
    const self = summaryOf(selfOf(accountId), accountId)
    const post: Post = {
      id,
      urn: `urn:li:activity:${id}`,
      url: `https://www.linkedin.com/feed/update/urn:li:activity:${id}`,
      author: { kind: "person", id: self.providerId, name: self.name, headline: self.headline, profileUrl: self.profileUrl },
      text: input.text,
      publishedAt: iso(now),
      reactions: 0,
      comments: 0,
      reposts: 0,
      hashtags: [...new Set([...input.text.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((match) => match[1].toLowerCase()))]
    }
    yield* session.state.putAction(accountId, "create_post", { id: randomUUID(), target: id, detail: { visibility, text: input.text }, atMs: now })
    return { post, visibility }
  })

/** Every write command. */
export const writes: WriteHandlers = {
  connect,
  withdraw_invite: withdrawInvite,
  send_message: sendMessage,
  accept_invite: answerInvite("accepted"),
  decline_invite: answerInvite("declined"),
  endorse,
  save_lead: saveLead,
  react,
  comment,
  create_post: createPost
}
