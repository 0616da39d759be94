/**
 * The command catalogue: the 21 commands (11 reads, 10 writes), each with
 * its input and result schema, the limit category it spends and a
 * description. The HTTP contract, the jobs and the network driver are all
 * typed from this one table.
 */
import { Schema } from "effect"
import { COMMENT_MAX, MESSAGE_MAX, NOTE_MAX, POST_MAX } from "./CommandInputs.ts"
import type { Category } from "./Limits.ts"
import {
  ChatPage,
  Company,
  CompanySearchPage,
  Conversation,
  PeopleSearchPage,
  Person,
  Post,
  PostPage,
  ProfileViewerPage,
  ReceivedInvitationPage,
  Ssi
} from "./NetworkModels.ts"
import * as Inputs from "./CommandInputs.ts"
import * as Results from "./CommandResults.ts"

/** Reads look things up; writes change something on the network. */
export type CommandKind = "read" | "write"

/** One entry of the catalogue. */
export interface CommandSpec<
  Name extends string = string,
  Kind extends CommandKind = CommandKind,
  I extends Schema.Top = Schema.Top,
  R extends Schema.Top = Schema.Top
> {
  readonly name: Name
  readonly kind: Kind
  readonly input: I
  readonly result: R
  /** The limit category a job of this command spends (decisions, "Which command uses which category"), or null. */
  readonly category: Category | null
  /** The category it spends instead when it goes as an InMail (`send_message` whose input asks for one), or null. */
  readonly inMailCategory: Category | null
  /** The text a write sends, which a person reads and may edit before it goes (an approval); null when it sends none. */
  readonly text: SentText | null
  readonly description: string
}

/**
 * The text a write sends: the input field that holds it (a field of the command's input, checked where the entry is
 * written), the network's limit on it, and whether it may be left out.
 */
export interface SentText<Field extends string = string> {
  readonly field: Field
  readonly max: number
  /** Whether the write may go without it (an invitation without a note). */
  readonly optional: boolean
}

/** What a command's entry says beyond its schemas; absent: none. */
interface Facts<I extends Schema.Top> {
  readonly category?: Category
  readonly inMailCategory?: Category
  readonly text?: SentText<keyof I["Type"] & string>
}

const spec = <const Name extends string, const Kind extends CommandKind, I extends Schema.Top, R extends Schema.Top>(
  name: Name,
  kind: Kind,
  input: I,
  result: R,
  description: string,
  facts: Facts<I> = {}
): CommandSpec<Name, Kind, I, R> => ({
  name,
  kind,
  input,
  result,
  category: facts.category ?? null,
  inMailCategory: facts.inMailCategory ?? null,
  text: facts.text ?? null,
  description
})

/** Every command by name. */
export const commands = {
  get_profile: spec(
    "get_profile",
    "read",
    Inputs.GetProfileInput,
    Person,
    "A person's full profile, as the account sees it.",
    { category: "profile_views" }
  ),
  get_company: spec(
    "get_company",
    "read",
    Inputs.GetCompanyInput,
    Company,
    "A company page.",
    { category: "company_views" }
  ),
  search_people: spec(
    "search_people",
    "read",
    Inputs.SearchPeopleInput,
    PeopleSearchPage,
    "Search people by keywords, title, company, location, industry and connection degree; paged.",
    { category: "search_rows" }
  ),
  search_companies: spec(
    "search_companies",
    "read",
    Inputs.SearchCompaniesInput,
    CompanySearchPage,
    "Search companies by keywords, industry, location and size; paged.",
    { category: "search_rows" }
  ),
  get_posts: spec(
    "get_posts",
    "read",
    Inputs.GetPostsInput,
    PostPage,
    "A person's or a company's recent posts; paged."
  ),
  get_post: spec("get_post", "read", Inputs.GetPostInput, Post, "One post with its engagement."),
  list_chats: spec(
    "list_chats",
    "read",
    Inputs.PageInput,
    ChatPage,
    "The account's conversations, most recent first; paged.",
    { category: "list_polls" }
  ),
  get_conversation: spec(
    "get_conversation",
    "read",
    Inputs.GetConversationInput,
    Conversation,
    "The messages of one chat, oldest first."
  ),
  list_invites: spec(
    "list_invites",
    "read",
    Inputs.PageInput,
    ReceivedInvitationPage,
    "Invitations the account received and has not answered; paged.",
    { category: "list_polls" }
  ),
  profile_viewers: spec(
    "profile_viewers",
    "read",
    Inputs.PageInput,
    ProfileViewerPage,
    "Who viewed the account's profile in the last 90 days; paged."
  ),
  ssi: spec("ssi", "read", Inputs.SsiInput, Ssi, "The account's Social Selling Index."),
  connect: spec(
    "connect",
    "write",
    Inputs.ConnectInput,
    Results.InvitationSent,
    "Invite a person to connect, with an optional note.",
    { category: "invites", text: { field: "note", max: NOTE_MAX, optional: true } }
  ),
  withdraw_invite: spec(
    "withdraw_invite",
    "write",
    Inputs.WithdrawInviteInput,
    Results.InvitationWithdrawn,
    "Withdraw a pending invitation; the person cannot be invited again for 3 weeks.",
    { category: "invite_withdrawals" }
  ),
  send_message: spec(
    "send_message",
    "write",
    Inputs.SendMessageInput,
    Results.MessageSent,
    "Message a connection, reply in a chat, or send an InMail.",
    { category: "messages", inMailCategory: "inmails", text: { field: "text", max: MESSAGE_MAX, optional: false } }
  ),
  accept_invite: spec(
    "accept_invite",
    "write",
    Inputs.AcceptInviteInput,
    Results.InvitationAnswered,
    "Accept a received invitation."
  ),
  decline_invite: spec(
    "decline_invite",
    "write",
    Inputs.DeclineInviteInput,
    Results.InvitationAnswered,
    "Decline a received invitation."
  ),
  endorse: spec(
    "endorse",
    "write",
    Inputs.EndorseInput,
    Results.Endorsed,
    "Endorse a connection for one of their skills.",
    { category: "endorsements" }
  ),
  save_lead: spec(
    "save_lead",
    "write",
    Inputs.SaveLeadInput,
    Results.LeadSaved,
    "Save a person to a Sales Navigator lead list."
  ),
  react: spec("react", "write", Inputs.ReactInput, Results.Reacted, "React to a post.", { category: "reactions" }),
  comment: spec(
    "comment",
    "write",
    Inputs.CommentInput,
    Results.Commented,
    "Comment on a post.",
    { category: "comments", text: { field: "text", max: COMMENT_MAX, optional: false } }
  ),
  create_post: spec(
    "create_post",
    "write",
    Inputs.CreatePostInput,
    Results.PostCreated,
    "Publish a post as the account.",
    { category: "posts", text: { field: "text", max: POST_MAX, optional: false } }
  )
} as const

type Commands = typeof commands

/** A command's name. */
export type CommandName = keyof Commands

/** The names of the read commands. */
export type ReadCommand = { [K in CommandName]: Commands[K]["kind"] extends "read" ? K : never }[CommandName]

/** The names of the write commands. */
export type WriteCommand = { [K in CommandName]: Commands[K]["kind"] extends "write" ? K : never }[CommandName]

/** The decoded input of each command. */
export type CommandInputs = { readonly [K in CommandName]: Commands[K]["input"]["Type"] }

/** The result of each command. */
export type CommandResults = { readonly [K in CommandName]: Commands[K]["result"]["Type"] }

/** The decoded input of a command. */
export type InputOf<C extends CommandName> = CommandInputs[C]

/** The result of a command. */
export type ResultOf<C extends CommandName> = CommandResults[C]

/** Every command, in the spec's order: reads then writes. */
export const catalogue: ReadonlyArray<Commands[CommandName]> = Object.values(commands)

/** The names of every command, in the catalogue's order. */
export const commandNames: ReadonlyArray<CommandName> = catalogue.map((entry) => entry.name)

const isRead = (name: CommandName): name is ReadCommand => commands[name].kind === "read"

/** The read commands' names. */
export const readCommands: ReadonlyArray<ReadCommand> = commandNames.filter(isRead)

/** The write commands' names. */
export const writeCommands: ReadonlyArray<WriteCommand> = commandNames.filter(
  (name): name is WriteCommand => !isRead(name)
)

/** Whether a name is a write command's. */
export const isWriteCommand = (name: string): name is WriteCommand => isCommandName(name) && !isRead(name)

/** A command name, as a schema (for the `command` of `POST /v1/jobs`). */
export const CommandNameSchema = Schema.Literals([
  "get_profile",
  "get_company",
  "search_people",
  "search_companies",
  "get_posts",
  "get_post",
  "list_chats",
  "get_conversation",
  "list_invites",
  "profile_viewers",
  "ssi",
  "connect",
  "withdraw_invite",
  "send_message",
  "accept_invite",
  "decline_invite",
  "endorse",
  "save_lead",
  "react",
  "comment",
  "create_post"
]).annotate({ description: "A command: 11 reads and 10 writes" })

/** Whether a string names a command. */
export const isCommandName = (name: string): name is CommandName => Object.hasOwn(commands, name)

/** The catalogue's entry of a command named by a stored string (a job's kind); undefined for a name it does not know. */
export const commandOf = (name: string): Commands[CommandName] | undefined => isCommandName(name) ? commands[name] : undefined

/**
 * The budget category a job spends, from its command and its input as stored: the entry's InMail category when the
 * input asks to go as an InMail (`inmail: true`, validated by the command's schema when the job was created).
 */
export const categoryOfJob = (kind: string, input: unknown): Category | null => {
  const entry = commandOf(kind)
  if (entry === undefined) return null
  const asInMail = typeof input === "object" && input !== null && "inmail" in input && input.inmail === true
  return asInMail && entry.inMailCategory !== null ? entry.inMailCategory : entry.category
}
