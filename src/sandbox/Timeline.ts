/**
 * When an author publishes. Posts sit at fixed instants on one global timeline
 * (seeded per author and calendar week), so a post seen today is still there,
 * at the same instant, when asked for next month; only posts before `now` are
 * visible.
 */
import { rng } from "./Random.ts"

/** One minute, hour, day and week in milliseconds. */
export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
export const WEEK = 7 * DAY

/** How far back the sandbox keeps an author's posts: two years. */
export const HISTORY_WEEKS = 104

const weeksPerMonth = 52 / 12

// Knuth's method: fine for the small rates of people posting on a network.
const poisson = (lambda: number, uniform: () => number): number => {
  const limit = Math.exp(-lambda)
  let k = 0
  let p = uniform()
  while (p > limit && k < 20) {
    k++
    p *= uniform()
  }
  return k
}

/**
 * The instants (epoch ms) at which an author posted during the calendar week
 * `week` (weeks counted from the Unix epoch), in increasing order. Mostly on
 * working days in office hours, as people post.
 */
export const postsInWeek = (authorKey: string, postsPerMonth: number, week: number): ReadonlyArray<number> => {
  if (postsPerMonth <= 0) return []
  const random = rng("posts", authorKey, week)
  const count = poisson(postsPerMonth / weeksPerMonth, random.next)
  const instants: Array<number> = []
  for (let k = 0; k < count; k++) {
    const day = random.chance(0.9) ? random.int(0, 4) : random.int(5, 6)
    instants.push(week * WEEK + day * DAY + random.int(6, 18) * HOUR + random.int(0, 59) * MINUTE + random.int(0, 59_999))
  }
  return instants.sort((a, b) => a - b)
}

/** Every post instant of the author in the two years before `now`, newest first. */
export const recentPostInstants = (authorKey: string, postsPerMonth: number, now: number): ReadonlyArray<number> => {
  const result: Array<number> = []
  const current = Math.floor(now / WEEK)
  for (let week = current; week > current - HISTORY_WEEKS; week--) {
    const instants = postsInWeek(authorKey, postsPerMonth, week)
    for (let i = instants.length - 1; i >= 0; i--) {
      if (instants[i] < now && instants[i] >= now - HISTORY_WEEKS * WEEK) result.push(instants[i])
    }
  }
  return result
}

/** The author's latest post before `now` (within two years), or null. */
export const lastPostBefore = (authorKey: string, postsPerMonth: number, now: number): number | null => {
  const current = Math.floor(now / WEEK)
  for (let week = current; week > current - HISTORY_WEEKS; week--) {
    const before = postsInWeek(authorKey, postsPerMonth, week).filter((instant) => instant < now)
    if (before.length > 0) return before[before.length - 1]
  }
  return null
}

/** An instant as an ISO 8601 string. */
export const iso = (ms: number): string => new Date(ms).toISOString()
