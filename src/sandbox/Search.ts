/**
 * People and company search. Results are made up row by row from a generator
 * seeded by the query, and each person found is a sandbox slug that carries
 * the employer, title and city the filters asked for, so that opening a result
 * with `get_profile` shows the same person.
 */
import { Result } from "effect"
import type { CompanySearchPage, CompanySize, ConnectionDegree, PeopleSearchPage } from "../domain/NetworkModels.ts"
import { profileOfProviderId } from "./Addresses.ts"
import { catalogue, companyFor, companySummaryOf } from "./Companies.ts"
import { providerIdOfSlug } from "./Ids.ts"
import { familyNameOf, givenNameOf, randomName, slugify } from "./Names.ts"
import { type InvalidPageRequest, type PageRequest, pageOf, pageWindow } from "./Paging.ts"
import { relationTo, sandboxSlug, summaryOf } from "./SandboxPeople.ts"
import { places } from "./Places.ts"
import { rng } from "./Random.ts"
import { roles } from "./Roles.ts"

/** What `search_people` looks for; every field optional, all given ones must match. */
export interface PeopleQuery {
  /** Free text: words that name a title, company, place, industry or name narrow the search; others are ignored. */
  readonly keywords?: string | undefined
  readonly title?: string | undefined
  readonly company?: string | undefined
  readonly location?: string | undefined
  readonly industry?: string | undefined
  readonly connectionDegree?: ReadonlyArray<ConnectionDegree> | undefined
}

/** What `search_companies` looks for. */
export interface CompanyQuery {
  readonly keywords?: string | undefined
  readonly industry?: string | undefined
  readonly location?: string | undefined
  readonly companySize?: ReadonlyArray<CompanySize> | undefined
}

/** The network shows at most this many results of a search, however many match. */
export const MAX_BROWSABLE = 1000

// About the number of members a search without filters reports.
const NETWORK_SIZE = 2_400_000

const norm = (text: string | undefined): string => (text ?? "").trim().toLowerCase()
const indexes = (length: number): Array<number> => Array.from({ length }, (_, i) => i)
const intersect = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => a.filter((i) => b.includes(i))

const roleText = roles.map((r) => `${r.title} ${r.function}`.toLowerCase())
const companyText = catalogue.map((c) => c.name.toLowerCase())
const industryText = catalogue.map((c) => c.industry.toLowerCase())
const placeText = places.map((p) => p.location.toLowerCase())

const matching = (texts: ReadonlyArray<string>, wanted: string) =>
  indexes(texts.length).filter((i) => texts[i].includes(wanted))

interface Constraints {
  readonly roles: ReadonlyArray<number>
  readonly companies: ReadonlyArray<number>
  readonly places: ReadonlyArray<number>
  readonly firstName: string | null
  readonly lastName: string | null
  readonly degrees: ReadonlyArray<ConnectionDegree>
}

const constraintsOf = (query: PeopleQuery): Constraints => {
  let roleSet = indexes(roles.length)
  let companySet = indexes(catalogue.length)
  let placeSet = indexes(places.length)
  let firstName: string | null = null
  let lastName: string | null = null
  if (norm(query.title) !== "") roleSet = intersect(roleSet, matching(roleText, norm(query.title)))
  if (norm(query.company) !== "") companySet = intersect(companySet, matching(companyText, norm(query.company)))
  if (norm(query.industry) !== "") companySet = intersect(companySet, matching(industryText, norm(query.industry)))
  if (norm(query.location) !== "") placeSet = intersect(placeSet, matching(placeText, norm(query.location)))
  for (const word of norm(query.keywords).split(/[\s,]+/).filter((w) => w.length >= 2)) {
    const byRole = matching(roleText, word)
    const byCompany = matching(companyText, word)
    const byIndustry = matching(industryText, word)
    const byPlace = matching(placeText, word)
    if (byRole.length > 0) roleSet = intersect(roleSet, byRole)
    else if (byCompany.length > 0) companySet = intersect(companySet, byCompany)
    else if (byPlace.length > 0) placeSet = intersect(placeSet, byPlace)
    else if (byIndustry.length > 0) companySet = intersect(companySet, byIndustry)
    else if (givenNameOf(word) !== undefined && firstName === null) firstName = givenNameOf(word) ?? null
    else if (familyNameOf(word) !== undefined && lastName === null) lastName = familyNameOf(word) ?? null
  }
  const degrees = query.connectionDegree === undefined || query.connectionDegree.length === 0
    ? [1, 2, 3] as const
    : query.connectionDegree
  return { roles: roleSet, companies: companySet, places: placeSet, firstName, lastName, degrees }
}

const degreeShare: Readonly<Record<ConnectionDegree, number>> = { 1: 0.04, 2: 0.56, 3: 0.4 }

const totalOf = (constraints: Constraints, seed: string): number => {
  if (constraints.roles.length === 0 || constraints.companies.length === 0 || constraints.places.length === 0) return 0
  const random = rng("search-total", seed)
  const share = (constraints.roles.length / roles.length) * (constraints.companies.length / catalogue.length) *
    (constraints.places.length / places.length) * (constraints.firstName === null ? 1 : 0.004) *
    (constraints.lastName === null ? 1 : 0.004) * constraints.degrees.reduce((sum, d) => sum + degreeShare[d], 0)
  const estimate = Math.round(NETWORK_SIZE * share * random.float(0.8, 1.2))
  return estimate >= 1 ? estimate : random.int(1, 9)
}

/**
 * One page of people matching the query, as the account sees them. The total
 * is the network's estimate; at most `MAX_BROWSABLE` results can be paged
 * through. The same query gives the same people in the same order.
 */
export const searchPeople = (
  query: PeopleQuery,
  accountSeed: string,
  page: PageRequest
): Result.Result<PeopleSearchPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const constraints = constraintsOf(query)
    const filtersDegree = constraints.degrees.length < 3
    const seed = JSON.stringify([
      norm(query.keywords),
      norm(query.title),
      norm(query.company),
      norm(query.location),
      norm(query.industry),
      [...constraints.degrees].sort(),
      filtersDegree ? accountSeed : ""
    ])
    const total = totalOf(constraints, seed)
    const rowAt = (index: number) => {
      // Rows for a degree filter are redrawn until the account sees the person at a wanted degree.
      for (let attempt = 0;; attempt++) {
        const random = rng("search-row", seed, index, attempt)
        const name = randomName(random)
        const slug = sandboxSlug(
          { firstName: constraints.firstName ?? name.firstName, lastName: constraints.lastName ?? name.lastName },
          {
            companyIndex: random.pick(constraints.companies),
            roleIndex: random.pick(constraints.roles),
            placeIndex: random.pick(constraints.places)
          },
          random.int(0, 0xfff)
        )
        const ref = profileOfProviderId(providerIdOfSlug(slug))
        if (!filtersDegree || attempt >= 500 || constraints.degrees.includes(relationTo(accountSeed, ref.providerId).connectionDegree)) {
          return summaryOf(ref, accountSeed)
        }
      }
    }
    return pageOf(window, Math.min(total, MAX_BROWSABLE), total, rowAt)
  })

const matchesCompany = (query: CompanyQuery) => (company: ReturnType<typeof companyFor>): boolean => {
  const text = [company.name, company.industry, company.headquarters, ...company.specialties].join(" ").toLowerCase()
  return norm(query.keywords).split(/\s+/).filter((w) => w.length > 0).every((w) => text.includes(w)) &&
    company.industry.toLowerCase().includes(norm(query.industry)) &&
    company.headquarters.toLowerCase().includes(norm(query.location)) &&
    (query.companySize === undefined || query.companySize.length === 0 || query.companySize.includes(company.companySize))
}

const extraSuffixes = ["Labs", "Group", "Health", "Capital", "Logistics", "Digital", "Partners", "Energy", "Robotics", "Media"]

/**
 * One page of companies matching the query: catalogue companies, and for
 * keywords that name no catalogue company a few companies named after the
 * keywords (`acme` finds "Acme Labs", "Acme Group"...), as the network would
 * find small companies with that name.
 */
export const searchCompanies = (
  query: CompanyQuery,
  page: PageRequest
): Result.Result<CompanySearchPage, InvalidPageRequest> =>
  Result.map(pageWindow(page), (window) => {
    const keywords = norm(query.keywords)
    const wanted = matchesCompany(query)
    const named = slugify(keywords)
    const random = rng("company-search", keywords)
    const extra = named.length >= 2
      ? random.sample(extraSuffixes, random.int(2, 6)).map((suffix) =>
        companyFor({ _tag: "CompanySlug", slug: `${named}-${slugify(suffix)}` })
      )
      : []
    const found = [
      ...extra.filter(wanted),
      ...catalogue.filter(wanted).sort((a, b) => b.followers - a.followers)
    ]
    return pageOf(window, Math.min(found.length, MAX_BROWSABLE), found.length, (i) => companySummaryOf(found[i]))
  })
