/**
 * High-precision cues that decide a class on their own, and the extractors
 * that pull details (return date, referred colleague, proposed slot,
 * follow-up time) out of a reply for the suggested answer. Each cue only
 * fires on phrasing that is rarely anything else, so the statistical model
 * still decides every reply without one.
 */

const month =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
const weekday = "(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?"
const ordinal = "\\d{1,2}(?:st|nd|rd|th)?"

/** A calendar date or day as people write it in a reply ("Monday, March 17th", "14/04", "the 15th", "mid-June"). */
const dateExpression = [
  `(?:next |this )?${weekday}\\b(?:,?\\s+(?:the\\s+)?${ordinal}(?:\\s+(?:of\\s+)?${month})?|,?\\s+${month}\\s+${ordinal})?`,
  `(?:the\\s+)?${ordinal}(?:\\s+of)?\\s+${month}\\b(?:\\s+\\d{4})?`,
  `${month}\\s+${ordinal}\\b(?:,?\\s+\\d{4})?`,
  `(?:mid-|early |late |the end of |end of )?${month}\\b(?:\\s+\\d{4})?`,
  `\\d{1,2}[./]\\d{1,2}(?:[./]\\d{2,4})?`,
  `the\\s+\\d{1,2}(?:st|nd|rd|th)`,
  `tomorrow|next week|(?:after )?the new year`
].join("|")

const tidy = (phrase: string): string => phrase.replace(/\s+/g, " ").replace(/[.,;:]+$/, "").trim()

// --- out of office --------------------------------------------------------

const autoReplyCue = new RegExp(
  [
    "\\bautomatic reply\\b",
    "\\bauto[- ]?reply\\b",
    "\\bautoresponder\\b",
    "\\bthis is an automated (?:response|reply|message)\\b",
    "\\bout of (?:the )?office\\b",
    "\\bOOO\\b",
    "\\bon (?:annual |parental |maternity |paternity |medical |sick |study )?leave\\b",
    "\\bleave of absence\\b",
    "\\b(?:on|from) (?:vacation|holiday|sabbatical|honeymoon)\\b",
    "\\b(?:limited|no|intermittent) access to (?:e-?mail|my e-?mails?|messages|my messages|linkedin)\\b",
    "\\bmailbox is not monitored\\b",
    "\\bnot checking (?:my )?(?:e-?mails?|messages|linkedin)\\b",
    "\\b(?:out|off) sick\\b",
    "\\b(?:I(?:'|’)?m|I am) (?:currently )?(?:away|off|out|offline)\\b[^.!?\\n]{0,40}\\buntil\\b",
    "\\baway from (?:the|my) (?:office|desk) until\\b"
  ].join("|"),
  "i"
)

/** Whether a reply reads as an automatic out-of-office answer or an "away until" note. */
export const isAutoReply = (text: string): boolean => autoReplyCue.test(text)

const returnKeyword = /\b(?:back(?: in the office| at my desk| to work)?|return(?:ing)?(?: to work)?|upon my return)\b(?:\s+on)?\s*[,:]?\s*/gi
const untilKeyword = /\b(?:until|till|til|through|to)\b\s+/gi
const dateAtStart = new RegExp(`^(?:${dateExpression})`, "i")

const dateAfter = (text: string, keyword: RegExp): string | undefined => {
  for (const match of text.matchAll(keyword)) {
    const rest = text.slice((match.index ?? 0) + match[0].length)
    const date = dateAtStart.exec(rest)
    if (date !== null && date[0].trim().length > 0) return tidy(date[0])
  }
  return undefined
}

/** The day someone is back, from "back on Tuesday 3rd June", "will return on 2 September" or "until Jan 8". */
export const returnDate = (text: string): string | undefined =>
  dateAfter(text, returnKeyword) ?? dateAfter(text, untilKeyword)

// --- referral --------------------------------------------------------------

const name = "([A-Z][\\p{Ll}'-]+(?:\\s+[A-Z][\\p{Ll}'-]+)?)"
const notNames = new Set([
  "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February", "March",
  "April", "May", "June", "July", "August", "September", "October", "November", "December", "Hi", "Hey", "Hello",
  "Thanks", "Thank", "Sorry", "Please", "Our", "The", "Not", "LinkedIn", "Zoom", "Teams", "Google",
  // Pronouns and their contractions start sentences such as "We're heads down" or "I'm heads down".
  "I", "I'm", "I’m", "Im", "I'd", "I’d", "I'll", "I’ll", "I've", "I’ve", "We", "We're", "We’re", "We'd", "We’d",
  "We'll", "We’ll", "We've", "We’ve", "You", "You're", "You’re", "They", "They're", "They’re", "He", "He's", "He’s",
  "She", "She's", "She’s", "It", "It's", "It’s", "This", "That", "Someone", "Everyone", "Nobody", "Who"
])

// Each pattern carries its own referral context, so a bare name (a greeting,
// a signature) never triggers the cue. The role in "our CTO, Alexei Volkov"
// is skipped so the name is what gets captured.
const role = "(?:(?:our|my|the)\\s+[\\p{L}&/ -]{2,40}?,\\s+)?"
const referralPatterns: ReadonlyArray<RegExp> = [
  new RegExp(`\\b(?:colleague|coworker|co-worker|teammate|friend)\\s+${name}`, "u"),
  new RegExp(
    `\\b(?:reach out to|talk to|speak (?:with|to)|get in touch with|contact|connect(?:ing)? (?:you )?with|direct this to|go straight to|ping|try|(?:you(?:'|’)?(?:d|ll)? |you )?want|cc(?:'|’)?d|loop(?:ing)? in|adding|passed (?:your note|this|it) (?:on )?to|shared this with|forward(?:ing|ed)? (?:this|your (?:note|message)|it) to)\\s+${role}${name}`,
    "u"
  ),
  new RegExp(
    `${name},?\\s+(?:is (?:now |the one|your (?:guy|person)|the right person|who you want|the person)|took over|is taking over|handles|owns|runs|leads|heads|covers|manages|does all|makes the call|signs off|would be (?:the|a great)|is looking for)`,
    "u"
  ),
  new RegExp(`\\b(?:handled|managed|run|owned|covered) by\\s+${name}`, "u"),
  new RegExp(`\\b(?:[Tt]he (?:person|one) (?:who|that) (?:handles|owns|runs) this is|[Bb]est person for this is|[Dd]ecisions? go(?:es)? through)\\s+${role}${name}`, "u")
]

/** The colleague a reply points to ("please reach out to my colleague Sarah Lindqvist" -> "Sarah Lindqvist"). */
export const referredName = (text: string): string | undefined => {
  for (const pattern of referralPatterns) {
    const match = pattern.exec(text)
    const found = match?.[1]
    if (found !== undefined && !notNames.has(found.split(/\s+/)[0])) return found
  }
  return undefined
}

// An assistant who "handles my scheduling" is a way to book the meeting,
// not someone else to sell to.
const schedulingHandOff = /\b(?:assistant|EA|schedul\w*|calendar|invite)\b/i

/** Whether the reply clearly redirects to a named colleague (a name in referral phrasing, not about scheduling). */
export const isReferral = (text: string): boolean => referredName(text) !== undefined && !schedulingHandOff.test(text)

// --- meeting -----------------------------------------------------------------

const clockTime = "(?:\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)\\b|\\b\\d{1,2}:\\d{2}\\b|\\bat \\d{1,2}(?![\\d%+x.,:]|\\s?(?:k|people|reps|seats|employees|months|weeks|years|days))\\b)"
const timeZone = "(?:\\s+(?:CET|CEST|BST|GMT|UTC|EST|EDT|PST|PDT|ET|PT|my time|your time))?"
const slotPattern = new RegExp(
  `(?:(?:${dateExpression}|today)\\s+(?:at\\s+)?)?${clockTime}${timeZone}(?:\\s+(?:on\\s+)?(?:${dateExpression}|today))?`,
  "i"
)
const calendarCue = /\b(?:calendly\.com|cal\.com|savvycal\.com|zcal\.co|my calendar link|calendar invite|send (?:me |over )?(?:an |the )?invite|accepted the invite|booked a slot|grab a slot|(?:your|my) availability|send (?:me |over )?(?:some|a few) (?:times|slots))\b/i

/** Whether a reply proposes a concrete time, hands over a calendar link or invite, or asks for times to meet. */
export const isMeetingProposal = (text: string): boolean => slotPattern.test(text) || calendarCue.test(text)

/** The proposed slot ("Thursday at 2pm CET", "tomorrow 10am"), when the reply names a time of day. */
export const proposedSlot = (text: string): string | undefined => {
  const match = slotPattern.exec(text)
  return match === null ? undefined : tidy(match[0])
}

/** Whether the reply hands over a booking link. */
export const hasBookingLink = (text: string): boolean =>
  /\b(?:calendly\.com|cal\.com|savvycal\.com|zcal\.co|calendar link|booking link|your link)\b/i.test(text)

// --- not now ------------------------------------------------------------------

const later =
  `(?:q[1-4]|h[12]|${month}|spring|summer|autumn|fall|winter|the new year|the new fiscal year|the holidays|next (?:year|quarter|month|spring|summer|autumn|fall|winter|cycle)|a (?:few|couple of) (?:weeks|months)|\\d+(?:-\\d+)? (?:weeks|months)|six months|the end of the (?:year|quarter|month))`
const followUpPattern = new RegExp(`\\b(in|around|after|until|by|from|mid-|early|end of|next)\\s*(${later})\\b`, "i")
const bareLater = new RegExp(`\\b(next (?:year|quarter|spring|summer|autumn|fall|winter|cycle))\\b`, "i")

/** When to check back, phrased to follow "I'll check back" ("in Q3", "after summer", "next year"). */
export const followUpWhen = (text: string): string | undefined => {
  const match = followUpPattern.exec(text)
  if (match !== null) {
    const preposition = match[1].toLowerCase()
    const when = match[2]
    if (preposition === "until" || preposition === "by") return `in ${when}`
    if (preposition === "next") return `next ${when}`
    if (preposition === "mid-") return `in mid-${when}`
    if (preposition === "early" || preposition === "end of") return `${preposition === "early" ? "in early" : "at the end of"} ${when}`
    return `${preposition} ${when}`
  }
  return bareLater.exec(text)?.[1]
}

// --- objection ---------------------------------------------------------------

/** The kind of concern an objection raises, to pick the matching answer. */
export type ObjectionKind = "cost" | "incumbent" | "security" | "general"

/** Classifies an objection by its main concern. */
export const objectionKind = (text: string): ObjectionKind => {
  const lower = text.toLowerCase()
  if (/\b(?:gdpr|soc ?2|hipaa|security|compliance|legal|sso|servers|data can(?:'|’)?t|privacy|consent|terms|flagged)/.test(lower)) return "security"
  if (/(?:\$|€|£|\bprice|\bpricing|\bcost|\bexpensive|\bsteep|\bbudget|\bmoney|\bper seat|\bper-user|\bsalary|\bbase\b|\bday rate|\bfree\b|\broi\b|\b\d+k\b)/.test(lower)) return "cost"
  if (/\b(?:already|happy with|switch|in-house|competitor|locked into|contract with|we use|zoominfo|gong|salesloft|apollo|hubspot|chatgpt)/.test(lower)) return "incumbent"
  return "general"
}

// --- sender ------------------------------------------------------------------

const signOff = /(?:[Cc]heers|[Bb]est|[Rr]egards|[Tt]hanks|[Tt]hank you)\s*,?\s*\n?\s*([A-Z][\p{Ll}]+)\s*$/u

/** The sender's first name from a sign-off ("Cheers,\nMatt"), for a personal greeting. */
export const signedName = (text: string): string | undefined => signOff.exec(text.trim())?.[1]
