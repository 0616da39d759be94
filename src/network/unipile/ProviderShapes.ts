/**
 * The shapes of the provider's answers the driver reads: the SDK's own types, named after the
 * calls that return them, and Effect Schemas for the documented REST calls the SDK 1.9.3 does not
 * cover (LinkedIn search, received invitations and their answer, a user's reactions). The schemas
 * keep only the fields the driver uses; others pass through unread.
 */
import { Schema } from "effect"
import type { UnipileClient } from "unipile-node-sdk"

type Answer<F extends (...args: never) => Promise<unknown>> = Awaited<ReturnType<F>>

export type UserProfile = Answer<UnipileClient["users"]["getProfile"]>
export type LinkedinProfile = Extract<UserProfile, { readonly provider: "LINKEDIN"; readonly provider_id: string; readonly headline: string }>
export type OwnProfile = Answer<UnipileClient["users"]["getOwnProfile"]>
export type PostList = Answer<UnipileClient["users"]["getAllPosts"]>
export type ProviderPost = Answer<UnipileClient["users"]["getPost"]>
export type CompanyProfile = Answer<UnipileClient["users"]["getCompanyProfile"]>
export type SentInvitations = Answer<UnipileClient["users"]["getAllInvitationsSent"]>
export type ChatList = Answer<UnipileClient["messaging"]["getAllChats"]>
export type ProviderChat = Answer<UnipileClient["messaging"]["getChat"]>
export type MessageList = Answer<UnipileClient["messaging"]["getAllMessagesFromChat"]>
export type ProviderMessage = MessageList["items"][number]
export type Attendees = Answer<UnipileClient["messaging"]["getAllAttendeesFromChat"]>
export type Attendee = Attendees["items"][number]

const Cursor = Schema.optionalKey(Schema.NullOr(Schema.String))

/** A person found by `POST /linkedin/search` (category `people`). */
export const PeopleResult = Schema.Struct({
  type: Schema.Literal("PEOPLE"),
  id: Schema.String,
  public_identifier: Schema.optionalKey(Schema.NullOr(Schema.String)),
  profile_url: Schema.optionalKey(Schema.NullOr(Schema.String)),
  name: Schema.optionalKey(Schema.NullOr(Schema.String)),
  headline: Schema.optionalKey(Schema.NullOr(Schema.String)),
  location: Schema.optionalKey(Schema.NullOr(Schema.String)),
  network_distance: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/** A company found by `POST /linkedin/search` (category `companies`). */
export const CompanyResult = Schema.Struct({
  type: Schema.Literal("COMPANY"),
  id: Schema.String,
  name: Schema.String,
  profile_url: Schema.optionalKey(Schema.NullOr(Schema.String)),
  location: Schema.optionalKey(Schema.NullOr(Schema.String)),
  industry: Schema.optionalKey(Schema.NullOr(Schema.String)),
  followers_count: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  headcount: Schema.optionalKey(Schema.NullOr(Schema.String))
})

const searchPage = <S extends Schema.Top>(item: S) =>
  Schema.Struct({
    object: Schema.Literal("LinkedinSearch"),
    items: Schema.Array(item),
    paging: Schema.Struct({ total_count: Schema.NullOr(Schema.Number) }),
    cursor: Cursor
  })

export const PeopleSearch = searchPage(PeopleResult)
export const CompanySearch = searchPage(CompanyResult)

/** `GET /users/invite/received`. */
export const ReceivedInvitations = Schema.Struct({
  object: Schema.Literal("InvitationList"),
  items: Schema.Array(Schema.Struct({
    id: Schema.String,
    date: Schema.String,
    parsed_datetime: Schema.optionalKey(Schema.NullOr(Schema.String)),
    invitation_text: Schema.optionalKey(Schema.NullOr(Schema.String)),
    inviter: Schema.Struct({
      inviter_name: Schema.String,
      inviter_id: Schema.String,
      inviter_public_identifier: Schema.String,
      inviter_description: Schema.optionalKey(Schema.NullOr(Schema.String))
    }),
    specifics: Schema.Struct({ shared_secret: Schema.String })
  })),
  cursor: Cursor
})
export type ReceivedInvitation = typeof ReceivedInvitations.Type["items"][number]

/** `POST /users/invite/received/{id}`. */
export const InvitationHandled = Schema.Struct({ object: Schema.String })

/** `GET /users/{identifier}/reactions`. */
export const Reactions = Schema.Struct({
  items: Schema.Array(Schema.Struct({ post_id: Schema.String, value: Schema.String })),
  cursor: Cursor
})
