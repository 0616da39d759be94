/**
 * The account's background inbox: conversations the simulated network already
 * has (pitches, recruiters, people saying thanks for connecting, earlier
 * outreach with its replies). Each starts at a fixed instant, seeded per
 * account and calendar week, and its messages appear as `now` passes them.
 * Messages the service sends itself are the driver's to add.
 */
import { Result, Schema } from "effect"
import type { Chat, ChatPage, Conversation, Message, TriageClass } from "../domain/NetworkModels.ts"
import { profileOfProviderId, type ProfileRef } from "./Addresses.ts"
import { chatIdOf, providerIdOfChat } from "./Ids.ts"
import { type InvalidPageRequest, type PageRequest, pageOf, pageWindow } from "./Paging.ts"
import { memberFrom, personTraits, summaryOf } from "./SandboxPeople.ts"
import { hash32, rng, type Rng } from "./Random.ts"
import { replyText } from "./ReplyTexts.ts"
import { DAY, HOUR, iso, MINUTE, WEEK } from "./Timeline.ts"

/** A chat id that is not one the network hands out. */
export class UnknownChat extends Schema.TaggedError<UnknownChat>()("UnknownChat", {
  chatId: Schema.String,
  message: Schema.String
}) {}

/** How far back the inbox goes. */
export const INBOX_WEEKS = 26

type ThreadKind = "pitch" | "recruiter" | "networking" | "outreach"

interface Thread {
  readonly ref: ProfileRef
  readonly startedAt: number
  readonly kind: ThreadKind
}

const threadsInWeek = (accountSeed: string, week: number): ReadonlyArray<Thread> => {
  const random = rng("inbox", accountSeed, week)
  const count = random.weighted<number>([[0, 30], [1, 40], [2, 20], [3, 10]])
  return Array.from({ length: count }, () => ({
    ref: memberFrom(random),
    startedAt: week * WEEK + random.int(0, 6) * DAY + random.int(7, 20) * HOUR + random.int(0, 59) * MINUTE,
    kind: random.weighted<ThreadKind>([["pitch", 35], ["recruiter", 15], ["networking", 25], ["outreach", 25]])
  }))
}

const threadsBefore = (accountSeed: string, now: number): ReadonlyArray<Thread> => {
  const current = Math.floor(now / WEEK)
  const threads: Array<Thread> = []
  for (let week = current; week > current - INBOX_WEEKS; week--) {
    for (const thread of threadsInWeek(accountSeed, week)) if (thread.startedAt < now) threads.push(thread)
  }
  return threads
}

const pitches = [
  "Hi! I noticed your team is growing fast. We help companies like yours cut cloud costs by 30% — open to a quick chat?",
  "Hey, hope you're well. Would you be the right person to talk to about lead generation? We've helped 200+ B2B teams book more meetings.",
  "Hi there — we're running a short pilot programme for sales leaders. Would you be interested in joining? No cost involved."
]
const recruiterNotes = [
  "Hi! I'm working on a leadership role with a well-funded scale-up that looks like a great match for your background. Open to hearing more?",
  "Hello — your profile stood out. I'm hiring for a senior position on a remote-first team. Would you be open to a confidential chat?"
]
const thanks = [
  "Thanks for connecting! Great to be in touch.",
  "Hi, thanks for accepting my invitation. Looking forward to following your posts.",
  "Good to connect — enjoyed your recent post about team building."
]
const politeDeclines = [
  "Thanks, but not a priority for us right now.",
  "Appreciate it — not looking at the moment, but I'll keep you in mind.",
  "Thanks for thinking of me! Not the right time, unfortunately."
]
const likewise = ["Likewise, great to connect!", "Thanks, same here!", "Pleasure — let me know if I can ever help."]
const openers = [
  "Hi {name}, thanks for connecting! I saw you lead {role} at {company} — curious how you're handling outbound today?",
  "Hi {name}, quick question: is pipeline generation something on your plate this quarter at {company}?",
  "Hi {name}, great to connect. We work with a few teams similar to {company}; happy to share what's working for them if useful."
]

const fill = (template: string, ref: ProfileRef) => {
  const traits = personTraits(ref)
  return template
    .replace("{name}", traits.name.firstName)
    .replace("{role}", traits.role.function)
    .replace("{company}", traits.company.name)
}

interface Line {
  readonly direction: "sent" | "received"
  readonly text: string
}

const scriptOf = (thread: Thread, random: Rng): ReadonlyArray<Line> => {
  const firstName = personTraits(thread.ref).name.firstName
  const received = (text: string): Line => ({ direction: "received", text })
  const sent = (text: string): Line => ({ direction: "sent", text })
  switch (thread.kind) {
    case "pitch":
      return [received(random.pick(pitches)), ...(random.chance(0.4) ? [sent(random.pick(politeDeclines))] : [])]
    case "recruiter":
      return [received(random.pick(recruiterNotes)), ...(random.chance(0.5) ? [sent(random.pick(politeDeclines))] : [])]
    case "networking":
      return [received(random.pick(thanks)), ...(random.chance(0.6) ? [sent(random.pick(likewise))] : [])]
    case "outreach": {
      const triage = random.weighted<TriageClass>([
        ["interested", 3],
        ["meeting", 2],
        ["referral", 1],
        ["not_now", 2],
        ["not_interested", 2],
        ["objection", 1],
        ["other", 1]
      ])
      return [sent(fill(random.pick(openers), thread.ref)), received(replyText(triage, random, { firstName }))]
    }
  }
}

const messagesOf = (accountSeed: string, thread: Thread, now: number): ReadonlyArray<Message> => {
  const random = rng("thread", accountSeed, thread.ref.providerId, thread.startedAt)
  const chatId = chatIdOf(thread.ref.providerId)
  let at = thread.startedAt
  return scriptOf(thread, random).flatMap((line, index) => {
    if (index > 0) at += random.int(20 * MINUTE, 3 * DAY)
    if (at >= now) return []
    const id = `msg-${hash32("message", accountSeed, chatId, index).toString(16).padStart(8, "0")}${
      hash32("message-2", accountSeed, chatId, index).toString(16).padStart(8, "0")
    }`
    return [{
      id,
      chatId,
      direction: line.direction,
      senderProviderId: line.direction === "received" ? thread.ref.providerId : null,
      text: line.text,
      sentAt: iso(at)
    }]
  })
}

const chatOf = (accountSeed: string, thread: Thread, messages: ReadonlyArray<Message>, now: number): Chat => {
  const last = messages[messages.length - 1]
  const unread = last.direction === "received" && Date.parse(last.sentAt) > now - 3 * DAY ? 1 : 0
  return {
    id: last.chatId,
    attendee: summaryOf(thread.ref, accountSeed),
    lastMessage: last,
    unreadCount: unread,
    updatedAt: last.sentAt
  }
}

/** The account's chats of the last 26 weeks before `now`, most recently active first, paged. */
export const listChats = (accountSeed: string, now: number, page: PageRequest): Result.Result<ChatPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const chats = threadsBefore(accountSeed, now)
      .map((thread) => chatOf(accountSeed, thread, messagesOf(accountSeed, thread, now), now))
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id))
    return pageOf(window, chats.length, chats.length, (i) => chats[i])
  })

/**
 * The messages of a chat, oldest first, as of `now`. A chat id of a person
 * with no background conversation gives an empty conversation (the driver
 * adds what the service sent); an id the network never hands out fails.
 */
export const getConversation = (
  accountSeed: string,
  chatId: string,
  now: number
): Result.Result<Conversation, UnknownChat> => {
  const providerId = providerIdOfChat(chatId)
  if (providerId === null) {
    return Result.fail(new UnknownChat({ chatId, message: `"${chatId}" is not a chat id; take one from list_chats.` }))
  }
  const ref = profileOfProviderId(providerId)
  const thread = threadsBefore(accountSeed, now).find((t) => t.ref.providerId === ref.providerId)
  return Result.succeed({
    chatId,
    attendee: summaryOf(ref, accountSeed),
    messages: thread === undefined ? [] : messagesOf(accountSeed, thread, now)
  })
}
