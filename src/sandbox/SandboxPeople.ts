/**
 * The sandbox's people. Everything about a person follows from the profile
 * address: the name from the slug when it spells one (`anna-weber` is Anna
 * Weber), the rest from a generator seeded by the provider id. Slugs that the
 * sandbox itself hands out (in search results, chats, viewers) end in a code
 * word carrying the person's employer, title and city, so that the person a
 * search finds is the one `get_profile` returns.
 *
 * Only the relation to the viewing account (degree, mutual connections) and
 * the dates of recent posts depend on anything but the address.
 */
import type { Company, ConnectionDegree, ConnectionsBucket, Experience, Person, PersonSummary } from "../domain/NetworkModels.ts"
import type { ProfileRef } from "./Addresses.ts"
import { profileOfProviderId } from "./Addresses.ts"
import { catalogue, catalogueCompany, companyRefOf } from "./Companies.ts"
import { providerIdOfSlug } from "./Ids.ts"
import { type Name, nameOfSlug, randomName, slugify } from "./Names.ts"
import { type Place, places } from "./Places.ts"
import { hash32, rng, type Rng } from "./Random.ts"
import { type JobFunction, type Role, roles, skillsByFunction } from "./Roles.ts"
import { iso, lastPostBefore } from "./Timeline.ts"

/** Where a person works and lives, as indexes into the sandbox's lists. */
export interface Placement {
  readonly companyIndex: number
  readonly roleIndex: number
  readonly placeIndex: number
}

const CODE_WORD = /^[1-9][0-9a-f]{8}$/

// The placement bits are scrambled with the nonce so that colleagues' slugs do not share a visible prefix.
const scramble = (nonce: number): number => hash32("slug-code", nonce) & 0xfffff

/**
 * A slug the sandbox hands out: the folded name, then a code word (a digit and
 * eight hex digits, like the suffixes the network adds to common names) that
 * carries the placement and a 12-bit nonce.
 */
export const sandboxSlug = (name: Name, placement: Placement, nonce: number): string => {
  const n = nonce & 0xfff
  const high = (((placement.companyIndex & 0xff) << 12) | ((placement.roleIndex & 0x3f) << 6) |
    (placement.placeIndex & 0x3f)) ^ scramble(n)
  const packed = ((high << 12) | n) >>> 0
  return `${slugify(name.firstName)}-${slugify(name.lastName)}-${1 + (n % 9)}${packed.toString(16).padStart(8, "0")}`
}

/** The placement a sandbox slug carries, or null for any other slug. */
export const placementOfSlug = (slug: string): Placement | null => {
  const word = slug.slice(slug.lastIndexOf("-") + 1)
  if (!CODE_WORD.test(word)) return null
  const packed = parseInt(word.slice(1), 16)
  const n = packed & 0xfff
  const high = (packed >>> 12) ^ scramble(n)
  const placement = { companyIndex: (high >>> 12) & 0xff, roleIndex: (high >>> 6) & 0x3f, placeIndex: high & 0x3f }
  return `${1 + (n % 9)}` === word[0] && placement.roleIndex < roles.length && placement.placeIndex < places.length
    ? placement
    : null
}

/** What a person is, independent of who looks and when. */
export interface PersonTraits {
  readonly ref: ProfileRef
  readonly name: Name
  readonly role: Role
  readonly company: Company
  readonly place: Place
  readonly postsPerMonth: number
  readonly connectionsCount: number
  readonly followers: number
  readonly premium: boolean
  readonly openToWork: boolean
  readonly hasPhoto: boolean
  readonly verified: boolean
  readonly creatorMode: boolean
  readonly about: string | null
  readonly skills: ReadonlyArray<string>
  readonly headline: string
  /** How many earlier positions the profile lists. */
  readonly previousPositions: number
  /** Whether the current position has a description. */
  readonly describesCurrentRole: boolean
}

const audiences: Readonly<Record<JobFunction, string>> = {
  engineering: "build reliable platforms",
  data: "turn data into decisions",
  product: "ship products customers love",
  design: "design products people enjoy",
  sales: "help B2B teams hit their number",
  marketing: "grow pipeline through content",
  customer: "keep customers successful",
  people: "hire great people",
  finance: "keep growth profitable",
  operations: "make operations scale",
  executive: "build companies that last"
}

const headlineOf = (random: Rng, role: Role, company: Company, skills: ReadonlyArray<string>, openToWork: boolean) => {
  if (openToWork && random.chance(0.6)) return `${role.title} | Open to new opportunities`
  const form = random.int(0, 4)
  if (form === 0 && skills.length >= 2) return `${role.title} @ ${company.name} | ${skills[0]} | ${skills[1]}`
  if (form === 1) return `${role.title} at ${company.name} | I help teams ${audiences[role.function]}`
  if (form === 2) return `${role.title} · ${company.name}`
  return `${role.title} at ${company.name}`
}

const aboutOf = (random: Rng, role: Role, company: Company, place: Place, skills: ReadonlyArray<string>) => {
  const years = 3 + role.seniority * 2 + random.int(0, 4)
  const focus = skills.slice(0, 3).join(", ") || "the work that matters"
  const openers = [
    `${years}+ years helping teams ${audiences[role.function]}.`,
    `I'm a ${role.title.toLowerCase()} based in ${place.city}.`,
    `Currently ${role.title} at ${company.name}.`
  ]
  const middles = [
    `Day to day I work on ${focus.toLowerCase()}.`,
    `My focus: ${focus}.`,
    `Before ${company.name} I spent time in startups and larger companies, which taught me to keep things simple.`
  ]
  const closers = [
    "Always happy to connect with people who care about doing good work.",
    "Outside work: trail running, too much coffee and a growing pile of books.",
    "Feel free to reach out — I read every message, even if I am slow to answer.",
    ""
  ]
  return [random.pick(openers), random.pick(middles), random.pick(closers)].filter((s) => s.length > 0).join(" ")
}

const activityRate = (random: Rng): number =>
  random.weighted<() => number>([
    [() => 0, 45],
    [() => random.float(0.1, 1), 30],
    [() => random.float(1, 4), 18],
    [() => random.float(4, 12), 7]
  ])()

/** The traits of the person at an address. */
export const personTraits = (ref: ProfileRef): PersonTraits => {
  const random = rng("person", ref.providerId)
  const placement = placementOfSlug(ref.publicIdentifier) ?? {
    companyIndex: random.int(0, catalogue.length - 1),
    roleIndex: random.int(0, roles.length - 1),
    placeIndex: random.int(0, places.length - 1)
  }
  const name = nameOfSlug(ref.publicIdentifier) ?? randomName(random)
  const role = roles[placement.roleIndex % roles.length]
  const company = catalogueCompany(placement.companyIndex)
  const place = places[placement.placeIndex % places.length]
  const postsPerMonth = Math.round(activityRate(random) * 10) / 10
  const creatorMode = postsPerMonth >= 4 ? random.chance(0.5) : random.chance(0.03)
  const connectionsCount = random.weighted<() => number>([
    [() => random.int(3, 99), 10],
    [() => random.int(100, 299), 18],
    [() => random.int(300, 499), 17],
    [() => random.int(500, 30_000), 55]
  ])()
  const followers = connectionsCount + (creatorMode ? random.int(2_000, 80_000) : random.int(0, 900))
  const skills = random.chance(0.1)
    ? []
    : random.sample(skillsByFunction[role.function], random.int(3, skillsByFunction[role.function].length))
  const openToWork = random.chance(role.seniority <= 2 ? 0.09 : 0.04)
  return {
    ref,
    name,
    role,
    company,
    place,
    postsPerMonth,
    connectionsCount,
    followers,
    premium: random.chance(role.function === "sales" || role.function === "people" ? 0.35 : 0.15),
    openToWork,
    hasPhoto: random.chance(0.88),
    verified: random.chance(0.3),
    creatorMode,
    about: random.chance(0.7) ? aboutOf(random, role, company, place, skills) : null,
    skills,
    headline: headlineOf(random, role, company, skills, openToWork),
    previousPositions: random.int(role.seniority >= 4 ? 2 : 0, 4),
    describesCurrentRole: random.chance(0.55)
  }
}

/** The person's standing relative to one account. */
export interface Relation {
  readonly connectionDegree: ConnectionDegree
  readonly mutualConnections: number
}

/**
 * The person the README's first hour and the API's examples invite: María
 * García. The sandbox never makes her a connection of any account (see
 * `relationTo`), so a walkthrough run on a fresh, randomly named account always
 * reaches the network instead of stopping at the "already connected" guardrail.
 */
export const walkthroughPerson = "maria-garcia-3a9f02c1b"

// By provider id: every form of her address (slug, profile URL, Sales Navigator URL) names the same member.
const neverConnected: ReadonlySet<string> = new Set([providerIdOfSlug(walkthroughPerson)])

const degrees: ReadonlyArray<readonly [ConnectionDegree, number]> = [[1, 4], [2, 56], [3, 40]]
const strangerDegrees = degrees.filter(([degree]) => degree !== 1)

/**
 * How far the person is from the account (seeded per account and person):
 * about 4% are already connections, 56% second degree, 40% third. The
 * walkthrough person is never first degree: second or third, in the same
 * proportions as everyone else's.
 */
export const relationTo = (accountSeed: string, providerId: string): Relation => {
  const random = rng("relation", accountSeed, providerId)
  const connectionDegree = random.weighted(neverConnected.has(providerId) ? strangerDegrees : degrees)
  const mutualConnections = connectionDegree === 1
    ? random.int(3, 180)
    : connectionDegree === 2
    ? 1 + Math.floor(80 * random.next() ** 3)
    : 0
  return { connectionDegree, mutualConnections }
}

const bucketOf = (count: number): ConnectionsBucket =>
  count < 100 ? "0-99" : count < 300 ? "100-299" : count < 500 ? "300-499" : "500+"

/** The profile completeness the network would show: photo, headline, about, history, skills, location, role text. */
export const profileCompleteness = (traits: PersonTraits): number =>
  (traits.hasPhoto ? 20 : 0) + 10 + (traits.about === null ? 0 : 15) + (traits.previousPositions >= 1 ? 15 : 0) +
  (traits.skills.length >= 5 ? 15 : 0) + 10 + (traits.describesCurrentRole ? 15 : 0)

// Careers are dated against January 2026, or against `now` when a test clock runs earlier.
const ANCHOR_MONTH = 2026 * 12
const monthOf = (ms: number): number => {
  const date = new Date(ms)
  return date.getUTCFullYear() * 12 + date.getUTCMonth()
}
const yearMonth = (month: number): string => `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, "0")}`

const roleDescriptions: Readonly<Record<JobFunction, ReadonlyArray<string>>> = {
  engineering: ["Led the migration to an event-driven architecture.", "Own the platform team's roadmap and on-call."],
  data: ["Built the company's first self-serve analytics stack.", "Forecasting and experimentation for growth."],
  product: ["Own pricing and packaging for the self-serve funnel.", "Launched two products from discovery to GA."],
  design: ["Built and maintain the design system.", "Research and design for the onboarding flow."],
  sales: ["Closed the largest deal in company history.", "Built the outbound motion for EMEA mid-market."],
  marketing: ["Doubled inbound pipeline in 12 months.", "Run content, SEO and events."],
  customer: ["Manage a book of 40 enterprise accounts.", "Cut churn by a third with a new onboarding programme."],
  people: ["Hired 120 people across engineering and sales.", "Built the interview process and employer brand."],
  finance: ["Led the Series B data room.", "Own budgeting, forecasting and board reporting."],
  operations: ["Scaled operations across four countries.", "Introduced lean planning in the warehouses."],
  executive: ["Grew the company from 5 to 200 people.", "Responsible for strategy, fundraising and hiring."]
}

const experienceOf = (traits: PersonTraits, now: number): ReadonlyArray<Experience> => {
  const random = rng("experience", traits.ref.providerId)
  const anchor = Math.min(ANCHOR_MONTH, monthOf(now))
  let start = anchor - random.int(3, 72)
  const current: Experience = {
    title: traits.role.title,
    company: companyRefOf(traits.company),
    location: traits.place.location,
    startDate: yearMonth(start),
    endDate: null,
    description: traits.describesCurrentRole ? random.pick(roleDescriptions[traits.role.function]) : null
  }
  const positions: Array<Experience> = [current]
  const sameFunction = roles.filter((r) => r.function === traits.role.function && r.seniority < traits.role.seniority)
  for (let i = 0; i < traits.previousPositions; i++) {
    const end = start - random.int(0, 3)
    start = end - random.int(10, 48)
    const earlier = sameFunction.length > 0 ? random.pick(sameFunction) : random.pick(roles.filter((r) => r.seniority <= 3))
    const company = catalogueCompany(random.int(0, catalogue.length - 1))
    positions.push({
      title: earlier.title,
      company: companyRefOf(company),
      location: random.chance(0.7) ? traits.place.location : random.pick(places).location,
      startDate: yearMonth(start),
      endDate: yearMonth(end),
      description: random.chance(0.3) ? random.pick(roleDescriptions[earlier.function]) : null
    })
  }
  return positions
}

/** The context of a read: which account looks, and when (epoch ms). */
export interface Viewing {
  readonly account: string
  readonly now: number
}

/** The profile `get_profile` returns for an address, as seen by an account at an instant. */
export const personAt = (ref: ProfileRef, viewing: Viewing): Person => {
  const traits = personTraits(ref)
  const relation = relationTo(viewing.account, ref.providerId)
  const lastPost = lastPostBefore(ref.providerId, traits.postsPerMonth, viewing.now)
  return {
    providerId: ref.providerId,
    publicIdentifier: ref.publicIdentifier,
    profileUrl: ref.profileUrl,
    firstName: traits.name.firstName,
    lastName: traits.name.lastName,
    name: `${traits.name.firstName} ${traits.name.lastName}`,
    headline: traits.headline,
    company: companyRefOf(traits.company),
    title: traits.role.title,
    location: traits.place.location,
    industry: traits.company.industry,
    connectionDegree: relation.connectionDegree,
    mutualConnections: relation.mutualConnections,
    followers: traits.followers,
    connections: bucketOf(traits.connectionsCount),
    about: traits.about,
    experience: experienceOf(traits, viewing.now),
    skills: traits.skills,
    recentActivity: { lastPostAt: lastPost === null ? null : iso(lastPost), postsPerMonth: traits.postsPerMonth },
    openToWork: traits.openToWork,
    premium: traits.premium,
    signals: {
      hasPhoto: traits.hasPhoto,
      verified: traits.verified,
      creatorMode: traits.creatorMode,
      profileCompleteness: profileCompleteness(traits)
    }
  }
}

/** A person as lists show them, seen by an account. */
export const summaryOf = (ref: ProfileRef, accountSeed: string): PersonSummary => {
  const traits = personTraits(ref)
  return {
    providerId: ref.providerId,
    publicIdentifier: ref.publicIdentifier,
    profileUrl: ref.profileUrl,
    name: `${traits.name.firstName} ${traits.name.lastName}`,
    headline: traits.headline,
    location: traits.place.location,
    connectionDegree: relationTo(accountSeed, ref.providerId).connectionDegree
  }
}

/** A made-up member of the network (for chats, viewers, invitations): a sandbox slug from a seeded generator. */
export const memberFrom = (random: Rng): ProfileRef => {
  const slug = sandboxSlug(
    randomName(random),
    {
      companyIndex: random.int(0, catalogue.length - 1),
      roleIndex: random.int(0, roles.length - 1),
      placeIndex: random.int(0, places.length - 1)
    },
    random.int(0, 0xfff)
  )
  return profileOfProviderId(providerIdOfSlug(slug))
}
