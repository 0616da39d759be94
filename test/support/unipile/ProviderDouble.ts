/**
 * A faithful double of the Unipile provider for tests: a local HTTP server speaking Unipile's API
 * v1 (https://developer.unipile.com/v1.0/reference, as `unipile-node-sdk` 1.9.3 calls it) for
 * LinkedIn accounts. Accounts (native sign-in with checkpoints, hosted auth links and their
 * notify callback, reconnection, deletion), the account's own profile, profiles, relations,
 * invitations sent and received, chats and messages (with InMail), posts, comments and
 * reactions, company pages, search, webhooks with Unipile's payloads, cursors, Unipile's error
 * bodies and status codes, and a rate limit.
 *
 * Every answer to a call the SDK makes is judged by the SDK's own validator for that call
 * (`Conformance.ts`); a refused answer is kept in `violations`, which tests assert empty.
 * Faults are injected per route: an error answered instead, or a reply lost after the work was
 * done (a timeout that happened).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { judge, type SdkRoute, type Violation } from "./Conformance.ts"
import { companies, companyBy, people, personBy, posts } from "./Directory.ts"
import * as R from "./Responses.ts"
import { type Account, type Chat, checkpointOf, newAccount } from "./State.ts"

/** A route's name: an SDK call's (`Conformance.ts`) or a REST call the SDK does not cover. */
export type RouteName =
  | SdkRoute
  | "linkedin.search"
  | "users.invite.received"
  | "users.invite.handle"
  | "users.reactions"

/** What a fault does to the next calls of a route. */
export type Fault =
  | { readonly kind: "error"; readonly status: number; readonly type: string; readonly detail?: string }
  /** The work is done, then the connection is dropped without an answer. */
  | { readonly kind: "lostReply" }
  /** The work is done, and the answer is a 200 whose body is not what the SDK expects (judged, so a violation). */
  | { readonly kind: "malformed" }

export interface Options {
  readonly apiKey: string
  /** The double's clock, in epoch ms (default the machine's). */
  readonly now?: () => number
  /**
   * At most `limit` requests per `windowMs` for each linked account (Unipile limits each account's calls in
   * fixed windows, each begun by its first request), and as many for the calls of no account; more answer 429.
   */
  readonly rateLimit?: { readonly limit: number; readonly windowMs: number }
  /** Invitations an account may send in 7 days (LinkedIn's weekly limit); default 100. */
  readonly weeklyInvitations?: number
  /**
   * A slow provider: each write (`writeRoutes`) takes a random time in [min, max] ms, the work done at
   * a random moment of it (at its start: the answer comes late; at its end: it happens late), whether
   * or not the caller is still there, as a provider finishes what it received.
   */
  readonly writeLatencyMs?: { readonly min: number; readonly max: number }
}

/** The routes that change the network: every write the service can send. */
export const writeRoutes: ReadonlySet<RouteName> = new Set<RouteName>([
  "users.invite",
  "users.invite.cancel",
  "users.invite.handle",
  "chats.start",
  "chats.send",
  "posts.reaction",
  "posts.comment",
  "posts.create"
])

/** A write the network carried out: its route, the account, the path and the fields it was sent with. */
export interface Performed {
  readonly route: RouteName
  readonly accountId: string
  readonly path: string
  readonly fields: Fields
  readonly at: number
}

interface Reply {
  readonly status: number
  readonly body: unknown
  readonly route?: SdkRoute
}

interface Webhook {
  readonly id: string
  readonly source: string
  readonly url: string
  readonly headers: ReadonlyArray<{ readonly key: string; readonly value: string }>
}

interface HostedLink {
  readonly token: string
  readonly name: string
  readonly notifyUrl: string | undefined
  readonly reconnect: string | undefined
}

export type Fields = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const ok = (body: unknown, route: SdkRoute, status = 200): Reply => ({ status, body, route })
const rest = (body: unknown, status = 200): Reply => ({ status, body })
const fail = (status: number, type: string, detail: string): Reply => ({ status, body: R.problem(status, type, detail) })

const str = (value: unknown): string | undefined => typeof value === "string" ? value : undefined
const list = (value: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> =>
  value === undefined ? [] : typeof value === "string" ? [value] : value

/** A cursor as Unipile gives them: opaque, base64 of the next offset. */
const cursorAt = (offset: number) => Buffer.from(JSON.stringify({ offset })).toString("base64url")
const offsetOf = (cursor: string | undefined): number => {
  if (cursor === undefined) return 0
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString())
    return typeof parsed === "object" && parsed !== null && "offset" in parsed && typeof parsed.offset === "number" ? parsed.offset : -1
  } catch {
    return -1
  }
}

/** One page of `items` from a query's `cursor` and `limit`; null when the cursor is not one of ours. */
const page = <A>(items: ReadonlyArray<A>, query: URLSearchParams, fallback: number) => {
  const offset = offsetOf(query.get("cursor") ?? undefined)
  if (offset < 0) return null
  const limit = Number(query.get("limit") ?? fallback)
  const slice = items.slice(offset, offset + limit)
  return { items: slice, cursor: offset + limit < items.length ? cursorAt(offset + limit) : null }
}

const WEEK = 7 * 86_400_000
const THREE_WEEKS = 21 * 86_400_000

export interface ProviderDouble {
  /** The DSN to give the SDK: `http://127.0.0.1:<port>`. */
  readonly dsn: string
  readonly violations: Array<Violation>
  /** Every request, in order: method, path and route. */
  readonly calls: Array<{ readonly method: string; readonly path: string; readonly route: RouteName | undefined }>
  readonly accounts: Map<string, Account>
  /** Every write the network carried out (a 2xx of a write route), in order: the record that shows a write sent twice. */
  readonly performed: Array<Performed>
  /** Writes received and not yet answered (a slow provider's, `writeLatencyMs`). */
  readonly inFlight: () => number
  /** Requests answered 429 for the rate limit (`rateLimit`), by account (`""`: of no account). */
  readonly limited: ReadonlyMap<string, number>
  /** Makes the next `times` calls of `route` suffer `fault`. */
  readonly inject: (route: RouteName, fault: Fault, times?: number) => void
  /** The person completes a hosted link: the account is created (or reconnected) and `notify_url` called. */
  readonly completeHostedLink: (url: string, username: string) => Promise<{ readonly accountId: string; readonly notified: number | null }>
  /** The person approves a pending in-app checkpoint of `accountId`. */
  readonly approveInApp: (accountId: string) => void
  /** Someone does something to an account on the network: accept an invitation, write, sign it out. */
  readonly acceptInvitation: (accountId: string, providerId: string) => void
  readonly receiveMessage: (accountId: string, providerId: string, text: string) => { readonly chatId: string; readonly messageId: string }
  readonly setStatus: (accountId: string, status: Account["status"]) => void
  /** Sends a webhook of `source` to every endpoint registered for it; answers their statuses. */
  readonly emit: (source: "messaging" | "users" | "account_status", payload: unknown) => Promise<ReadonlyArray<number>>
  readonly webhooks: ReadonlyArray<Webhook>
  readonly close: () => Promise<void>
}

/** Starts the double on a free port of 127.0.0.1. */
export const start = async (options: Options): Promise<ProviderDouble> => {
  const now = options.now ?? (() => Date.now())
  const weekly = options.weeklyInvitations ?? 100
  const accounts = new Map<string, Account>()
  const links = new Map<string, HostedLink>()
  const webhooks: Array<Webhook> = []
  const violations: Array<Violation> = []
  const calls: ProviderDouble["calls"] = []
  const performed: Array<Performed> = []
  let inFlight = 0
  const faults = new Map<RouteName, Array<Fault>>()
  /** Each account's rate window (`""`: the calls of no account). */
  const windows = new Map<string, { start: number; count: number }>()
  /** Requests refused for the rate limit, by account. */
  const limited = new Map<string, number>()
  let sequence = 0
  const nextId = (prefix: string) => `${prefix}${(now() % 1_000_000_000).toString(36)}${(++sequence).toString(36).padStart(4, "0")}`
  let base = ""

  const accountOf = (query: URLSearchParams, fields?: Fields): Account | Reply => {
    const id = query.get("account_id") ?? str(fields?.["account_id"])
    if (id === undefined || id === null) return fail(400, "invalid_parameters", "account_id is required.")
    const one = accounts.get(id)
    if (one === undefined) return fail(404, "resource_not_found", `Account ${id} not found.`)
    if (one.status === "CREDENTIALS") return fail(401, "disconnected_account", "The account appears to be disconnected from the provider service.")
    if (one.status !== "OK") return fail(403, "account_restricted", "The account is restricted by the provider.")
    return one
  }
  const isReply = (value: Account | Reply): value is Reply => "status" in value && "body" in value

  const chatWith = (one: Account, providerId: string): Chat | undefined =>
    one.chats.find((chat) => chat.attendee.providerId === providerId)

  const counts = (postId: string) => {
    let reactions = 40
    let comments = 5
    for (const one of accounts.values()) {
      if (one.reactions.has(postId)) reactions += 1
      comments += one.comments.filter((own) => own.postId === postId).length
    }
    return { reactions, comments }
  }

  const allPosts = () => [
    ...posts,
    ...[...accounts.values()].flatMap((one) => one.posts.map((own) => ({ id: own.id, authorSlug: one.ownerSlug, text: own.text, at: R.iso(own.at) })))
  ]

  const postById = (id: string) => allPosts().find((one) => one.id === id || `urn:li:activity:${one.id}` === id)

  const createAccount = (name: string, username: string): Account => {
    const one = newAccount(nextId("acc"), name, username, now())
    accounts.set(one.id, one)
    return one
  }

  const signIn = (fields: Fields, reconnect: Account | undefined): Reply => {
    const username = str(fields["username"])
    const password = str(fields["password"])
    if (str(fields["provider"]) !== "LINKEDIN" || username === undefined || password === undefined) {
      return fail(400, "invalid_parameters", "provider, username and password are required.")
    }
    if (password === "wrong") return fail(401, "invalid_credentials", "The provided credentials are invalid.")
    const one = reconnect ?? createAccount(username, username)
    const kind = checkpointOf(username)
    const route: SdkRoute = reconnect === undefined ? "accounts.connect" : "accounts.reconnect"
    if (kind !== undefined) {
      one.status = "CONNECTING"
      one.checkpoint = { kind, approved: false }
      const checkpoint = kind === "2FA" ? { type: "2FA", source: "APP" } : { type: kind }
      return ok({ object: "Checkpoint", account_id: one.id, checkpoint }, route, 202)
    }
    one.status = "OK"
    return reconnect === undefined
      ? ok({ object: "AccountCreated", account_id: one.id }, route, 201)
      : ok({ object: "AccountReconnected", account_id: one.id }, route)
  }

  const solve = (fields: Fields): Reply => {
    const id = str(fields["account_id"])
    const one = id === undefined ? undefined : accounts.get(id)
    if (one === undefined || one.checkpoint === undefined) return fail(404, "resource_not_found", "No checkpoint is pending for this account.")
    const passes = one.checkpoint.kind === "IN_APP_VALIDATION" ? one.checkpoint.approved : str(fields["code"]) === "000000"
    if (!passes) {
      return one.checkpoint.kind === "IN_APP_VALIDATION"
        ? ok({ object: "Checkpoint", account_id: one.id, checkpoint: { type: "IN_APP_VALIDATION" } }, "accounts.checkpoint", 202)
        : fail(400, "invalid_checkpoint_solution", "The checkpoint solution is invalid.")
    }
    one.checkpoint = undefined
    one.status = "OK"
    return ok({ object: "AccountCreated", account_id: one.id }, "accounts.checkpoint", 201)
  }

  const invite = (one: Account, fields: Fields): Reply => {
    const providerId = str(fields["provider_id"])
    const note = str(fields["message"])
    const person = providerId === undefined ? undefined : personBy(providerId)
    if (person === undefined) return fail(422, "invalid_recipient", "The recipient is not a valid LinkedIn member.")
    if (note !== undefined && note.length > 300) return fail(400, "too_many_characters", "The invitation message exceeds 300 characters.")
    if (one.relations.has(person.providerId)) return fail(422, "already_connected", "You are already connected to this member.")
    if (one.sent.some((sent) => sent.providerId === person.providerId && sent.status === "pending")) {
      return fail(422, "already_invited_recently", "An invitation has already been sent recently to this member.")
    }
    const withdrawn = one.withdrawnAt.get(person.providerId)
    if (withdrawn !== undefined && now() - withdrawn < THREE_WEEKS) {
      return fail(422, "cannot_resend_yet", "The invitation was withdrawn recently; it cannot be sent again yet.")
    }
    if (one.sent.filter((sent) => now() - sent.at < WEEK).length >= weekly) {
      return fail(422, "limit_exceeded", "The weekly limit of invitations has been reached.")
    }
    if (note !== undefined && note.length > 0 && !one.features.includes("premium")) {
      if (one.notesThisMonth >= 5) return fail(422, "limit_exceeded", "The monthly limit of personalized invitations has been reached.")
      one.notesThisMonth += 1
    }
    const invitation = { id: nextId("7"), providerId: person.providerId, text: note ?? null, at: now(), status: "pending" as const }
    one.sent.unshift({ ...invitation })
    return ok({ object: "UserInvitationSent", invitation_id: invitation.id }, "users.invite", 201)
  }

  const sendToChat = (chat: Chat, text: string) => {
    const sent = { id: nextId("m"), chatId: chat.id, fromMe: true, text, at: now() }
    chat.messages.push(sent)
    return sent
  }

  const startChat = (one: Account, fields: Fields): Reply => {
    const attendees = list(fields["attendees_ids"])
    const text = str(fields["text"])
    const person = attendees.length === 1 ? personBy(attendees[0]) : undefined
    if (person === undefined || text === undefined) return fail(400, "invalid_parameters", "One attendee and a text are required.")
    const inmail = str(fields["linkedin[inmail]"]) === "true"
    if (!one.relations.has(person.providerId)) {
      if (!inmail) return fail(422, "no_connection_with_recipient", "You are not connected to this recipient.")
      if (!one.features.includes("premium")) return fail(422, "not_allowed_inmail", "This account cannot send InMail.")
    }
    const chat = chatWith(one, person.providerId) ?? { id: nextId("c"), attendee: person, inmail: !one.relations.has(person.providerId), messages: [] }
    if (!one.chats.includes(chat)) one.chats.unshift(chat)
    const sent = sendToChat(chat, text)
    return ok({ object: "ChatStarted", chat_id: chat.id, message_id: sent.id }, "chats.start", 201)
  }

  const search = (one: Account, query: URLSearchParams, fields: Fields): Reply => {
    const category = str(fields["category"])
    const keywords = (str(fields["keywords"]) ?? "").toLowerCase()
    const limit = Number(query.get("limit") ?? 10)
    const offset = offsetOf(query.get("cursor") ?? undefined)
    if (offset < 0) return fail(400, "invalid_parameters", "The cursor is invalid.")
    const results = category === "people"
      ? people.filter((person) => `${person.firstName} ${person.lastName} ${person.headline} ${person.location}`.toLowerCase().includes(keywords))
        .map((person) => R.peopleResult(one, person))
      : category === "companies"
      ? companies.filter((company) => `${company.name} ${company.industry} ${company.city}`.toLowerCase().includes(keywords)).map(R.companyResult)
      : undefined
    if (results === undefined) return fail(400, "invalid_parameters", "category must be people, companies, posts or jobs.")
    return rest({
      object: "LinkedinSearch",
      items: results.slice(offset, offset + limit),
      config: { params: { api: "classic", category, keywords } },
      paging: { start: offset, page_count: Math.min(limit, Math.max(0, results.length - offset)), total_count: results.length },
      cursor: offset + limit < results.length ? cursorAt(offset + limit) : null
    })
  }

  /** Answers one request, or undefined for an unknown path. */
  const route = (method: string, path: string, query: URLSearchParams, fields: Fields): [RouteName, () => Reply] | undefined => {
    const parts = path.replace(/^\/api\/v1\//, "").split("/").map(decodeURIComponent)
    const [a, b, c, d] = parts
    const withAccount = (name: RouteName, run: (one: Account) => Reply): [RouteName, () => Reply] => [name, () => {
      const one = accountOf(query, fields)
      return isReply(one) ? one : run(one)
    }]
    if (a === "accounts" && parts.length === 1 && method === "GET") {
      return ["accounts.list", () => {
        const all = page([...accounts.values()].map(R.account), query, 100)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "AccountList", ...all }, "accounts.list")
      }]
    }
    if (a === "accounts" && parts.length === 1 && method === "POST") return ["accounts.connect", () => signIn(fields, undefined)]
    if (a === "accounts" && b === "checkpoint" && method === "POST") return ["accounts.checkpoint", () => solve(fields)]
    if (a === "accounts" && b !== undefined && parts.length === 2) {
      const one = accounts.get(b)
      if (method === "GET") return ["accounts.get", () => one === undefined ? fail(404, "resource_not_found", "Account not found.") : ok(R.account(one), "accounts.get")]
      if (method === "POST") return ["accounts.reconnect", () => one === undefined ? fail(404, "resource_not_found", "Account not found.") : signIn(fields, one)]
      if (method === "DELETE") {
        return ["accounts.delete", () => {
          if (one === undefined) return fail(404, "resource_not_found", "Account not found.")
          accounts.delete(one.id)
          return ok({ object: "AccountDeleted" }, "accounts.delete")
        }]
      }
    }
    if (a === "hosted" && b === "accounts" && c === "link" && method === "POST") {
      return ["hosted.link", () => {
        const type = str(fields["type"])
        const name = str(fields["name"])
        const reconnect = str(fields["reconnect_account"])
        if ((type !== "create" && type !== "reconnect") || name === undefined) return fail(400, "invalid_parameters", "type and name are required.")
        if (type === "reconnect" && (reconnect === undefined || !accounts.has(reconnect))) return fail(404, "resource_not_found", "Account to reconnect not found.")
        const token = nextId("h")
        links.set(token, { token, name, notifyUrl: str(fields["notify_url"]), reconnect: type === "reconnect" ? reconnect : undefined })
        return ok({ object: "HostedAuthUrl", url: `${base}/hosted/${token}` }, "hosted.link", 201)
      }]
    }
    if (a === "users" && b === "me" && method === "GET") return withAccount("users.me", (one) => ok(R.ownProfile(one), "users.me"))
    if (a === "users" && b === "relations" && method === "GET") {
      return withAccount("users.relations", (one) => {
        const relations = [...one.relations].sort((x, y) => y[1] - x[1]).flatMap(([providerId, since]) => {
          const person = personBy(providerId)
          return person === undefined ? [] : [R.relation(person, since)]
        })
        const all = page(relations, query, 100)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "UserRelationsList", ...all }, "users.relations")
      })
    }
    if (a === "users" && b === "invite" && c === undefined && method === "POST") return withAccount("users.invite", (one) => invite(one, fields))
    if (a === "users" && b === "invite" && c === "sent" && d === undefined && method === "GET") {
      return withAccount("users.invite.sent", (one) => {
        const all = page(one.sent.filter((sent) => sent.status === "pending").map(R.sentInvitation), query, 10)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "InvitationList", ...all }, "users.invite.sent")
      })
    }
    if (a === "users" && b === "invite" && c === "sent" && d !== undefined && method === "DELETE") {
      return withAccount("users.invite.cancel", (one) => {
        const sent = one.sent.find((invitation) => invitation.id === d && invitation.status === "pending")
        if (sent === undefined) return fail(404, "resource_not_found", "Invitation not found.")
        sent.status = "withdrawn"
        one.withdrawnAt.set(sent.providerId, now())
        return ok({ object: "InvitationCanceled" }, "users.invite.cancel")
      })
    }
    if (a === "users" && b === "invite" && c === "received" && d === undefined && method === "GET") {
      return withAccount("users.invite.received", (one) => {
        const all = page(one.received.filter((received) => !received.handled).map(R.receivedInvitation), query, 10)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : rest({ object: "InvitationList", ...all })
      })
    }
    if (a === "users" && b === "invite" && c === "received" && d !== undefined && method === "POST") {
      return withAccount("users.invite.handle", (one) => {
        const received = one.received.find((invitation) => invitation.id === d && !invitation.handled)
        const action = str(fields["action"])
        if (received === undefined) return fail(404, "resource_not_found", "Invitation not found.")
        if (str(fields["shared_secret"]) !== received.secret || (action !== "accept" && action !== "decline")) {
          return fail(400, "invalid_parameters", "shared_secret and action (accept or decline) are required.")
        }
        received.handled = true
        if (action === "accept") one.relations.set(received.from.providerId, now())
        return rest({ object: action === "accept" ? "InvitationAccepted" : "InvitationDeclined" })
      })
    }
    if (a === "users" && b !== undefined && c === "posts" && method === "GET") {
      return withAccount("users.posts", (one) => {
        const own = b === one.ownerSlug || b === one.ownerProviderId ? one.ownerSlug : undefined
        const author = own ?? personBy(b)?.slug ?? (query.get("is_company") === "true" ? companyBy(b)?.slug : undefined)
        if (author === undefined) return fail(404, "resource_not_found", "User not found.")
        const theirs = allPosts().filter((one) => one.authorSlug === author).sort((x, y) => y.at.localeCompare(x.at))
        const all = page(theirs.map((one) => R.post(one, counts(one.id))), query, 10)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "PostList", ...all }, "users.posts")
      })
    }
    if (a === "users" && b !== undefined && c === "reactions" && method === "GET") {
      return withAccount("users.reactions", (one) => {
        if (b !== one.ownerProviderId && b !== one.ownerSlug) return rest({ object: "ReactionList", items: [], cursor: null })
        const items = [...one.reactions].map(([postId, value]) => ({ object: "Reaction", post_id: postId, value }))
        return rest({ object: "ReactionList", items, cursor: null })
      })
    }
    if (a === "users" && b !== undefined && c === undefined && method === "GET") {
      return withAccount("users.profile", (one) => {
        if (b === one.ownerProviderId || b === one.ownerSlug) return ok(R.selfProfile(one), "users.profile")
        const person = personBy(b)
        return person === undefined ? fail(404, "resource_not_found", "User not found.") : ok(R.userProfile(one, person), "users.profile")
      })
    }
    if (a === "posts" && b === "reaction" && method === "POST") {
      return withAccount("posts.reaction", (one) => {
        const target = postById(str(fields["post_id"]) ?? "")
        if (target === undefined) return fail(404, "resource_not_found", "Post not found.")
        one.reactions.set(target.id, str(fields["reaction_type"]) ?? "like")
        return ok({ object: "ReactionAdded" }, "posts.reaction", 201)
      })
    }
    if (a === "posts" && b === undefined && method === "POST") {
      return withAccount("posts.create", (one) => {
        const text = str(fields["text"])
        if (text === undefined || text.trim() === "") return fail(400, "invalid_parameters", "text is required.")
        if (text.length > 3000) return fail(400, "too_many_characters", "The post exceeds 3000 characters.")
        one.posts.unshift({ id: `75${String(now()).slice(-11)}${String(++sequence).padStart(4, "0")}`, text, at: now() })
        return ok({ object: "PostCreated" }, "posts.create", 201)
      })
    }
    if (a === "posts" && b !== undefined && c === undefined && method === "GET") {
      return withAccount("posts.get", () => {
        const target = postById(b)
        return target === undefined ? fail(404, "resource_not_found", "Post not found.") : ok(R.post(target, counts(target.id)), "posts.get")
      })
    }
    if (a === "posts" && b !== undefined && c === "comments") {
      if (method === "POST") {
        return withAccount("posts.comment", (one) => {
          const target = postById(b)
          const text = str(fields["text"])
          if (target === undefined) return fail(404, "resource_not_found", "Post not found.")
          if (text === undefined || text.length > 1250) return fail(400, "invalid_parameters", "text is required, at most 1250 characters.")
          one.comments.push({ id: nextId("75"), postId: target.id, text, at: now() })
          return ok({ object: "CommentSent" }, "posts.comment", 201)
        })
      }
      return withAccount("posts.comments", () => {
        const target = postById(b)
        if (target === undefined) return fail(404, "resource_not_found", "Post not found.")
        const mine = [...accounts.values()].flatMap((any) => any.comments.filter((own) => own.postId === target.id).map((own) => R.comment(any, own)))
        const all = page(mine, query, 100)
        return all === null
          ? fail(400, "invalid_parameters", "The cursor is invalid.")
          : ok({ object: "CommentList", ...all, total_items: mine.length }, "posts.comments")
      })
    }
    if (a === "linkedin" && b === "company" && c !== undefined && method === "GET") {
      return withAccount("linkedin.company", () => {
        const target = companyBy(c)
        return target === undefined ? fail(404, "resource_not_found", "Company not found.") : ok(R.company(target), "linkedin.company")
      })
    }
    if (a === "linkedin" && b === "search" && method === "POST") return withAccount("linkedin.search", (one) => search(one, query, fields))
    if (a === "chats" && b === undefined && method === "GET") {
      return withAccount("chats.list", (one) => {
        const all = page(one.chats.map((chat) => R.chat(one, chat)), query, 10)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "ChatList", ...all }, "chats.list")
      })
    }
    if (a === "chats" && b === undefined && method === "POST") return withAccount("chats.start", (one) => startChat(one, fields))
    if (a === "chats" && b !== undefined) {
      const found = [...accounts.values()].flatMap((one) => one.chats.filter((chat) => chat.id === b).map((chat) => ({ one, chat })))[0]
      const name: RouteName = c === undefined ? "chats.get" : c === "attendees" ? "chats.attendees" : method === "POST" ? "chats.send" : "chats.messages"
      return [name, () => {
        if (found === undefined) return fail(404, "resource_not_found", "Chat not found.")
        const { chat, one } = found
        if (name === "chats.get") {
          const last = chat.messages[chat.messages.length - 1]
          return ok({ ...R.chat(one, chat), lastMessage: last === undefined ? null : R.message(one, chat, last) }, "chats.get")
        }
        if (name === "chats.attendees") return ok({ object: "ChatAttendeeList", items: [R.attendee(one, chat.attendee)] }, "chats.attendees")
        if (name === "chats.send") {
          const text = str(fields["text"])
          if (text === undefined || text.trim() === "") return fail(400, "invalid_parameters", "text is required.")
          return ok({ object: "MessageSent", message_id: sendToChat(chat, text).id }, "chats.send", 201)
        }
        const newestFirst = [...chat.messages].reverse().map((sent) => R.message(one, chat, sent))
        const all = page(newestFirst, query, 100)
        return all === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "MessageList", ...all }, "chats.messages")
      }]
    }
    if (a === "messages" && b === undefined && method === "GET") {
      return withAccount("messages.list", (one) => {
        const after = Date.parse(query.get("after") ?? "1970-01-01T00:00:00.000Z")
        const all = one.chats.flatMap((chat) => chat.messages.filter((sent) => sent.at > after).map((sent) => ({ sent, chat })))
          .sort((x, y) => y.sent.at - x.sent.at)
        const slice = page(all.map(({ chat, sent }) => R.message(one, chat, sent)), query, 100)
        return slice === null ? fail(400, "invalid_parameters", "The cursor is invalid.") : ok({ object: "MessageList", ...slice }, "messages.list")
      })
    }
    if (a === "webhooks" && b === undefined && method === "POST") {
      return ["webhooks.create", () => {
        const url = str(fields["request_url"])
        const source = str(fields["source"])
        if (url === undefined || source === undefined) return fail(400, "invalid_parameters", "request_url and source are required.")
        const id = nextId("wh")
        webhooks.push({ id, url, source, headers: headersOf(fields) })
        return ok({ object: "WebhookCreated", webhook_id: id }, "webhooks.create", 201)
      }]
    }
    return undefined
  }

  const headersOf = (fields: Fields) => {
    const raw = jsonFields.get(fields)
    const headers = typeof raw === "object" && raw !== null && "headers" in raw && Array.isArray(raw.headers) ? raw.headers : []
    return headers.flatMap((header: unknown) =>
      typeof header === "object" && header !== null && "key" in header && "value" in header &&
        typeof header.key === "string" && typeof header.value === "string"
        ? [{ key: header.key, value: header.value }]
        : []
    )
  }
  // The raw JSON of a request whose body was JSON, for the nested fields (webhook headers).
  const jsonFields = new WeakMap<Fields, unknown>()

  const readFields = async (request: IncomingMessage): Promise<Fields> => {
    const chunks: Array<Buffer> = []
    for await (const chunk of request) chunks.push(Buffer.from(chunk))
    const body = Buffer.concat(chunks)
    const type = request.headers["content-type"] ?? ""
    if (body.length === 0) return {}
    if (type.includes("application/json")) {
      const parsed: unknown = JSON.parse(body.toString())
      const fields: Record<string, string | ReadonlyArray<string>> = {}
      if (typeof parsed === "object" && parsed !== null) {
        for (const [key, value] of Object.entries(parsed)) {
          if (typeof value === "string") fields[key] = value
          else if (Array.isArray(value)) fields[key] = value.filter((item): item is string => typeof item === "string")
          else if (typeof value === "number" || typeof value === "boolean") fields[key] = String(value)
        }
      }
      jsonFields.set(fields, parsed)
      return fields
    }
    const form = await new Response(body, { headers: { "content-type": type } }).formData()
    const fields: Record<string, string | ReadonlyArray<string>> = {}
    for (const key of new Set(form.keys())) {
      const values = form.getAll(key).filter((value): value is string => typeof value === "string")
      fields[key] = values.length === 1 ? values[0] : values
    }
    return fields
  }

  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

  /** A write: run, recorded when it succeeded, at a random moment of its latency when the provider is slow. */
  const write = async (name: RouteName, url: URL, fields: Fields, run: () => Reply) => {
    const latency = options.writeLatencyMs
    const total = latency === undefined ? 0 : latency.min + Math.random() * (latency.max - latency.min)
    const before = Math.random() * total
    inFlight += 1
    try {
      if (before > 0) await pause(before)
      const reply = run()
      if (reply.status >= 200 && reply.status < 300) {
        const accountId = url.searchParams.get("account_id") ?? str(fields["account_id"]) ?? ""
        performed.push({ route: name, accountId, path: url.pathname, fields, at: now() })
      }
      if (total - before > 0) await pause(total - before)
      return reply
    } finally {
      inFlight -= 1
    }
  }

  const send = (response: ServerResponse, reply: Reply) => {
    if (reply.route !== undefined) {
      const violation = judge(reply.route, reply.body)
      if (violation !== undefined) violations.push(violation)
    }
    response.writeHead(reply.status, { "content-type": "application/json; charset=utf-8" })
    response.end(JSON.stringify(reply.body))
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", "http://double")
      const method = request.method ?? "GET"
      if (url.pathname.startsWith("/hosted/")) {
        response.writeHead(200, { "content-type": "text/html" })
        response.end("<html><body>Unipile hosted sign-in (double)</body></html>")
        return
      }
      const fields = await readFields(request).catch(() => undefined)
      const found = fields === undefined ? undefined : route(method, url.pathname, url.searchParams, fields)
      calls.push({ method, path: url.pathname, route: found?.[0] })
      if (request.headers["x-api-key"] !== options.apiKey) {
        return send(response, fail(401, "missing_credentials", "The API key is missing or invalid."))
      }
      if (options.rateLimit !== undefined) {
        const at = now()
        const account = url.searchParams.get("account_id") ?? str(fields?.["account_id"]) ?? ""
        const window = windows.get(account) ?? { start: at, count: 0 }
        if (at - window.start >= options.rateLimit.windowMs) {
          window.start = at
          window.count = 0
        }
        window.count += 1
        windows.set(account, window)
        if (window.count > options.rateLimit.limit) {
          limited.set(account, (limited.get(account) ?? 0) + 1)
          return send(response, fail(429, "too_many_requests", "Too many requests, slow down."))
        }
      }
      if (fields === undefined) return send(response, fail(400, "malformed_request", "The body could not be read."))
      if (found === undefined) return send(response, fail(404, "resource_not_found", `No route ${method} ${url.pathname}.`))
      const [name, run] = found
      const fault = faults.get(name)?.shift()
      if (fault?.kind === "error") return send(response, fail(fault.status, fault.type, fault.detail ?? "Injected."))
      const reply = writeRoutes.has(name) ? await write(name, url, fields, run) : run()
      if (fault?.kind === "lostReply") {
        request.socket.destroy()
        return
      }
      if (fault?.kind === "malformed") return send(response, { ...reply, status: 200, body: { object: "Unexpected" } })
      send(response, reply)
    })().catch((error: unknown) => {
      response.writeHead(500, { "content-type": "application/json" })
      response.end(JSON.stringify(R.problem(500, "unexpected_error", String(error))))
    })
  })

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address: AddressInfo | string | null = server.address()
  base = typeof address === "object" && address !== null ? `http://127.0.0.1:${address.port}` : ""

  const post = async (url: string, headers: Record<string, string>, payload: unknown) => {
    try {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(payload) })
      await response.arrayBuffer()
      return response.status
    } catch {
      return 0
    }
  }

  return {
    dsn: base,
    violations,
    calls,
    accounts,
    performed,
    inFlight: () => inFlight,
    limited,
    webhooks,
    inject: (name, fault, times = 1) => {
      const queue = faults.get(name) ?? []
      for (let i = 0; i < times; i++) queue.push(fault)
      faults.set(name, queue)
    },
    completeHostedLink: async (url, username) => {
      const token = url.split("/hosted/")[1] ?? ""
      const link = links.get(token)
      if (link === undefined) throw new Error(`No hosted link ${url}`)
      links.delete(token)
      const existing = link.reconnect === undefined ? undefined : accounts.get(link.reconnect)
      const one = existing ?? createAccount(link.name, username)
      one.name = link.name
      one.status = "OK"
      const notified = link.notifyUrl === undefined
        ? null
        : await post(link.notifyUrl, {}, { status: existing === undefined ? "CREATION_SUCCESS" : "RECONNECTED", account_id: one.id, name: link.name })
      return { accountId: one.id, notified }
    },
    approveInApp: (accountId) => {
      const one = accounts.get(accountId)
      if (one?.checkpoint !== undefined) one.checkpoint.approved = true
    },
    acceptInvitation: (accountId, providerId) => {
      const one = accounts.get(accountId)
      const sent = one?.sent.find((invitation) => invitation.providerId === providerId && invitation.status === "pending")
      if (one === undefined || sent === undefined) throw new Error(`No pending invitation to ${providerId}`)
      sent.status = "accepted"
      one.relations.set(providerId, now())
    },
    receiveMessage: (accountId, providerId, text) => {
      const one = accounts.get(accountId)
      const person = personBy(providerId)
      if (one === undefined || person === undefined) throw new Error(`No account ${accountId} or person ${providerId}`)
      const chat = chatWith(one, providerId) ?? { id: nextId("c"), attendee: person, inmail: false, messages: [] }
      if (!one.chats.includes(chat)) one.chats.unshift(chat)
      const received = { id: nextId("m"), chatId: chat.id, fromMe: false, text, at: now() }
      chat.messages.push(received)
      return { chatId: chat.id, messageId: received.id }
    },
    setStatus: (accountId, status) => {
      const one = accounts.get(accountId)
      if (one !== undefined) one.status = status
    },
    emit: (source, payload) =>
      Promise.all(webhooks.filter((hook) => hook.source === source).map((hook) =>
        post(hook.url, Object.fromEntries(hook.headers.map((header) => [header.key, header.value])), payload)
      )),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
