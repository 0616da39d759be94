/**
 * The input of every command, as Effect Schemas with descriptions and
 * examples (they become the OpenAPI docs). Addresses are plain strings here:
 * the network driver parses them and answers `invalidInput` naming the
 * reason, so every accepted address form works without the contract listing
 * them all.
 */
import { Schema } from "effect"
import { exactlyOneOf } from "./Rules.ts"
import { Text } from "./Text.ts"
import { CompanySize, ConnectionDegree } from "./NetworkModels.ts"

/** The network's limit on an invitation note. */
export const NOTE_MAX = 300
/** The network's limit on a message. */
export const MESSAGE_MAX = 8000
/** The network's limit on an InMail subject. */
export const SUBJECT_MAX = 200
/** The network's limit on a comment. */
export const COMMENT_MAX = 1250
/** The network's limit on a post. */
export const POST_MAX = 3000
/** The longest address accepted. */
export const ADDRESS_MAX = 2048

const notBlank = Schema.makeFilter((text: string) => text.trim().length > 0 || "must not be blank", {
  expected: "a non-blank string",
  toJsonSchema: () => ({ pattern: "\\S" })
})

/** Text of 1 to `max` characters that is not only white space. */
export const NonBlankText = (max: number, description: string) =>
  Text.check(Schema.isMaxLength(max), notBlank).annotate({ description })

const address = (description: string, examples: ReadonlyArray<string>) =>
  Text.check(Schema.isMinLength(1), Schema.isMaxLength(ADDRESS_MAX)).annotate({ description, examples })

/** A person's address: a profile URL, a Sales Navigator lead URL, a provider id or a slug. */
export const PersonAddress = address(
  "The person: https://www.linkedin.com/in/<slug>, a Sales Navigator lead address, a provider id (ACoAA...) or a bare slug",
  ["https://www.linkedin.com/in/maria-garcia-3a9f02c1b", "ACoAAbWFyaWEtZ2FyY2lhLTNhOWYwMmMxYg"]
)

/** A company's address: a company page URL, a numeric id or a slug. */
export const CompanyAddress = address(
  "The company: https://www.linkedin.com/company/<slug or id>, a numeric company id or a bare slug",
  ["https://www.linkedin.com/company/harborview-analytics", "74474624"]
)

/** A post's address: an activity urn, a /feed/update/ URL, a /posts/ URL or an activity id. */
export const PostAddress = address(
  "The post: urn:li:activity:<digits>, https://www.linkedin.com/feed/update/urn:li:activity:<digits>, a /posts/ address or the activity id",
  ["urn:li:activity:7528731723694092345"]
)

const Cursor = Text.check(Schema.isMaxLength(200)).annotate({
  description: "The `cursor` of the previous page; omit for the first page",
  examples: ["b2Zmc2V0OjEw"]
})

const Limit = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
  description: "Items per page, 1 to 100 (default 10)",
  examples: [25]
})

const paging = { cursor: Schema.optionalKey(Cursor), limit: Schema.optionalKey(Limit) }

const Keyword = (description: string, example: string) =>
  Text.check(Schema.isMaxLength(200)).annotate({ description, examples: [example] })

// -- reads -------------------------------------------------------------------

/** `get_profile` */
export const GetProfileInput = Schema.Struct({ person: PersonAddress }).annotate({
  identifier: "GetProfileInput",
  description: "The person whose profile to read",
  examples: [{ person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b" }]
})

/** `get_company` */
export const GetCompanyInput = Schema.Struct({ company: CompanyAddress }).annotate({
  identifier: "GetCompanyInput",
  description: "The company page to read",
  examples: [{ company: "https://www.linkedin.com/company/harborview-analytics" }]
})

/** `search_people` */
export const SearchPeopleInput = Schema.Struct({
  keywords: Schema.optionalKey(Keyword("Free text: titles, companies, places, industries or names", "vp sales saas")),
  title: Schema.optionalKey(Keyword("Current job title contains this", "VP of Sales")),
  company: Schema.optionalKey(Keyword("Current employer's name contains this", "Harborview")),
  location: Schema.optionalKey(Keyword("Location contains this", "Madrid")),
  industry: Schema.optionalKey(Keyword("Employer's industry contains this", "Software Development")),
  connectionDegree: Schema.optionalKey(
    Schema.Array(ConnectionDegree).check(Schema.isMaxLength(3)).annotate({
      description: "Only people at these distances from the account",
      examples: [[2, 3]]
    })
  ),
  ...paging
}).annotate({
  identifier: "SearchPeopleInput",
  description: "A people search; every filter is optional and all given ones must match. Spends one search row per result returned.",
  examples: [{ keywords: "vp sales", location: "Madrid", connectionDegree: [2], limit: 25 }]
})

/** `search_companies` */
export const SearchCompaniesInput = Schema.Struct({
  keywords: Schema.optionalKey(Keyword("Words in the name, industry, headquarters or specialties", "analytics")),
  industry: Schema.optionalKey(Keyword("Industry contains this", "Software Development")),
  location: Schema.optionalKey(Keyword("Headquarters contains this", "Bogotá")),
  companySize: Schema.optionalKey(
    Schema.Array(CompanySize).check(Schema.isMaxLength(CompanySize.literals.length)).annotate({ description: "Only these employee ranges", examples: [["51-200", "201-500"]] })
  ),
  ...paging
}).annotate({
  identifier: "SearchCompaniesInput",
  description: "A company search. Spends one search row per result returned.",
  examples: [{ keywords: "analytics", companySize: ["201-500"] }]
})

/** `get_posts` */
export const GetPostsInput = Schema.Struct({
  person: Schema.optionalKey(PersonAddress),
  company: Schema.optionalKey(CompanyAddress),
  ...paging
}).check(exactlyOneOf("person", "company")).annotate({
  identifier: "GetPostsInput",
  description: "The recent posts of a person or of a company page (exactly one of the two), newest first",
  examples: [
    { person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b", limit: 5 },
    { company: "harborview-analytics" }
  ]
})

/** `get_post` */
export const GetPostInput = Schema.Struct({ post: PostAddress }).annotate({
  identifier: "GetPostInput",
  description: "The post to read",
  examples: [{ post: "urn:li:activity:7528731723694092345" }]
})

/** `list_chats`, `list_invites` and `profile_viewers`: a page of a list. */
export const PageInput = Schema.Struct(paging).annotate({
  identifier: "PageInput",
  description: "Which page of the list",
  examples: [{}, { cursor: "b2Zmc2V0OjEw", limit: 20 }]
})

/** `get_conversation` */
export const GetConversationInput = Schema.Struct({
  chatId: Text.check(Schema.isMinLength(1), Schema.isMaxLength(400)).annotate({
    description: "A chat id from `list_chats`",
    examples: ["2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc"]
  })
}).annotate({
  identifier: "GetConversationInput",
  description: "The chat whose messages to read",
  examples: [{ chatId: "2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc" }]
})

/** `ssi`: nothing to give; an object with any field at all is refused, as is anything but an object. */
export const SsiInput = Schema.Struct({}).check(
  Schema.makeFilter(
    (input: object) =>
      (typeof input === "object" && !Array.isArray(input) && Object.keys(input).length === 0) ||
      "ssi takes no input: send {} or no fields at all",
    { expected: "an empty object {}", toJsonSchema: () => ({ type: "object", maxProperties: 0, additionalProperties: false }) }
  )
).annotate({
  identifier: "SsiInput",
  description: "No input: the account's own Social Selling Index",
  examples: [{}]
})

// -- writes ------------------------------------------------------------------

/** `connect` */
export const ConnectInput = Schema.Struct({
  person: PersonAddress,
  note: Schema.optionalKey(
    Text.check(Schema.isMaxLength(NOTE_MAX)).annotate({
      description: `An invitation note, at most ${NOTE_MAX} characters (the network's limit). Free accounts may send 5 notes a month; the sixth fails with noteQuotaExhausted. Omit or leave empty for none.`,
      examples: ["Hi María, enjoyed your post on pipeline reviews. Would be glad to connect."]
    })
  )
}).annotate({
  identifier: "ConnectInput",
  description: "Send an invitation to connect",
  examples: [
    {
      person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
      note: "Hi María, enjoyed your post on pipeline reviews. Would be glad to connect."
    },
    { person: "maria-garcia-3a9f02c1b" }
  ]
})

const InvitationId = Text.check(Schema.isMinLength(1), Schema.isMaxLength(400))

/** `withdraw_invite` */
export const WithdrawInviteInput = Schema.Struct({
  invitationId: Schema.optionalKey(
    InvitationId.annotate({
      description: "The `invitationId` that `connect` returned",
      examples: ["5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70"]
    })
  ),
  person: Schema.optionalKey(PersonAddress)
}).check(exactlyOneOf("invitationId", "person")).annotate({
  identifier: "WithdrawInviteInput",
  description: "Withdraw a pending invitation the account sent, by its id or by the person (exactly one). The person cannot be invited again for 3 weeks.",
  examples: [
    { invitationId: "5d1f8a2e-7c43-4b0e-9a61-2f3c4d5e6f70" },
    { person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b" }
  ]
})

/** `send_message` */
export const SendMessageInput = Schema.Struct({
  person: Schema.optionalKey(PersonAddress),
  chatId: Schema.optionalKey(
    Text.check(Schema.isMinLength(1), Schema.isMaxLength(400)).annotate({
      description: "An existing chat from `list_chats`, instead of `person`",
      examples: ["2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc"]
    })
  ),
  text: NonBlankText(MESSAGE_MAX, `The message, 1 to ${MESSAGE_MAX} characters`).annotate({
    examples: ["Thanks for connecting, María! Would a 20-minute call next week be useful?"]
  }),
  inmail: Schema.optionalKey(
    Schema.Boolean.annotate({
      description: "Send as an InMail when the person is not a connection (spends the inmails budget; free accounts have no credits). Ignored for connections."
    })
  ),
  subject: Schema.optionalKey(
    NonBlankText(SUBJECT_MAX, `The InMail subject, at most ${SUBJECT_MAX} characters`).annotate({
      examples: ["Pipeline reviews at Harborview"]
    })
  )
}).check(exactlyOneOf("person", "chatId")).annotate({
  identifier: "SendMessageInput",
  description: "Send a message to a connection (or to anyone as an InMail), by person or by chat (exactly one)",
  examples: [
    {
      person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b",
      text: "Thanks for connecting, María! Would a 20-minute call next week be useful?"
    },
    {
      person: "maria-garcia-3a9f02c1b",
      text: "Hi María, I lead partnerships at Northwind. Could I share a two-minute idea?",
      inmail: true,
      subject: "Pipeline reviews at Harborview"
    },
    { chatId: "2-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc", text: "Tuesday at 2pm works, talk then!" }
  ]
})

const ReceivedInvitationId = InvitationId.annotate({
  description: "The `id` of an invitation from `list_invites`",
  examples: ["inv-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc"]
})

/** `accept_invite` */
export const AcceptInviteInput = Schema.Struct({ invitationId: ReceivedInvitationId }).annotate({
  identifier: "AcceptInviteInput",
  description: "Accept an invitation the account received",
  examples: [{ invitationId: "inv-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc" }]
})

/** `decline_invite` */
export const DeclineInviteInput = Schema.Struct({ invitationId: ReceivedInvitationId }).annotate({
  identifier: "DeclineInviteInput",
  description: "Decline (ignore) an invitation the account received",
  examples: [{ invitationId: "inv-QUNvQUFiV0Z5YVdFdFoyRnlZMmxoTFROaE9XWXdNbU14WWc" }]
})

/** `endorse` */
export const EndorseInput = Schema.Struct({
  person: PersonAddress,
  skill: NonBlankText(80, "One of the skills on the person's profile (case-insensitive)").annotate({ examples: ["Negotiation"] })
}).annotate({
  identifier: "EndorseInput",
  description: "Endorse a connection for a skill on their profile",
  examples: [{ person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b", skill: "Negotiation" }]
})

/** `save_lead` */
export const SaveLeadInput = Schema.Struct({
  person: PersonAddress,
  list: Schema.optionalKey(
    NonBlankText(80, "The Sales Navigator lead list; default \"Leads\"").annotate({ examples: ["Q1 Madrid SaaS"] })
  )
}).annotate({
  identifier: "SaveLeadInput",
  description: "Save a person as a lead in Sales Navigator (needs the sales_navigator product)",
  examples: [{ person: "https://www.linkedin.com/in/maria-garcia-3a9f02c1b", list: "Q1 Madrid SaaS" }]
})

/** The reactions the network offers. */
export const Reaction = Schema.Literals(["like", "celebrate", "support", "love", "insightful", "funny"]).annotate({
  description: "The reaction; a new one replaces the account's earlier reaction to the post"
})
export type Reaction = typeof Reaction.Type

/** `react` */
export const ReactInput = Schema.Struct({ post: PostAddress, reaction: Reaction }).annotate({
  identifier: "ReactInput",
  description: "React to a post",
  examples: [{ post: "urn:li:activity:7528731723694092345", reaction: "insightful" }]
})

/** `comment` */
export const CommentInput = Schema.Struct({
  post: PostAddress,
  text: NonBlankText(COMMENT_MAX, `The comment, 1 to ${COMMENT_MAX} characters`).annotate({
    examples: ["Great point on the third question — we ask the same one."]
  })
}).annotate({
  identifier: "CommentInput",
  description: "Comment on a post",
  examples: [{ post: "urn:li:activity:7528731723694092345", text: "Great point on the third question — we ask the same one." }]
})

/** Who can see a new post. */
export const Visibility = Schema.Literals(["anyone", "connections"]).annotate({
  description: "Who can see the post (default anyone)"
})
export type Visibility = typeof Visibility.Type

/** `create_post` */
export const CreatePostInput = Schema.Struct({
  text: NonBlankText(POST_MAX, `The post, 1 to ${POST_MAX} characters; #hashtags are picked up`).annotate({
    examples: ["Three questions we now ask on every deal review. #sales #revops"]
  }),
  visibility: Schema.optionalKey(Visibility)
}).annotate({
  identifier: "CreatePostInput",
  description: "Publish a post as the account",
  examples: [{ text: "Three questions we now ask on every deal review. #sales #revops", visibility: "anyone" }]
})
