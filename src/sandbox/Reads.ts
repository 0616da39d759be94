/**
 * The sandbox's read commands: the generators, seen by the account (its id
 * seeds the viewer) at the clock's instant, with what the account did on the
 * network laid over them (messages sent and their replies, invitations
 * answered, new connections, messages tests made people send).
 */
import { Effect } from "effect"
import type { CommandInputs, CommandResults, ReadCommand } from "../domain/Commands.ts"
import type { Chat, Conversation, Message } from "../domain/NetworkModels.ts"
import { networkError, type NetworkError } from "../network/NetworkErrors.ts"
import { profileOfProviderId } from "./Addresses.ts"
import { companyFor } from "./Companies.ts"
import { isConnected, withDegree } from "./Connections.ts"
import { chatIdOf, providerIdOfChat, publishedAtOfPostId } from "./Ids.ts"
import { getConversation, listChats } from "./SandboxInbox.ts"
import { receivedInvitations } from "./Invites.ts"
import { byTime, messageOf, replyAt, type SentMessage } from "./Outcomes.ts"
import { pageOf, pageWindow } from "./Paging.ts"
import { personAt, summaryOf } from "./SandboxPeople.ts"
import { postAt, postsOfCompany, postsOfPerson } from "./Posts.ts"
import { companyIn, everything, page, personIn, postIn } from "./Refs.ts"
import { searchCompanies, searchPeople } from "./Search.ts"
import { ssiOf } from "./Ssi.ts"
import type { ReceivedMessage, State } from "./State.ts"
import { DAY, iso } from "./Timeline.ts"
import { profileViewers } from "./Viewers.ts"

/** Who runs a command, and when. */
export interface Session {
  readonly accountId: string
  readonly now: number
  readonly state: State
}

type ReadHandlers = {
  readonly [C in ReadCommand]: (
    session: Session,
    input: CommandInputs[C]
  ) => Effect.Effect<CommandResults[C], NetworkError>
}

/** The messages of the chat with a person: the generated ones, the account's, the replies and the messages received by now. */
export const conversationWith = (session: Session, providerId: string): Effect.Effect<Conversation> =>
  Effect.gen(function*() {
    const { accountId, now, state } = session
    const chatId = chatIdOf(providerId)
    const generated = yield* Effect.fromResult(getConversation(accountId, chatId, now)).pipe(Effect.orDie)
    const sent = yield* state.messagesTo(accountId, providerId)
    const received = (yield* state.receivedFrom(accountId, providerId)).filter((message) => message.receivedAtMs <= now)
    const connected = yield* isConnected(state, accountId, providerId, now)
    return {
      chatId,
      attendee: withDegree(generated.attendee, connected),
      messages: [...generated.messages, ...ownMessages(sent, now), ...received.map(receivedMessageOf)].sort(byTime)
    }
  })

/**
 * Whether a plain message reaches the person: they are a connection, or they
 * have written to the account (that chat can be answered). Anyone else needs an InMail.
 */
export const messageReaches = (session: Session, providerId: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    if (yield* isConnected(session.state, session.accountId, providerId, session.now)) return true
    const conversation = yield* conversationWith(session, providerId)
    return conversation.messages.some((message) => message.direction === "received")
  })

/** A message a test made a person send, as the conversation shows it. */
export const receivedMessageOf = (message: ReceivedMessage): Message => ({
  id: message.id,
  chatId: message.chatId,
  direction: "received",
  senderProviderId: message.providerId,
  text: message.text,
  sentAt: iso(message.receivedAtMs)
})

const ownMessages = (sent: ReadonlyArray<SentMessage>, now: number): ReadonlyArray<Message> =>
  sent.flatMap((message) => {
    const reply = replyAt(message, now)
    return reply === null ? [messageOf(message)] : [messageOf(message), reply.message]
  })

const chatOf = (conversation: Conversation, now: number): Chat | null => {
  const last = conversation.messages[conversation.messages.length - 1]
  if (last === undefined) return null
  return {
    id: conversation.chatId,
    attendee: conversation.attendee,
    lastMessage: last,
    unreadCount: last.direction === "received" && Date.parse(last.sentAt) > now - 3 * DAY ? 1 : 0,
    updatedAt: last.sentAt
  }
}

/** Every read command. */
export const reads: ReadHandlers = {
  get_profile: (session, input) =>
    Effect.gen(function*() {
      const ref = yield* personIn("person", input.person)
      const connected = yield* isConnected(session.state, session.accountId, ref.providerId, session.now)
      return withDegree(personAt(ref, { account: session.accountId, now: session.now }), connected)
    }),

  get_company: (_session, input) => Effect.map(companyIn("company", input.company), companyFor),

  search_people: (session, { cursor, limit, ...query }) =>
    page(searchPeople(query, session.accountId, { cursor, limit })),

  search_companies: (_session, { cursor, limit, ...query }) => page(searchCompanies(query, { cursor, limit })),

  get_posts: (session, input) =>
    Effect.gen(function*() {
      const request = { cursor: input.cursor, limit: input.limit }
      if (input.person !== undefined) {
        return yield* page(postsOfPerson(yield* personIn("person", input.person), session.now, request))
      }
      const company = companyFor(yield* companyIn("company", input.company ?? ""))
      return yield* page(postsOfCompany(company, session.now, request))
    }),

  get_post: (session, input) =>
    Effect.gen(function*() {
      const address = yield* postIn("post", input.post)
      if (publishedAtOfPostId(address.id) > session.now) {
        return yield* networkError(
          "notFound",
          `post: urn:li:activity:${address.id} is not published yet (its id dates it ${iso(publishedAtOfPostId(address.id))}).`,
          "Take post addresses from get_posts."
        )
      }
      return postAt(address, session.now)
    }),

  list_chats: (session, input) =>
    Effect.gen(function*() {
      const { accountId, now, state } = session
      const window = yield* page(pageWindow(input))
      const sent = yield* state.messagesOf(accountId)
      const senders = yield* state.sendersTo(accountId)
      const people = [...new Set([...sent.map((message) => message.providerId), ...senders])]
      const own = yield* Effect.forEach(people, (providerId) => conversationWith(session, providerId))
      const ownChats = own.flatMap((conversation) => chatOf(conversation, now) ?? [])
      const ownIds = new Set(ownChats.map((chat) => chat.id))
      const chats = [
        ...ownChats,
        ...everything((request) => listChats(accountId, now, request)).filter((chat) => !ownIds.has(chat.id))
      ].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
      return pageOf(window, chats.length, chats.length, (i) => chats[i])
    }),

  get_conversation: (session, input) =>
    Effect.gen(function*() {
      const providerId = providerIdOfChat(input.chatId)
      if (providerId === null) {
        return yield* networkError(
          "invalidInput",
          `chatId: "${input.chatId}" is not a chat id (reason: malformedIdentifier).`,
          "Take chat ids from list_chats or send_message."
        )
      }
      return yield* conversationWith(session, profileOfProviderId(providerId).providerId)
    }),

  list_invites: (session, input) =>
    Effect.gen(function*() {
      const window = yield* page(pageWindow(input))
      const answered = new Set((yield* session.state.answers(session.accountId)).map((answer) => answer.invitationId))
      const pending = everything((request) => receivedInvitations(session.accountId, session.now, request))
        .filter((invitation) => !answered.has(invitation.id))
      return pageOf(window, pending.length, pending.length, (i) => pending[i])
    }),

  profile_viewers: (session, input) => page(profileViewers(session.accountId, session.now, input)),

  ssi: (session) => Effect.succeed(ssiOf(session.accountId, session.now))
}

/** A person as lists show them, with the degree the account's own actions gave it. */
export const summaryFor = (session: Session, providerId: string) =>
  Effect.map(
    isConnected(session.state, session.accountId, providerId, session.now),
    (connected) => withDegree(summaryOf(profileOfProviderId(providerId), session.accountId), connected)
  )
