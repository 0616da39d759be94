/**
 * The read commands on Unipile (the mapping, field by field, is in docs/networks.md):
 *
 * | command | provider call |
 * |---|---|
 * | `get_profile` | `GET /users/{identifier}` (SDK `users.getProfile`, all sections) |
 * | `get_company` | `GET /linkedin/company/{identifier}` (SDK `users.getCompanyProfile`) |
 * | `search_people`, `search_companies` | `POST /linkedin/search` (REST, classic API) |
 * | `get_posts` | `GET /users/{identifier}/posts` (SDK `users.getAllPosts`) |
 * | `get_post` | `GET /posts/{id}` (SDK `users.getPost`) |
 * | `list_chats` | `GET /chats` then, per chat, `GET /chats/{id}` and its attendees (SDK) |
 * | `get_conversation` | `GET /chats/{id}/attendees`, `GET /chats/{id}/messages` (SDK) |
 * | `list_invites` | `GET /users/invite/received` (REST) |
 *
 * `profile_viewers` and `ssi` have no call in Unipile's API: they are not supported.
 */
import { Effect, type Schema } from "effect"
import type { ReadCommand } from "../../domain/Commands.ts"
import type { Chat, PersonSummary } from "../../domain/NetworkModels.ts"
import type { ReadHandlers } from "../NetworkDriver.ts"
import { type NetworkError, networkError } from "../NetworkErrors.ts"
import { companyIdentifier, personIdentifier, postId } from "./UnipileAddresses.ts"
import type { ProviderFailure } from "./UnipileClient.ts"
import * as Models from "./Models.ts"
import { CompanySearch, type LinkedinProfile, PeopleSearch, ReceivedInvitations, type UserProfile } from "./ProviderShapes.ts"
import { ask, named, retried, type Session } from "./UnipileSession.ts"

/** The read commands Unipile's API has no call for. */
export const unsupportedReads = ["profile_viewers", "ssi"] as const satisfies ReadonlyArray<ReadCommand>
type Supported = Exclude<ReadCommand, (typeof unsupportedReads)[number]>

const isLinkedin = (profile: UserProfile): profile is LinkedinProfile => profile.provider === "LINKEDIN" && "headline" in profile

/** The LinkedIn profile of the person `identifier` names, as the seat sees it. */
export const profileOf = (session: Session, identifier: string): Effect.Effect<LinkedinProfile, NetworkError> =>
  ask(session, "users.getProfile", (client) =>
    client.users.getProfile({ account_id: session.providerAccount, identifier, linkedin_sections: "*" })).pipe(
      Effect.flatMap((profile) =>
        isLinkedin(profile)
          ? Effect.succeed(profile)
          : Effect.fail(networkError("invalidInput", `${identifier} is not a LinkedIn member.`, "Give a LinkedIn profile address."))
      )
    )

/** The person an address names, in full. */
export const personAt = (session: Session, address: string) =>
  Effect.flatMap(personIdentifier(address), (identifier) => Effect.map(profileOf(session, identifier), Models.person))

/** A REST call as the seat: retried while transient, then named. */
export const restCall = <A>(session: Session, effect: Effect.Effect<A, ProviderFailure>) =>
  retried(effect).pipe(Effect.catch(named(session)))

const pageParams = (input: { readonly cursor?: string; readonly limit?: number }) => ({
  ...(input.limit === undefined ? {} : { limit: input.limit }),
  ...(input.cursor === undefined ? {} : { cursor: input.cursor })
})

const queryOf = (session: Session, input: { readonly cursor?: string; readonly limit?: number }): Record<string, string> => ({
  account_id: session.providerAccount,
  limit: String(input.limit ?? 10),
  ...(input.cursor === undefined ? {} : { cursor: input.cursor })
})

const words = (...parts: ReadonlyArray<string | undefined>) => parts.filter((part) => part !== undefined && part !== "").join(" ")

/** `POST /linkedin/search` on LinkedIn's classic search, one page of `input`. */
const search = <S extends Schema.Decoder<unknown>>(
  session: Session,
  input: { readonly cursor?: string; readonly limit?: number },
  schema: S,
  body: { readonly category: "people" | "companies"; readonly keywords: string; readonly network_distance?: ReadonlyArray<number> }
) =>
  restCall(
    session,
    session.client.rest("linkedin.search", {
      method: "POST",
      path: ["linkedin", "search"],
      parameters: queryOf(session, input),
      headers: { "Content-Type": "application/json" },
      body: { api: "classic", ...body }
    }, schema)
  )

/** The chat's other attendee. */
export const attendeeOf = (session: Session, chatId: string): Effect.Effect<PersonSummary, NetworkError> =>
  ask(session, "messaging.getAllAttendeesFromChat", (client) => client.messaging.getAllAttendeesFromChat(chatId)).pipe(
    Effect.flatMap((attendees) => {
      const other = attendees.items.find((attendee) => attendee.is_self !== 1)
      return other === undefined
        ? Effect.fail(networkError("notFound", `The chat ${chatId} has no other attendee.`, "Use a chat id from list_chats."))
        : Effect.succeed(Models.attendeeSummary(other))
    })
  )

/** Every read this driver runs, taking an open session. */
export const reads = {
  get_profile: (session, input) => personAt(session, input.person),
  get_company: (session, input) =>
    Effect.flatMap(companyIdentifier(input.company), (identifier) =>
      ask(session, "users.getCompanyProfile", (client) => client.users.getCompanyProfile({ account_id: session.providerAccount, identifier }))).pipe(
        Effect.map(Models.company)
      ),
  search_people: (session, input) =>
    Effect.map(
      search(session, input, PeopleSearch, {
        category: "people",
        keywords: words(input.keywords, input.title, input.company, input.location, input.industry),
        ...(input.connectionDegree === undefined ? {} : { network_distance: [...input.connectionDegree] })
      }),
      (found) => ({ items: found.items.map(Models.searchedPerson), total: found.paging.total_count ?? found.items.length, cursor: found.cursor ?? null })
    ),
  search_companies: (session, input) =>
    Effect.map(
      search(session, input, CompanySearch, { category: "companies", keywords: words(input.keywords, input.industry, input.location) }),
      (found) => {
        const sizes = input.companySize
        const items = found.items.map(Models.searchedCompany).filter((one) => sizes === undefined || sizes.includes(one.companySize))
        return { items, total: found.paging.total_count ?? items.length, cursor: found.cursor ?? null }
      }
    ),
  get_posts: (session, input) =>
    Effect.gen(function*() {
      const identifier = input.person === undefined ? yield* companyIdentifier(input.company ?? "") : yield* personIdentifier(input.person)
      const list = yield* ask(session, "users.getAllPosts", (client) =>
        client.users.getAllPosts({
          account_id: session.providerAccount,
          identifier,
          ...(input.company === undefined ? {} : { is_company: true }),
          ...pageParams(input)
        }))
      return { items: list.items.map(Models.post), total: list.items.length + (list.cursor === null ? 0 : 1), cursor: list.cursor }
    }),
  get_post: (session, input) =>
    Effect.flatMap(postId(input.post), (post_id) =>
      ask(session, "users.getPost", (client) => client.users.getPost({ account_id: session.providerAccount, post_id }))).pipe(
        Effect.map(Models.post)
      ),
  list_chats: (session, input) =>
    Effect.gen(function*() {
      const list = yield* ask(session, "messaging.getAllChats", (client) =>
        client.messaging.getAllChats({ account_id: session.providerAccount, ...pageParams(input) }))
      const chats = yield* Effect.forEach(list.items, (item) =>
        Effect.gen(function*() {
          const chat = yield* ask(session, "messaging.getChat", (client) => client.messaging.getChat(item.id))
          const last = chat.lastMessage
          if (last === null) return []
          const attendee = yield* attendeeOf(session, item.id)
          const one: Chat = {
            id: item.id,
            attendee,
            lastMessage: Models.message({ ...last, object: "Message" }),
            unreadCount: item.unread_count,
            updatedAt: item.timestamp ?? last.timestamp
          }
          return [one]
        }), { concurrency: 4 })
      const items = chats.flat()
      const cursor = typeof list.cursor === "string" ? list.cursor : null
      return { items, total: items.length + (cursor === null ? 0 : 1), cursor }
    }),
  get_conversation: (session, input) =>
    Effect.gen(function*() {
      const attendee = yield* attendeeOf(session, input.chatId)
      const list = yield* ask(session, "messaging.getAllMessagesFromChat", (client) =>
        client.messaging.getAllMessagesFromChat({ chat_id: input.chatId, limit: 100 }))
      return { chatId: input.chatId, attendee, messages: [...list.items].reverse().map(Models.message) }
    }),
  list_invites: (session, input) =>
    restCall(
      session,
      session.client.rest("users.invite.received", {
        method: "GET",
        path: ["users", "invite", "received"],
        parameters: queryOf(session, input)
      }, ReceivedInvitations)
    ).pipe(Effect.map((list) => ({
      items: list.items.map((invitation) => ({
        id: invitation.id,
        from: {
          providerId: invitation.inviter.inviter_id,
          publicIdentifier: invitation.inviter.inviter_public_identifier,
          profileUrl: Models.profileUrlOf(invitation.inviter.inviter_public_identifier),
          name: invitation.inviter.inviter_name,
          headline: invitation.inviter.inviter_description ?? "",
          location: "",
          connectionDegree: 2 as const
        },
        message: invitation.invitation_text ?? null,
        sentAt: invitation.parsed_datetime ?? invitation.date
      })),
      total: list.items.length + (list.cursor === null || list.cursor === undefined ? 0 : 1),
      cursor: list.cursor ?? null
    })))
} satisfies { readonly [C in Supported]: (session: Session, input: Parameters<NonNullable<ReadHandlers[C]>>[1]) => ReturnType<NonNullable<ReadHandlers[C]>> }
