/**
 * What people write back, per triage class: several templates each, in the
 * tone of real replies to B2B outreach. Most are informal, as on a
 * professional network people mostly write: lower case, a few words, slang,
 * emoji, now and then French, German or Spanish; the rest are plain
 * sentences, sometimes signed.
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
  /** A weekday as people type it ("tues", "thu"). */
  readonly shortDay: string
  /** A team as people type it ("ops", "sales"). */
  readonly shortTeam: string
  readonly time: string
  readonly colleague: string
  readonly role: string
  readonly month: string
  readonly returnDate: string
  readonly tool: string
}

type Template = (slots: Slots) => string

/** How a reply is written: in plain sentences, or informally. */
export type ReplyStyle = "plain" | "informal"

/** The share of replies written informally. */
export const informalShare = 0.6

const plainTemplates: Readonly<Record<TriageClass, ReadonlyArray<Template>>> = {
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

const informalTemplates: Readonly<Record<TriageClass, ReadonlyArray<Template>>> = {
  interested: [
    () => "oh nice, send me more info?",
    () => "sounds cool. pricing for a team our size?",
    () => "ok curious, how does it work?",
    () => "yes pls, send the deck 🙏",
    () => "ça m'intéresse, vous avez une doc ?",
    () => "klingt interessant, schick mir gern mehr infos"
  ],
  meeting: [
    (s) => `sure, ${s.shortDay} ${s.time}?`,
    (s) => `can do ${s.shortDay} afternoon, send an invite`,
    () => "lets hop on a call next wk, send a few slots",
    (s) => `${s.shortDay} at ${s.time} works 👍`,
    () => "on s'appelle la semaine prochaine ?",
    () => "gerne, call nächste woche?"
  ],
  referral: [
    (s) => `not me, ask ${s.colleague} in ${s.shortTeam}`,
    (s) => `wrong person 😅 ${s.colleague} handles that`,
    (s) => `fwd'd to ${s.colleague}, they own ${s.shortTeam}`,
    (s) => `mejor habla con ${s.colleague}, se encarga de esto`
  ],
  not_now: [
    () => "not rn, ping me next quarter",
    (s) => `swamped till ${s.month.toLowerCase()}, circle back then`,
    () => "bad timing tbh, maybe after summer",
    () => "pas maintenant, recontacte-moi dans quelques mois"
  ],
  not_interested: [
    () => "no thx",
    () => "not for us, good luck",
    () => "nah we're good 👋",
    () => "kein interesse, danke",
    () => "no nos interesa, gracias"
  ],
  objection: [
    (s) => `we already use ${s.tool} for that tho`,
    () => "sounds pricey for a small team",
    () => "isnt this against linkedin's rules?",
    () => "how's this diff from sales nav?",
    () => "ya tenemos algo parecido, qué os diferencia?"
  ],
  out_of_office: [
    (s) => `ooo till ${s.returnDate}`,
    (s) => `on vacay 🌴 back ${s.returnDate}`,
    (s) => `away til ${s.returnDate}, will reply then`,
    () => "je suis en congé, je réponds à mon retour"
  ],
  other: [
    () => "thx for the add!",
    () => "who's this? 😅",
    () => "haha hey",
    () => "👋",
    () => "merci pour l'invitation !"
  ]
}

const templates: Readonly<Record<ReplyStyle, Readonly<Record<TriageClass, ReadonlyArray<Template>>>>> = {
  plain: plainTemplates,
  informal: informalTemplates
}

const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
const times = ["9:30", "10am", "11am", "2pm", "3pm", "4:30pm", "2pm CET", "10am ET"]
const colleagues = ["Sarah", "Tom", "Priya", "Markus", "Léa", "Daniel", "Aisha", "Kenji", "Julia", "Omar"]
const shortDays = ["mon", "tues", "wed", "thu", "fri"]
const shortTeams = ["ops", "sales", "it", "marketing", "procurement", "revops"]
const teams = ["procurement", "revenue operations", "IT", "our marketing", "the platform", "people operations"]
const tools = ["HubSpot", "Salesforce", "an in-house tool", "Outreach", "a spreadsheet", "another vendor"]
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
const DAY_MS = 86_400_000

const signatures = (name: string): ReadonlyArray<string> => ["", "", `\n\nBest,\n${name}`, `\n\n— ${name}`, `\nCheers, ${name}`]

/** A reply of the class, informal at `informalShare`, seeded: the same generator state gives the same text. */
export const replyText = (triageClass: TriageClass, random: Rng, context: ReplyContext): string =>
  replyTextIn(random.chance(informalShare) ? "informal" : "plain", triageClass, random, context)

/** A reply of the class in the given style, seeded; informal replies go unsigned. */
export const replyTextIn = (style: ReplyStyle, triageClass: TriageClass, random: Rng, context: ReplyContext): string => {
  const later = context.writtenAt === undefined ? null : new Date(context.writtenAt + random.int(2, 14) * DAY_MS)
  const monthNow = later === null ? random.int(0, 11) : later.getUTCMonth()
  const slots: Slots = {
    day: random.chance(0.5) ? `next ${random.pick(days)}` : random.pick(days),
    shortDay: random.pick(shortDays),
    shortTeam: random.pick(shortTeams),
    time: random.pick(times),
    colleague: random.pick(colleagues),
    role: random.pick(teams),
    month: months[(monthNow + random.int(2, 4)) % 12],
    returnDate: later === null
      ? random.pick(["next Monday", "the end of next week", "Monday the 3rd"])
      : `${later.getUTCDate()} ${months[later.getUTCMonth()]}`,
    tool: random.pick(tools)
  }
  const body = random.pick(templates[style][triageClass])(slots)
  return style === "informal" || triageClass === "out_of_office" || triageClass === "other"
    ? body
    : body + random.pick(signatures(context.firstName))
}

/** How many templates a class has in a style (at least three for every class and style). */
export const templateCount = (triageClass: TriageClass, style: ReplyStyle = "plain"): number =>
  templates[style][triageClass].length
