/**
 * What the professional network returns, as Effect Schemas: people, companies,
 * posts, search pages, chats and messages, profile viewers, received
 * invitations and the Social Selling Index. The sandbox generates exactly these
 * shapes and a real driver maps the network's answers onto them, so the rest of
 * the service never sees which driver is on.
 */
import { Schema } from "effect"

const DateTime = Schema.String.annotate({
  format: "date-time",
  description: "ISO 8601 date-time (UTC)",
  examples: ["2026-11-21T09:30:00.000Z"]
})

const YearMonth = Schema.String.check(Schema.isPattern(/^\d{4}-(?:0[1-9]|1[0-2])$/)).annotate({
  description: "Year and month, YYYY-MM",
  examples: ["2021-04"]
})

const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

const between = (minimum: number, maximum: number) => Schema.Number.check(Schema.isBetween({ minimum, maximum }))

/** The reply classes of the triage, as in the spec (one list, in `TriageClass.ts`). */
export { TriageClass } from "./TriageClass.ts"

/** 1 = a connection, 2 = a connection of a connection, 3 = further away. */
export const ConnectionDegree = Schema.Literals([1, 2, 3]).annotate({
  description: "Distance from the account: 1 connected, 2 shares a connection, 3 further"
})
export type ConnectionDegree = typeof ConnectionDegree.Type

/** The connection count as the network shows it to others. */
export const ConnectionsBucket = Schema.Literals(["0-99", "100-299", "300-499", "500+"]).annotate({
  description: "Number of connections, bucketed as the network shows it"
})
export type ConnectionsBucket = typeof ConnectionsBucket.Type

/** Company head-count ranges as the network shows them. */
export const CompanySize = Schema.Literals([
  "1-10",
  "11-50",
  "51-200",
  "201-500",
  "501-1,000",
  "1,001-5,000",
  "5,001-10,000",
  "10,001+"
]).annotate({ description: "Employee range" })
export type CompanySize = typeof CompanySize.Type

/** A company named inside another record. */
export const CompanyRef = Schema.Struct({
  id: Schema.String.annotate({ description: "The network's numeric company id", examples: ["74474624"] }),
  name: Schema.String,
  profileUrl: Schema.String.annotate({ description: "The company page" })
}).annotate({ identifier: "CompanyRef", description: "A company named inside another record" })
export type CompanyRef = typeof CompanyRef.Type

/** One position on a profile. */
export const Experience = Schema.Struct({
  title: Schema.String,
  company: CompanyRef,
  location: Schema.String,
  startDate: YearMonth,
  endDate: Schema.NullOr(YearMonth).annotate({ description: "null for the current position" }),
  description: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Experience", description: "One position on a profile" })
export type Experience = typeof Experience.Type

const companyRefExample = {
  id: "74474624",
  name: "Harborview Analytics",
  profileUrl: "https://www.linkedin.com/company/harborview-analytics"
}

const personExample = {
  providerId: "ACoAAbWFyaWEtZ2FyY2lhLTNhOWYwMmMxYg",
  publicIdentifier: "maria-garcia-3a9f02c1b",
  profileUrl: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
  firstName: "María",
  lastName: "García",
  name: "María García",
  headline: "VP of Sales at Harborview Analytics | B2B SaaS",
  company: companyRefExample,
  title: "VP of Sales",
  location: "Madrid, Community of Madrid, Spain",
  industry: "Software Development",
  connectionDegree: 2,
  mutualConnections: 12,
  followers: 2140,
  connections: "500+",
  about: "I help revenue teams build predictable pipeline.",
  experience: [{
    title: "VP of Sales",
    company: companyRefExample,
    location: "Madrid, Community of Madrid, Spain",
    startDate: "2022-03",
    endDate: null,
    description: null
  }],
  skills: ["B2B Sales", "Salesforce", "Negotiation"],
  recentActivity: { lastPostAt: "2026-11-18T08:12:00.000Z", postsPerMonth: 2.5 },
  openToWork: false,
  premium: true,
  signals: { hasPhoto: true, verified: true, creatorMode: false, profileCompleteness: 92 }
} as const

/** A person's profile as `get_profile` returns it. */
export const Person = Schema.Struct({
  providerId: Schema.String.annotate({ description: "The network's identifier of the person (ACoAA...)" }),
  publicIdentifier: Schema.String.annotate({ description: "The slug of the public profile address" }),
  profileUrl: Schema.String.annotate({ description: "The public profile address" }),
  firstName: Schema.String,
  lastName: Schema.String,
  name: Schema.String,
  headline: Schema.String,
  company: CompanyRef.annotate({ description: "The current employer" }),
  title: Schema.String.annotate({ description: "The current job title" }),
  location: Schema.String,
  industry: Schema.String,
  connectionDegree: ConnectionDegree,
  mutualConnections: Count.annotate({ description: "Connections the account and the person share" }),
  followers: Count,
  connections: ConnectionsBucket,
  about: Schema.NullOr(Schema.String).annotate({ description: "The About section, null when empty" }),
  experience: Schema.Array(Experience).annotate({ description: "Positions, current first" }),
  skills: Schema.Array(Schema.String),
  recentActivity: Schema.Struct({
    lastPostAt: Schema.NullOr(DateTime).annotate({ description: "The person's latest post, null when none" }),
    postsPerMonth: between(0, 100).annotate({ description: "Average posts per month" })
  }).annotate({ description: "How active the person is" }),
  openToWork: Schema.Boolean,
  premium: Schema.Boolean,
  signals: Schema.Struct({
    hasPhoto: Schema.Boolean,
    verified: Schema.Boolean.annotate({ description: "Identity verified on the network" }),
    creatorMode: Schema.Boolean.annotate({ description: "The profile's main button is Follow, not Connect" }),
    profileCompleteness: between(0, 100).pipe(Schema.check(Schema.isInt())).annotate({
      description: "How complete the profile is, 0 to 100"
    })
  }).annotate({ description: "Signals that bear on how an invitation will be received" })
}).annotate({
  identifier: "Person",
  description: "A person's profile on the network",
  examples: [personExample]
})
export type Person = typeof Person.Type

const personSummaryExample = {
  providerId: personExample.providerId,
  publicIdentifier: personExample.publicIdentifier,
  profileUrl: personExample.profileUrl,
  name: personExample.name,
  headline: personExample.headline,
  location: personExample.location,
  connectionDegree: 2
} as const

/** A person as lists show them (search results, chats, viewers, invitations). */
export const PersonSummary = Schema.Struct({
  providerId: Schema.String,
  publicIdentifier: Schema.String,
  profileUrl: Schema.String,
  name: Schema.String,
  headline: Schema.String,
  location: Schema.String,
  connectionDegree: ConnectionDegree
}).annotate({
  identifier: "PersonSummary",
  description: "A person as lists show them",
  examples: [personSummaryExample]
})
export type PersonSummary = typeof PersonSummary.Type

const companyExample = {
  id: "74474624",
  slug: "harborview-analytics",
  name: "Harborview Analytics",
  profileUrl: "https://www.linkedin.com/company/harborview-analytics",
  industry: "Software Development",
  tagline: "Analytics your revenue team will actually use",
  description: "Harborview Analytics builds forecasting software for B2B revenue teams.",
  website: "https://www.harborview-analytics.example",
  headquarters: "Bogotá, Colombia",
  companySize: "201-500",
  employeesOnNetwork: 312,
  followers: 18450,
  founded: 2014,
  type: "Privately Held",
  specialties: ["Revenue analytics", "Forecasting", "SaaS"]
} as const

/** A company page as `get_company` returns it. */
export const Company = Schema.Struct({
  id: Schema.String.annotate({ description: "The network's numeric company id" }),
  slug: Schema.String.annotate({ description: "The slug of the company page address" }),
  name: Schema.String,
  profileUrl: Schema.String,
  industry: Schema.String,
  tagline: Schema.String,
  description: Schema.String,
  website: Schema.NullOr(Schema.String),
  headquarters: Schema.String,
  companySize: CompanySize,
  employeesOnNetwork: Count.annotate({ description: "Members who list the company as their employer" }),
  followers: Count,
  founded: Schema.NullOr(Schema.Int),
  type: Schema.Literals(["Privately Held", "Public Company", "Self-Employed", "Partnership", "Nonprofit"]),
  specialties: Schema.Array(Schema.String)
}).annotate({ identifier: "Company", description: "A company page", examples: [companyExample] })
export type Company = typeof Company.Type

/** A company as search results show it. */
export const CompanySummary = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  name: Schema.String,
  profileUrl: Schema.String,
  industry: Schema.String,
  headquarters: Schema.String,
  companySize: CompanySize,
  followers: Count
}).annotate({
  identifier: "CompanySummary",
  description: "A company as search results show it",
  examples: [{
    id: companyExample.id,
    slug: companyExample.slug,
    name: companyExample.name,
    profileUrl: companyExample.profileUrl,
    industry: companyExample.industry,
    headquarters: companyExample.headquarters,
    companySize: companyExample.companySize,
    followers: companyExample.followers
  }]
})
export type CompanySummary = typeof CompanySummary.Type

/** Who published a post. */
export const PostAuthor = Schema.Struct({
  kind: Schema.Literals(["person", "company"]),
  id: Schema.String.annotate({ description: "Provider id of a person, numeric id of a company" }),
  name: Schema.String,
  headline: Schema.String.annotate({ description: "A person's headline or a company's tagline" }),
  profileUrl: Schema.String
}).annotate({ identifier: "PostAuthor", description: "Who published a post" })
export type PostAuthor = typeof PostAuthor.Type

const postExample = {
  id: "7528731723694092345",
  urn: "urn:li:activity:7528731723694092345",
  url: "https://www.linkedin.com/posts/maria-garcia-3a9f02c1b_pipeline-reviews-activity-7528731723694092345-x9Qa",
  author: {
    kind: "person",
    id: personExample.providerId,
    name: personExample.name,
    headline: personExample.headline,
    profileUrl: personExample.profileUrl
  },
  text: "Pipeline reviews are not status meetings. Three questions we now ask on every deal: ...",
  publishedAt: "2026-11-18T08:12:00.000Z",
  reactions: 84,
  comments: 12,
  reposts: 3,
  hashtags: ["sales", "revops"]
} as const

/** A post as `get_post` and `get_posts` return it. */
export const Post = Schema.Struct({
  id: Schema.String.annotate({ description: "The activity id (digits)" }),
  urn: Schema.String.annotate({ description: "urn:li:activity:<id>, the form `react` and `comment` accept" }),
  url: Schema.String.annotate({ description: "The post's public address" }),
  author: PostAuthor,
  text: Schema.String,
  publishedAt: DateTime,
  reactions: Count,
  comments: Count,
  reposts: Count,
  hashtags: Schema.Array(Schema.String)
}).annotate({ identifier: "Post", description: "A post on the network", examples: [postExample] })
export type Post = typeof Post.Type

/**
 * One page of a list: its items, the total the network reports and the cursor
 * of the next page (null on the last page).
 */
export const Page = <S extends Schema.Constraint>(item: S, identifier: string) =>
  Schema.Struct({
    items: Schema.Array(item),
    total: Count.annotate({ description: "Matches the network reports (it shows at most 1,000 of them)" }),
    cursor: Schema.NullOr(Schema.String).annotate({ description: "Pass back for the next page; null on the last" })
  }).annotate({ identifier, description: `One page of ${identifier.replace(/Page$/, "")} results` })

/** A page of `search_people` results. */
export const PeopleSearchPage = Page(PersonSummary, "PeopleSearchPage").annotate({
  examples: [{ items: [personSummaryExample], total: 1840, cursor: "b2Zmc2V0OjEw" }]
})
export type PeopleSearchPage = typeof PeopleSearchPage.Type

/** A page of `search_companies` results. */
export const CompanySearchPage = Page(CompanySummary, "CompanySearchPage").annotate({
  examples: [{
    items: [{
      id: companyExample.id,
      slug: companyExample.slug,
      name: companyExample.name,
      profileUrl: companyExample.profileUrl,
      industry: companyExample.industry,
      headquarters: companyExample.headquarters,
      companySize: companyExample.companySize,
      followers: companyExample.followers
    }],
    total: 1,
    cursor: null
  }]
})
export type CompanySearchPage = typeof CompanySearchPage.Type

const messageExample = {
  id: "msg-5f1c2a9e0b7d4c31",
  chatId: "2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc",
  direction: "received",
  senderProviderId: personExample.providerId,
  text: "Thanks for reaching out — happy to chat next Tuesday at 2pm?",
  sentAt: "2026-11-20T15:04:00.000Z"
} as const

/** One message of a conversation. */
export const Message = Schema.Struct({
  id: Schema.String,
  chatId: Schema.String,
  direction: Schema.Literals(["sent", "received"]).annotate({ description: "sent by the account or received by it" }),
  senderProviderId: Schema.NullOr(Schema.String).annotate({ description: "The sender; null when it is the account" }),
  text: Schema.String,
  sentAt: DateTime
}).annotate({ identifier: "Message", description: "One message of a conversation", examples: [messageExample] })
export type Message = typeof Message.Type

const chatExample = {
  id: messageExample.chatId,
  attendee: personSummaryExample,
  lastMessage: messageExample,
  unreadCount: 1,
  updatedAt: messageExample.sentAt
} as const

/** A conversation with one person, as `list_chats` shows it. */
export const Chat = Schema.Struct({
  id: Schema.String.annotate({ description: "The chat id, for `get_conversation` and `send_message`" }),
  attendee: PersonSummary,
  lastMessage: Message,
  unreadCount: Count,
  updatedAt: DateTime
}).annotate({ identifier: "Chat", description: "A conversation with one person", examples: [chatExample] })
export type Chat = typeof Chat.Type

/** A page of `get_posts`, newest first. */
export const PostPage = Page(Post, "PostPage").annotate({
  examples: [{ items: [postExample], total: 31, cursor: "b2Zmc2V0OjEw" }]
})
export type PostPage = typeof PostPage.Type

/** A page of `list_chats`. */
export const ChatPage = Page(Chat, "ChatPage").annotate({
  examples: [{ items: [chatExample], total: 23, cursor: "b2Zmc2V0OjIw" }]
})
export type ChatPage = typeof ChatPage.Type

/** The messages of one chat, oldest first, as `get_conversation` returns them. */
export const Conversation = Schema.Struct({
  chatId: Schema.String,
  attendee: PersonSummary,
  messages: Schema.Array(Message).annotate({ description: "Oldest first" })
}).annotate({
  identifier: "Conversation",
  description: "The messages of one chat",
  examples: [{ chatId: chatExample.id, attendee: personSummaryExample, messages: [messageExample] }]
})
export type Conversation = typeof Conversation.Type

/** Someone who looked at the account's profile. */
export const ProfileViewer = Schema.Struct({
  viewer: Schema.NullOr(PersonSummary).annotate({ description: "null when the viewer browses privately" }),
  obscuredAs: Schema.NullOr(Schema.String).annotate({
    description: "What the network shows of a private viewer, e.g. \"Someone at Harborview Analytics\""
  }),
  viewedAt: DateTime
}).annotate({
  identifier: "ProfileViewer",
  description: "Someone who looked at the account's profile",
  examples: [
    { viewer: personSummaryExample, obscuredAs: null, viewedAt: "2026-11-20T10:41:00.000Z" },
    { viewer: null, obscuredAs: "Someone at Harborview Analytics", viewedAt: "2026-11-19T16:02:00.000Z" }
  ]
})
export type ProfileViewer = typeof ProfileViewer.Type

/** A page of `profile_viewers`, newest first. */
export const ProfileViewerPage = Page(ProfileViewer, "ProfileViewerPage").annotate({
  examples: [{
    items: [{ viewer: personSummaryExample, obscuredAs: null, viewedAt: "2026-11-20T10:41:00.000Z" }],
    total: 57,
    cursor: "b2Zmc2V0OjEw"
  }]
})
export type ProfileViewerPage = typeof ProfileViewerPage.Type

/** An invitation the account received, as `list_invites` shows it. */
export const ReceivedInvitation = Schema.Struct({
  id: Schema.String.annotate({ description: "For `accept_invite` and `decline_invite`" }),
  from: PersonSummary,
  message: Schema.NullOr(Schema.String).annotate({ description: "The note, null when none" }),
  sentAt: DateTime
}).annotate({
  identifier: "ReceivedInvitation",
  description: "An invitation the account received",
  examples: [{
    id: "inv-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc",
    from: personSummaryExample,
    message: "Hi! We met at SaaStr — would love to stay in touch.",
    sentAt: "2026-11-19T08:30:00.000Z"
  }]
})
export type ReceivedInvitation = typeof ReceivedInvitation.Type

/** A page of `list_invites`, newest first. */
export const ReceivedInvitationPage = Page(ReceivedInvitation, "ReceivedInvitationPage").annotate({
  examples: [{ items: [], total: 0, cursor: null }]
})
export type ReceivedInvitationPage = typeof ReceivedInvitationPage.Type

const pillar = between(0, 25).annotate({ description: "0 to 25" })
const topPercent = between(0, 100).annotate({ description: "The account is in the top this-many percent" })

/** The Social Selling Index of the account (premium sales product). */
export const Ssi = Schema.Struct({
  score: between(0, 100).annotate({ description: "The sum of the four pillars, 0 to 100" }),
  pillars: Schema.Struct({
    establishBrand: pillar.annotate({ description: "Establish your professional brand, 0 to 25" }),
    findRightPeople: pillar.annotate({ description: "Find the right people, 0 to 25" }),
    engageWithInsights: pillar.annotate({ description: "Engage with insights, 0 to 25" }),
    buildRelationships: pillar.annotate({ description: "Build relationships, 0 to 25" })
  }),
  industry: Schema.Struct({ name: Schema.String, topPercent }),
  network: Schema.Struct({ topPercent }),
  computedAt: DateTime.annotate({ description: "The network recomputes the index daily" })
}).annotate({
  identifier: "Ssi",
  description: "The Social Selling Index: four pillars of 0 to 25 and the account's rank",
  examples: [{
    score: 67.42,
    pillars: { establishBrand: 17.8, findRightPeople: 15.12, engageWithInsights: 14.9, buildRelationships: 19.6 },
    industry: { name: "Software Development", topPercent: 8 },
    network: { topPercent: 12 },
    computedAt: "2026-11-21T00:00:00.000Z"
  }]
})
export type Ssi = typeof Ssi.Type
