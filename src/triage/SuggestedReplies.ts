/**
 * The short answer suggested for each class, filled in with what the reply
 * itself says (the colleague to contact, the return date, the proposed slot,
 * when to check back, the kind of objection, the sender's first name).
 */
import * as Cues from "./Cues.ts"
import type { TriageClass } from "../domain/TriageClass.ts"

const firstName = (fullName: string): string => fullName.split(/\s+/)[0]

const greet = (text: string): string => {
  const sender = Cues.signedName(text)
  return sender === undefined ? "" : `Hi ${sender}, `
}

const capitalised = (greeting: string, sentence: string): string =>
  greeting === "" ? sentence : greeting + sentence.charAt(0).toLowerCase() + sentence.slice(1)

const objectionAnswers: Record<Cues.ObjectionKind, string> = {
  cost:
    "Fair point on cost. Let me come back with concrete numbers for your situation; what range would make this worth a conversation?",
  incumbent:
    "That makes sense, and most of the people I work with had something in place already. Would a two-minute summary of where we differ be useful?",
  security:
    "Good question. I can send our security and data-handling documentation straight away; who on your side should review it?",
  general:
    "That's a fair concern. Could I share a short example of how a similar team handled it, so you can judge for yourself?"
}

/** The suggested answer to a reply of the given class. */
export const suggestReply = (triageClass: TriageClass, text: string): string => {
  const hello = greet(text)
  switch (triageClass) {
    case "interested":
      return capitalised(
        hello,
        "Great to hear! I'll send over a short overview that answers your questions. Would a 20-minute call next week be easier to go through it together?"
      )
    case "meeting": {
      const slot = Cues.proposedSlot(text)
      if (slot !== undefined) {
        return capitalised(hello, `${slot} works for me. I'll send a calendar invite shortly; anything you'd like me to prepare?`)
      }
      if (Cues.hasBookingLink(text)) {
        return capitalised(hello, "Thanks! I'll book a time through your link and send a short agenda beforehand.")
      }
      return capitalised(
        hello,
        "Great, let's find a time. Would Tuesday or Thursday afternoon suit you, 30 minutes? Happy to work around your calendar."
      )
    }
    case "referral": {
      const colleague = Cues.referredName(text)
      return colleague === undefined
        ? capitalised(hello, "Thanks for pointing me in the right direction! Who would be the best person to speak to? I'll reach out directly.")
        : capitalised(
          hello,
          `Thanks for pointing me to ${colleague}! I'll reach out to ${firstName(colleague)} directly; OK if I mention you suggested it?`
        )
    }
    case "not_now": {
      const when = Cues.followUpWhen(text)
      return capitalised(
        hello,
        when === undefined
          ? "Understood, timing matters. Mind if I check back in a few months?"
          : `Understood, thanks for letting me know. I'll check back ${when}.`
      )
    }
    case "not_interested":
      return capitalised(hello, "Thanks for letting me know. I won't follow up further. All the best!")
    case "objection":
      return capitalised(hello, objectionAnswers[Cues.objectionKind(text)])
    case "out_of_office": {
      const back = Cues.returnDate(text)
      const followUp = "\"Welcome back! Picking up my earlier note: would a short call this week or next be useful?\""
      return back === undefined
        ? `Automatic reply with no return date. Follow up in a week or two: ${followUp}`
        : `Away until ${back}. Follow up after they are back: ${followUp}`
    }
    case "other":
      return capitalised(hello, "Thanks for getting back to me! Happy to answer any questions; was my note relevant for you?")
  }
}
