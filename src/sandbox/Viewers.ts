/**
 * Who viewed the account's profile in the last 90 days (`profile_viewers`).
 * Views sit at fixed instants seeded per account and day; about a third of
 * viewers browse privately and show only as "Someone at ..." or similar.
 */
import { Result } from "effect"
import type { ProfileViewer, ProfileViewerPage } from "../domain/NetworkModels.ts"
import { type InvalidPageRequest, type PageRequest, pageOf, pageWindow } from "./Paging.ts"
import { memberFrom, personTraits, summaryOf } from "./SandboxPeople.ts"
import { rng } from "./Random.ts"
import { DAY, HOUR, iso, MINUTE } from "./Timeline.ts"

/** How far back the network shows profile viewers. */
export const VIEWER_DAYS = 90

const viewsOnDay = (accountSeed: string, day: number): ReadonlyArray<ProfileViewer> => {
  const random = rng("viewers", accountSeed, day)
  const count = random.weighted<number>([[0, 25], [1, 30], [2, 22], [3, 13], [5, 7], [8, 3]])
  return Array.from({ length: count }, (): ProfileViewer => {
    const ref = memberFrom(random)
    const viewedAt = iso(day * DAY + random.int(6, 22) * HOUR + random.int(0, 59) * MINUTE + random.int(0, 59_999))
    if (random.chance(0.66)) return { viewer: summaryOf(ref, accountSeed), obscuredAs: null, viewedAt }
    const traits = personTraits(ref)
    const obscuredAs = random.weighted<string>([
      [`Someone at ${traits.company.name}`, 45],
      [`${traits.role.title} in the ${traits.company.industry} industry`, 35],
      ["LinkedIn Member", 20]
    ])
    return { viewer: null, obscuredAs, viewedAt }
  })
}

/** The account's profile viewers of the last 90 days before `now`, newest first, paged. */
export const profileViewers = (
  accountSeed: string,
  now: number,
  page: PageRequest
): Result.Result<ProfileViewerPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const today = Math.floor(now / DAY)
    const views: Array<ProfileViewer> = []
    for (let day = today; day > today - VIEWER_DAYS; day--) {
      for (const view of viewsOnDay(accountSeed, day)) {
        if (Date.parse(view.viewedAt) < now && Date.parse(view.viewedAt) >= now - VIEWER_DAYS * DAY) views.push(view)
      }
    }
    views.sort((a, b) => b.viewedAt.localeCompare(a.viewedAt))
    return pageOf(window, views.length, views.length, (i) => views[i])
  })
