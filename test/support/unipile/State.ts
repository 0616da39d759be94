/**
 * What the provider double's network holds for each account it connected: its sign-in, its
 * relations, the invitations it sent and received, its chats, and its own posts, comments and
 * reactions. Plain records, changed in place by the routes (one process, one test).
 */
import { aiko, type DirectoryPerson, lena, tomas } from "./Directory.ts"

export type CheckpointKind = "2FA" | "OTP" | "CAPTCHA" | "IN_APP_VALIDATION"
export type SourceStatus = "OK" | "CREDENTIALS" | "ERROR" | "STOPPED" | "CONNECTING"
export type PremiumFeature = "premium" | "sales_navigator" | "recruiter"

export interface SentInvitation {
  readonly id: string
  readonly providerId: string
  readonly text: string | null
  readonly at: number
  status: "pending" | "withdrawn" | "accepted"
}

export interface ReceivedInvitation {
  readonly id: string
  readonly from: DirectoryPerson
  readonly text: string | null
  readonly secret: string
  readonly at: number
  handled: boolean
}

export interface ChatMessage {
  readonly id: string
  readonly chatId: string
  readonly fromMe: boolean
  readonly text: string
  readonly at: number
}

export interface Chat {
  readonly id: string
  readonly attendee: DirectoryPerson
  readonly inmail: boolean
  readonly messages: Array<ChatMessage>
}

export interface OwnComment {
  readonly id: string
  readonly postId: string
  readonly text: string
  readonly at: number
}

export interface OwnPost {
  readonly id: string
  readonly text: string
  readonly at: number
}

export interface Account {
  readonly id: string
  /** The `name` given to the hosted link (the service's account id), or the username. */
  name: string
  readonly username: string
  readonly createdAt: number
  readonly features: ReadonlyArray<PremiumFeature>
  status: SourceStatus
  checkpoint: { readonly kind: CheckpointKind; approved: boolean } | undefined
  readonly ownerProviderId: string
  readonly ownerSlug: string
  readonly relations: Map<string, number>
  readonly sent: Array<SentInvitation>
  readonly received: Array<ReceivedInvitation>
  readonly withdrawnAt: Map<string, number>
  readonly chats: Array<Chat>
  readonly posts: Array<OwnPost>
  readonly comments: Array<OwnComment>
  readonly reactions: Map<string, string>
  notesThisMonth: number
}

const encode = (text: string) => Buffer.from(text).toString("base64url")

/** The premium products a double username asks for: it contains `sales`, `recruiter` or `premium`. */
export const featuresOf = (username: string): ReadonlyArray<PremiumFeature> => {
  const name = username.toLowerCase()
  if (name.includes("sales")) return ["premium", "sales_navigator"]
  if (name.includes("recruiter")) return ["premium", "recruiter"]
  if (name.includes("premium")) return ["premium"]
  return []
}

/** The checkpoint a double username stops at, as the sandbox's do: `2fa`, `otp`, `captcha`, `app`. */
export const checkpointOf = (username: string): CheckpointKind | undefined => {
  const name = username.toLowerCase()
  if (name.includes("2fa")) return "2FA"
  if (name.includes("otp")) return "OTP"
  if (name.includes("captcha")) return "CAPTCHA"
  if (name.includes("app")) return "IN_APP_VALIDATION"
  return undefined
}

/** A new account: connected to Tomás since its creation, with Lena's and Aiko's invitations waiting. */
export const newAccount = (id: string, name: string, username: string, now: number): Account => ({
  id,
  name,
  username,
  createdAt: now,
  features: featuresOf(username),
  status: "OK",
  checkpoint: undefined,
  ownerProviderId: `ACoAA${encode(id).slice(0, 24)}`,
  ownerSlug: `seat-${id.slice(0, 8).toLowerCase()}`,
  relations: new Map([[tomas.providerId, now - 86_400_000 * 400]]),
  sent: [],
  received: [{
    id: `7${String(now).slice(-9)}01`,
    from: lena,
    text: "Hi! We met at SaaStr — would love to stay in touch.",
    secret: encode(`${id}:lena`),
    at: now - 3_600_000,
    handled: false
  }, {
    id: `7${String(now).slice(-9)}02`,
    from: aiko,
    text: null,
    secret: encode(`${id}:aiko`),
    at: now - 7_200_000,
    handled: false
  }],
  withdrawnAt: new Map(),
  chats: [],
  posts: [],
  comments: [],
  reactions: new Map(),
  notesThisMonth: 0
})
