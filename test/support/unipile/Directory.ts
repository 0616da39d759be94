/**
 * The people, companies and posts the provider double's network holds: a small fixed cast, so
 * tests can name them. Every person has a provider id (ACoAA...), a public identifier (the slug of
 * their profile address) and a distance from every account (the double's accounts all see the
 * same network).
 */

export interface DirectoryPerson {
  readonly providerId: string
  readonly slug: string
  readonly firstName: string
  readonly lastName: string
  readonly headline: string
  readonly location: string
  readonly company: string
  readonly companyId: string
  readonly position: string
  readonly distance: "FIRST_DEGREE" | "SECOND_DEGREE" | "THIRD_DEGREE"
  readonly skills: ReadonlyArray<string>
  readonly followers: number
}

export interface DirectoryCompany {
  readonly id: string
  readonly slug: string
  readonly name: string
  readonly tagline: string
  readonly industry: string
  readonly city: string
  readonly country: string
  readonly employees: number
  readonly followers: number
  readonly website: string
  readonly founded: string
}

export interface DirectoryPost {
  readonly id: string
  readonly authorSlug: string
  readonly text: string
  readonly at: string
}

const person = (
  providerId: string,
  slug: string,
  firstName: string,
  lastName: string,
  position: string,
  company: DirectoryCompany,
  distance: DirectoryPerson["distance"],
  skills: ReadonlyArray<string>
): DirectoryPerson => ({
  providerId,
  slug,
  firstName,
  lastName,
  headline: `${position} at ${company.name}`,
  location: `${company.city}, ${company.country}`,
  company: company.name,
  companyId: company.id,
  position,
  distance,
  skills,
  followers: 1000 + slug.length * 37
})

export const harborview: DirectoryCompany = {
  id: "74474624",
  slug: "harborview-analytics",
  name: "Harborview Analytics",
  tagline: "Analytics your revenue team will actually use",
  industry: "Software Development",
  city: "Bogotá",
  country: "Colombia",
  employees: 312,
  followers: 18450,
  website: "https://www.harborview-analytics.example",
  founded: "2014"
}

export const northwind: DirectoryCompany = {
  id: "10293847",
  slug: "northwind-logistics",
  name: "Northwind Logistics",
  tagline: "Freight, on time",
  industry: "Transportation",
  city: "Madrid",
  country: "Spain",
  employees: 1800,
  followers: 5400,
  website: "https://www.northwind.example",
  founded: "1998"
}

export const companies: ReadonlyArray<DirectoryCompany> = [harborview, northwind]

/** A second-degree person: invitable, not messageable without InMail. */
export const maria = person(
  "ACoAAbWFyaWEtZ2FyY2lhLTNhOWYwMmMxYg",
  "maria-garcia-3a9f02c1b",
  "María",
  "García",
  "VP of Sales",
  harborview,
  "SECOND_DEGREE",
  ["B2B Sales", "Negotiation"]
)

/** A connection of every account: messageable, endorsable. */
export const tomas = person(
  "ACoAAdG9tYXMtcnVpei04ODEyYWE",
  "tomas-ruiz-8812aa",
  "Tomás",
  "Ruiz",
  "Head of Operations",
  northwind,
  "FIRST_DEGREE",
  ["Logistics", "Negotiation"]
)

/** A third-degree person. */
export const aiko = person(
  "ACoAAYWlrby10YW5ha2EtMDAxMTIy",
  "aiko-tanaka-001122",
  "Aiko",
  "Tanaka",
  "Data Engineer",
  harborview,
  "THIRD_DEGREE",
  ["Python", "Spark"]
)

/** Someone who invites the accounts (a received invitation). */
export const lena = person(
  "ACoAAbGVuYS1tdWxsZXItNzc2NjU1",
  "lena-muller-776655",
  "Lena",
  "Müller",
  "Account Executive",
  northwind,
  "SECOND_DEGREE",
  ["Sales"]
)

export const people: ReadonlyArray<DirectoryPerson> = [maria, tomas, aiko, lena]

export const posts: ReadonlyArray<DirectoryPost> = [
  {
    id: "7528731723694092345",
    authorSlug: maria.slug,
    text: "Pipeline reviews are not status meetings. Three questions we now ask on every deal. #sales #revops",
    at: "2026-11-18T08:12:00.000Z"
  },
  {
    id: "7528731723694092001",
    authorSlug: maria.slug,
    text: "Hiring two AEs in Bogotá. #hiring",
    at: "2026-11-10T10:00:00.000Z"
  },
  {
    id: "7528731723694093000",
    authorSlug: harborview.slug,
    text: "Harborview 4.0 is out: forecasts your reps will trust. #launch",
    at: "2026-11-15T09:00:00.000Z"
  }
]

/** The public identifiers of the network's other members, beyond the cast: `member-<anything>`. */
const memberPrefix = "member-"

/**
 * Anyone else on the network, as many as a test writes to: a second-degree member for every public
 * identifier `member-<name>`, its provider id `ACoAA` and the identifier in base64url (so either finds it).
 */
export const member = (slug: string): DirectoryPerson =>
  person(`ACoAA${Buffer.from(slug).toString("base64url")}`, slug, "Alex", slug.slice(memberPrefix.length), "Buyer", northwind, "SECOND_DEGREE", ["Procurement"])

const memberBy = (identifier: string): DirectoryPerson | undefined => {
  const slug = identifier.startsWith("ACoAA") ? Buffer.from(identifier.slice(5), "base64url").toString() : identifier
  return slug.startsWith(memberPrefix) && slug.length > memberPrefix.length ? member(slug) : undefined
}

/** The person an identifier names: provider id or public identifier, of the cast or another member. */
export const personBy = (identifier: string): DirectoryPerson | undefined =>
  people.find((one) => one.providerId === identifier || one.slug === identifier) ?? memberBy(identifier)

/** The company an identifier names: numeric id or slug. */
export const companyBy = (identifier: string): DirectoryCompany | undefined =>
  companies.find((one) => one.id === identifier || one.slug === identifier)
