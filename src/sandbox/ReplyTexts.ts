/**
 * What people write back, per triage class: several templates each, in the
 * tone of real replies to B2B outreach (short, often lower-key than the
 * pitch, sometimes signed).
 *
 * @since 1.0.0
 */
import type { TriageClass } from "../domain/NetworkModels.ts"
import type { Rng } from "./Random.ts"

/** What a template can mention. */
export interface ReplyContext {
  /** The replying person's first name, for a signature. */
  readonly firstName: string
  /** When the reply is written (epoch ms), to date an out-of-office return; absent: relative wording. */
  readonly writtenAt?: number | undefined
}

interface Slots {
  readonly day: string
  readonly time: string
  readonly colleague: string
  readonly role: string
  readonly month: string
  readonly returnDate: string
  readonly tool: string
}

type Template = (slots: Slots) => string

const templates: Readonly<Record<TriageClass, ReadonlyArray<Template>>> = {
  interested: [
    () => "Thanks for reaching out! This is actually timely — can you send over a bit more detail on how it works?",
    () => "Interesting. We've been looking at this problem for a while. What does pricing look like for a team our size?",
    (s) => `Hi, appreciate the note. We're currently using ${s.tool} but not thrilled with it. Do you have a case study you could share?`,
    () => "Sounds relevant. Could you send me a short overview I can forward internally?",
    () => "Yes, happy to learn more. What would the next step look like on your side?"
  ],
  meeting: [
    (s) => `Thanks for reaching out — happy to chat ${s.day} at ${s.time}?`,
    (s) => `Sure, let's find 30 minutes. I'm fairly open ${s.day} afternoon, send an invite whenever suits.`,
    () => "Happy to take a call. Here's my calendar link, grab any slot that works for you.",
    (s) => `Could do a quick intro call ${s.day}. ${s.time} works on my end — does that suit?`,
    () => "Let's talk. Can you send a couple of times next week? Mornings are best for me."
  ],
  referral: [
    (s) => `Thanks — I'm not the right person for this, but ${s.colleague} runs ${s.role} here. Happy to intro you.`,
    (s) => `This would sit with our ${s.role} team. Best to reach out to ${s.colleague} directly, feel free to mention me.`,
    (s) => `Not my area, I'm afraid. I've forwarded your message to ${s.colleague}, who owns this.`,
    (s) => `You'll want to speak with ${s.colleague} (${s.role}). I'll loop them in.`
  ],
  not_now: [
    (s) => `Thanks for the message. We're heads-down on other priorities until ${s.month} — feel free to check back then.`,
    () => "Appreciate it, but the timing isn't right. Budgets are locked for this year — maybe ping me next quarter?",
    () => "Not a priority for us at the moment. Could be interesting later in the year though.",
    (s) => `We just signed a renewal with ${s.tool}, so nothing will move for about 12 months. Happy to reconnect then.`,
    () => "Busy season here. Let's revisit in a couple of months."
  ],
  not_interested: [
    () => "Thanks, but we're not interested.",
    () => "Appreciate the note, but this isn't something we need. All the best.",
    () => "No thanks. Please remove me from your list.",
    (s) => `We're happy with ${s.tool} and not looking to change. Good luck!`,
    () => "Not for us, sorry."
  ],
  objection: [
    (s) => `We already use ${s.tool} for this. What would you do differently?`,
    () => "Honestly, we tried something similar last year and it didn't stick. Why would this be different?",
    () => "Looks expensive for what it is. We're a small team and can't justify another tool.",
    () => "How do you handle data protection? Anything that touches customer data has to go through a long security review here.",
    () => "I get a lot of these messages. What makes you think this is relevant to us specifically?"
  ],
  out_of_office: [
    (s) => `I'm out of office until ${s.returnDate} with limited access to email. I'll get back to you when I return.`,
    (s) => `Thanks for your message. I'm currently on leave and back on ${s.returnDate}. For urgent matters please contact ${s.colleague}.`,
    (s) => `Automatic reply: I'm travelling until ${s.returnDate} and will respond as soon as I can.`,
    (s) => `I'm on parental leave and not checking messages regularly. Back ${s.returnDate}.`
  ],
  other: [
    () => "Thanks for connecting!",
    () => "Hi! How did you come across my profile?",
    () => "👍",
    () => "Thanks for the message. Do we know each other from somewhere?",
    () => "Sorry, is this a sales message or are you hiring?"
  ]
}

const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
const times = ["9:30", "10am", "11am", "2pm", "3pm", "4:30pm", "2pm CET", "10am ET"]
const colleagues = ["Sarah", "Tom", "Priya", "Markus", "Léa", "Daniel", "Aisha", "Kenji", "Julia", "Omar"]
const teams = ["procurement", "revenue operations", "IT", "our marketing", "the platform", "people operations"]
const tools = ["HubSpot", "Salesforce", "an in-house tool", "Outreach", "a spreadsheet", "another vendor"]
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
const DAY_MS = 86_400_000

const signatures = (name: string): ReadonlyArray<string> => ["", "", `\n\nBest,\n${name}`, `\n\n— ${name}`, `\nCheers, ${name}`]

/** A reply of the class, seeded: the same generator state gives the same text. */
export const replyText = (triageClass: TriageClass, random: Rng, context: ReplyContext): string => {
  const later = context.writtenAt === undefined ? null : new Date(context.writtenAt + random.int(2, 14) * DAY_MS)
  const monthNow = later === null ? random.int(0, 11) : later.getUTCMonth()
  const slots: Slots = {
    day: random.chance(0.5) ? `next ${random.pick(days)}` : random.pick(days),
    time: random.pick(times),
    colleague: random.pick(colleagues),
    role: random.pick(teams),
    month: months[(monthNow + random.int(2, 4)) % 12],
    returnDate: later === null
      ? random.pick(["next Monday", "the end of next week", "Monday the 3rd"])
      : `${later.getUTCDate()} ${months[later.getUTCMonth()]}`,
    tool: random.pick(tools)
  }
  const body = random.pick(templates[triageClass])(slots)
  return triageClass === "out_of_office" || triageClass === "other" ? body : body + random.pick(signatures(context.firstName))
}

/** How many templates a class has (at least three for every class). */
export const templateCount = (triageClass: TriageClass): number => templates[triageClass].length
