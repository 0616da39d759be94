/**
 * Invitations the account has received and not answered (`list_invites`):
 * a few a week, seeded per account and week, kept for the last 8 weeks.
 * Accepting or declining them is the driver's state to keep.
 */
import { Result } from "effect"
import type { ReceivedInvitation, ReceivedInvitationPage } from "../domain/NetworkModels.ts"
import { invitationIdOf } from "./Ids.ts"
import { type InvalidPageRequest, type PageRequest, pageOf, pageWindow } from "./Paging.ts"
import { memberFrom, summaryOf } from "./SandboxPeople.ts"
import { rng } from "./Random.ts"
import { DAY, HOUR, iso, MINUTE, WEEK } from "./Timeline.ts"

/** How far back pending received invitations go. */
export const RECEIVED_INVITATION_WEEKS = 8

const notes = [
  "Hi! We met at the SaaS Summit — would love to stay in touch.",
  "Hello, I enjoyed your post on pipeline reviews. Would be great to connect.",
  "Hi, I'm building a network of revenue leaders in the region. Happy to connect?",
  "We have several mutual connections and work in the same space — let's connect!",
  "Hi, I'm a recruiter working with fast-growing B2B companies. Open to connecting?"
]

const invitationsInWeek = (accountSeed: string, week: number): ReadonlyArray<ReceivedInvitation> => {
  const random = rng("received-invitations", accountSeed, week)
  return Array.from({ length: random.int(0, 4) }, (): ReceivedInvitation => {
    const ref = memberFrom(random)
    return {
      id: invitationIdOf(ref.providerId),
      from: summaryOf(ref, accountSeed),
      message: random.chance(0.35) ? random.pick(notes) : null,
      sentAt: iso(week * WEEK + random.int(0, 6) * DAY + random.int(6, 21) * HOUR + random.int(0, 59) * MINUTE)
    }
  })
}

/** Pending invitations the account received in the 8 weeks before `now`, newest first, paged. */
export const receivedInvitations = (
  accountSeed: string,
  now: number,
  page: PageRequest
): Result.Result<ReceivedInvitationPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const current = Math.floor(now / WEEK)
    const invitations: Array<ReceivedInvitation> = []
    for (let week = current; week > current - RECEIVED_INVITATION_WEEKS; week--) {
      for (const invitation of invitationsInWeek(accountSeed, week)) {
        if (Date.parse(invitation.sentAt) < now) invitations.push(invitation)
      }
    }
    invitations.sort((a, b) => b.sentAt.localeCompare(a.sentAt))
    return pageOf(window, invitations.length, invitations.length, (i) => invitations[i])
  })
