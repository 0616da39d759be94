/**
 * The bodies the provider double answers, shaped as Unipile's API v1 answers them (and as the
 * SDK's validators expect: `Conformance.ts`). One function per kind of record.
 */
import { companyBy, type DirectoryCompany, type DirectoryPerson, type DirectoryPost, personBy } from "./Directory.ts"
import type { Account, Chat, ChatMessage, OwnComment, ReceivedInvitation, SentInvitation } from "./State.ts"

/** Unipile's timestamps: ISO 8601 with milliseconds, UTC. */
export const iso = (ms: number) => new Date(ms).toISOString()

const profileUrl = (slug: string) => `https://www.linkedin.com/in/${slug}`

/** An account as `GET /accounts/{id}` answers it. */
export const account = (one: Account) => ({
  object: "Account",
  type: "LINKEDIN",
  connection_params: {
    im: {
      id: one.ownerProviderId,
      username: one.username,
      premiumContractId: one.features.includes("sales_navigator") ? `contract-${one.id.slice(0, 6)}` : null,
      premiumFeatures: [...one.features]
    }
  },
  id: one.id,
  name: one.name,
  created_at: iso(one.createdAt),
  groups: [],
  sources: [{ id: `${one.id}_MESSAGING`, status: one.status }]
})

/** The account's own profile (`GET /users/me`). */
export const ownProfile = (one: Account) => ({
  object: "AccountOwnerProfile",
  provider: "LINKEDIN",
  provider_id: one.ownerProviderId,
  entity_urn: `urn:li:fsd_profile:${one.ownerProviderId}`,
  object_urn: `urn:li:member:${one.createdAt % 1_000_000_000}`,
  first_name: "Seat",
  last_name: one.id.slice(0, 6),
  profile_picture_url: null,
  public_profile_url: profileUrl(one.ownerSlug),
  public_identifier: one.ownerSlug,
  headline: "Account Executive",
  location: "Madrid, Spain",
  email: one.username.includes("@") ? one.username : `${one.ownerSlug}@example.com`,
  premium: one.features.includes("premium"),
  open_profile: false,
  recruiter: one.features.includes("recruiter") ? { owner_seat_id: "seat-1", contract_id: "recruiter-1" } : null,
  sales_navigator: one.features.includes("sales_navigator") ? { owner_seat_id: "seat-1", contract_id: "sn-1" } : null
})

const distanceOf = (one: Account, person: DirectoryPerson) =>
  one.relations.has(person.providerId) ? "FIRST_DEGREE" : person.distance === "FIRST_DEGREE" ? "SECOND_DEGREE" : person.distance

/** A person's profile as the account sees it (`GET /users/{identifier}`). */
export const userProfile = (one: Account, person: DirectoryPerson) => {
  const pending = one.sent.find((invitation) => invitation.providerId === person.providerId && invitation.status === "pending")
  return {
    object: "UserProfile",
    provider: "LINKEDIN",
    provider_id: person.providerId,
    public_identifier: person.slug,
    first_name: person.firstName,
    last_name: person.lastName,
    headline: person.headline,
    summary: `${person.position} at ${person.company}.`,
    location: person.location,
    websites: [],
    is_premium: person.followers > 1200,
    is_open_to_work: false,
    is_influencer: false,
    is_creator: false,
    is_relationship: one.relations.has(person.providerId),
    is_self: false,
    ...(pending === undefined ? {} : { invitation: { type: "SENT", status: "PENDING" } }),
    work_experience: [{
      position: person.position,
      company_id: person.companyId,
      company: person.company,
      location: person.location,
      current: true,
      start: "3/2022",
      end: null
    }],
    skills: person.skills.map((name) => ({ name, endorsement_count: 3 })),
    follower_count: person.followers,
    connections_count: 500,
    shared_connections_count: 4,
    network_distance: distanceOf(one, person),
    public_profile_url: profileUrl(person.slug)
  }
}

/** The account's own profile as any profile (`GET /users/{own provider id}`): its connection count. */
export const selfProfile = (one: Account) => ({
  object: "UserProfile",
  provider: "LINKEDIN",
  provider_id: one.ownerProviderId,
  public_identifier: one.ownerSlug,
  first_name: "Seat",
  last_name: one.id.slice(0, 6),
  headline: "Account Executive",
  websites: [],
  is_self: true,
  connections_count: one.relations.size,
  follower_count: one.relations.size,
  public_profile_url: profileUrl(one.ownerSlug)
})

/** A relation (`GET /users/relations`). */
export const relation = (person: DirectoryPerson, since: number) => ({
  object: "UserRelation",
  first_name: person.firstName,
  last_name: person.lastName,
  headline: person.headline,
  public_identifier: person.slug,
  public_profile_url: profileUrl(person.slug),
  created_at: since,
  member_id: person.providerId,
  member_urn: `urn:li:member:${person.providerId.length * 7919}`,
  connection_urn: `urn:li:fsd_connection:${person.providerId}`
})

/** A sent invitation (`GET /users/invite/sent`). */
export const sentInvitation = (invitation: SentInvitation) => {
  const person = personBy(invitation.providerId)
  return {
    object: "InvitationSent",
    id: invitation.id,
    invited_user: person === undefined ? null : `${person.firstName} ${person.lastName}`,
    invited_user_id: invitation.providerId,
    invited_user_public_id: person?.slug ?? null,
    invited_user_description: person?.headline ?? null,
    date: iso(invitation.at),
    parsed_datetime: iso(invitation.at),
    invitation_text: invitation.text
  }
}

/** A received invitation (`GET /users/invite/received`: not in the SDK). */
export const receivedInvitation = (invitation: ReceivedInvitation) => ({
  object: "InvitationReceived",
  id: invitation.id,
  date: iso(invitation.at),
  parsed_datetime: iso(invitation.at),
  invitation_text: invitation.text,
  inviter: {
    inviter_name: `${invitation.from.firstName} ${invitation.from.lastName}`,
    inviter_id: invitation.from.providerId,
    inviter_public_identifier: invitation.from.slug,
    inviter_description: invitation.from.headline
  },
  specifics: { provider: "LINKEDIN", shared_secret: invitation.secret }
})

const authorOf = (slug: string) => {
  const person = personBy(slug)
  if (person !== undefined) return { public_identifier: person.slug, name: `${person.firstName} ${person.lastName}`, is_company: false }
  const company = companyBy(slug)
  return { public_identifier: slug, name: company?.name ?? slug, is_company: company !== undefined }
}

/** A post (`GET /posts/{id}`, `GET /users/{identifier}/posts`). */
export const post = (one: DirectoryPost, counts: { readonly reactions: number; readonly comments: number }) => ({
  object: "Post",
  provider: "LINKEDIN",
  id: one.id,
  social_id: `urn:li:activity:${one.id}`,
  share_url: `https://www.linkedin.com/feed/update/urn:li:activity:${one.id}`,
  text: one.text,
  date: iso(Date.parse(one.at)),
  parsed_datetime: one.at,
  reaction_counter: counts.reactions,
  comment_counter: counts.comments,
  repost_counter: 1,
  impressions_counter: 250,
  author: authorOf(one.authorSlug),
  permissions: { can_react: true, can_share: true, can_post_comments: true },
  is_repost: false,
  attachments: []
})

/** The account's own comment (`GET /posts/{id}/comments`). */
export const comment = (one: Account, own: OwnComment) => ({
  object: "Comment",
  id: own.id,
  author: "Seat",
  author_details: {
    id: one.ownerProviderId,
    headline: "Account Executive",
    profile_url: profileUrl(one.ownerSlug),
    network_distance: null
  },
  date: iso(own.at),
  text: own.text,
  reaction_counter: 0,
  reply_counter: 0
})

/** A company page (`GET /linkedin/company/{identifier}`). */
export const company = (one: DirectoryCompany) => ({
  object: "CompanyProfile",
  id: one.id,
  name: one.name,
  entity_urn: `urn:li:fsd_company:${one.id}`,
  public_identifier: one.slug,
  profile_url: `https://www.linkedin.com/company/${one.slug}`,
  tagline: one.tagline,
  description: `${one.name}: ${one.tagline}.`,
  followers_count: one.followers,
  is_following: false,
  is_employee: false,
  messaging: { is_enabled: false },
  default_locale: "en_US",
  viewer_permissions: {
    canMembersInviteToFollow: false,
    canReadContentSuggestions: false,
    canReadMessages: false,
    canUpdateOrganizationProfile: false,
    canCreateOrganicShare: false,
    canReadAdminDashboard: false,
    canReadOrganizationActivity: false,
    canEditCurators: false,
    canManageOrganizationalPageFollow: false,
    canReadOrganizationFollowerAnalytics: false,
    canInviteMemberToFollow: false,
    canReadOrganizationLeadsAnalytics: false,
    canEditPendingAdministrators: false,
    canManageMessagingAccess: false,
    canSeeEmployeeExperienceAsMember: false,
    canEmployeesInviteToFollow: false,
    canSeeOrganizationAdministrativePage: false
  },
  organization_type: "PRIVATELY_HELD",
  locations: [{ is_headquarter: true, country: one.country, city: one.city, street: [] }],
  industry: [one.industry],
  employee_count: one.employees,
  website: one.website,
  foundation_date: one.founded,
  localized_description: [{ en_US: `${one.name}: ${one.tagline}.` }]
})

/** A message (`GET /chats/{id}/messages`, `GET /messages`). */
export const message = (one: Account, chat: Chat, sent: ChatMessage) => ({
  object: "Message",
  provider_id: `urn:li:msg:${sent.id}`,
  sender_id: sent.fromMe ? one.ownerProviderId : chat.attendee.providerId,
  text: sent.text,
  attachments: [],
  id: sent.id,
  account_id: one.id,
  chat_id: chat.id,
  chat_provider_id: `urn:li:thread:${chat.id}`,
  timestamp: iso(sent.at),
  is_sender: sent.fromMe ? 1 : 0,
  reactions: [],
  seen: sent.fromMe ? 1 : 0,
  seen_by: {},
  hidden: 0,
  deleted: 0,
  edited: 0,
  is_event: 0,
  delivered: 1,
  behavior: null,
  original: JSON.stringify({ text: sent.text }),
  sender_attendee_id: sent.fromMe ? `att-${one.id}` : `att-${chat.attendee.providerId}`
})

/** A chat (`GET /chats`, `GET /chats/{id}`); the single chat also carries its last message. */
export const chat = (one: Account, conversation: Chat) => ({
  object: "Chat",
  id: conversation.id,
  account_id: one.id,
  account_type: "LINKEDIN",
  provider_id: `urn:li:thread:${conversation.id}`,
  attendee_provider_id: conversation.attendee.providerId,
  name: null,
  type: 0,
  timestamp: conversation.messages.length === 0 ? null : iso(conversation.messages[conversation.messages.length - 1].at),
  unread_count: conversation.messages.filter((sent) => !sent.fromMe).length,
  archived: 0,
  muted_until: null,
  read_only: 0,
  ...(conversation.inmail ? { content_type: "inmail" } : {}),
  folder: ["INBOX", "INBOX_LINKEDIN_CLASSIC"]
})

/** The other attendee of a chat (`GET /chats/{id}/attendees`). */
export const attendee = (one: Account, person: DirectoryPerson) => ({
  object: "ChatAttendee",
  id: `att-${person.providerId}`,
  account_id: one.id,
  provider_id: person.providerId,
  name: `${person.firstName} ${person.lastName}`,
  is_self: 0,
  profile_url: profileUrl(person.slug),
  specifics: {
    provider: "LINKEDIN",
    member_urn: `urn:li:member:${person.providerId.length * 7919}`,
    occupation: person.headline,
    network_distance: one.relations.has(person.providerId) ? "DISTANCE_1" : "DISTANCE_2",
    location: person.location,
    headline: person.headline
  }
})

/** A people search result (`POST /linkedin/search`: not in the SDK). */
export const peopleResult = (one: Account, person: DirectoryPerson) => ({
  object: "SearchResult",
  type: "PEOPLE",
  id: person.providerId,
  public_identifier: person.slug,
  public_profile_url: profileUrl(person.slug),
  profile_url: profileUrl(person.slug),
  name: `${person.firstName} ${person.lastName}`,
  headline: person.headline,
  location: person.location,
  network_distance: distanceOf(one, person) === "FIRST_DEGREE"
    ? "DISTANCE_1"
    : distanceOf(one, person) === "SECOND_DEGREE"
    ? "DISTANCE_2"
    : "DISTANCE_3"
})

/** A company search result (`POST /linkedin/search`). */
export const companyResult = (one: DirectoryCompany) => ({
  object: "SearchResult",
  type: "COMPANY",
  id: one.id,
  name: one.name,
  location: `${one.city}, ${one.country}`,
  profile_url: `https://www.linkedin.com/company/${one.slug}`,
  industry: one.industry,
  summary: one.tagline,
  followers_count: one.followers,
  headcount: one.employees <= 500 ? "201-500" : "1001-5000"
})

/**
 * An error as Unipile's API v1 answers it: the status, a type `errors/<name>`, a title and a detail
 * (RFC 7807 problem details).
 */
export const problem = (status: number, type: string, detail: string) => ({
  title: titles[status] ?? "Error",
  detail,
  instance: `req-${status}-${type.length}`,
  status,
  type: `errors/${type}`
})

const titles: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
  504: "Gateway Timeout"
}
