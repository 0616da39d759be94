/**
 * The provider's records as the service's network models (`domain/NetworkModels.ts`): where each
 * of our fields comes from. A field the provider does not give gets its documented neutral value
 * (an empty string, 0, null or false), listed per command in docs/networks.md.
 */
import type { Company, CompanySize, CompanySummary, ConnectionDegree, ConnectionsBucket, Experience, Message, Person, PersonSummary, Post } from "../../domain/NetworkModels.ts"
import { activityUrn } from "./UnipileAddresses.ts"
import type { Attendee, CompanyProfile, CompanyResult, LinkedinProfile, PeopleResult, ProviderMessage, ProviderPost } from "./ProviderShapes.ts"

/** The public address of a person's profile. */
export const profileUrlOf = (slug: string) => `https://www.linkedin.com/in/${slug}`
const companyUrlOf = (slug: string) => `https://www.linkedin.com/company/${slug}`

/** The provider's distance names (`FIRST_DEGREE`, `DISTANCE_1`...) as our degree; out of network counts as 3. */
export const degreeOf = (distance: string | null | undefined): ConnectionDegree =>
  distance === "FIRST_DEGREE" || distance === "DISTANCE_1" ? 1 : distance === "SECOND_DEGREE" || distance === "DISTANCE_2" ? 2 : 3

const bucketOf = (count: number | undefined): ConnectionsBucket =>
  count === undefined || count < 100 ? "0-99" : count < 300 ? "100-299" : count < 500 ? "300-499" : "500+"

/** Unipile's dates of a position: `M/YYYY`, `YYYY-MM` or `YYYY`; as YYYY-MM, or null. */
const yearMonth = (value: string | null | undefined): string | null => {
  if (value === null || value === undefined) return null
  const slash = /^(\d{1,2})\/(\d{4})$/.exec(value)
  if (slash !== null) return `${slash[2]}-${slash[1].padStart(2, "0")}`
  const dash = /^(\d{4})-(\d{2})/.exec(value)
  if (dash !== null) return `${dash[1]}-${dash[2]}`
  const year = /^(\d{4})$/.exec(value)
  return year === null ? null : `${year[1]}-01`
}

const hashtagsOf = (text: string) => [...text.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((match) => match[1].toLowerCase())

/** `get_profile`: the provider's LinkedIn profile. */
export const person = (profile: LinkedinProfile): Person => {
  const slug = profile.public_identifier ?? profile.provider_id
  const positions = profile.work_experience ?? []
  const current = positions.find((position) => position.current === true || position.end === null) ?? positions[0]
  const experience: Array<Experience> = positions.flatMap((position) => {
    const startDate = yearMonth(position.start)
    if (startDate === null) return []
    return [{
      title: position.position,
      company: { id: position.company_id ?? "", name: position.company, profileUrl: companyUrlOf(position.company_id ?? "") },
      location: position.location ?? "",
      startDate,
      endDate: yearMonth(position.end),
      description: null
    }]
  })
  const firstName = profile.first_name ?? ""
  const lastName = profile.last_name ?? ""
  const filled = [profile.headline, profile.summary, profile.location, profile.profile_picture_url, current?.position, profile.skills?.[0]?.name]
    .filter((field) => field !== undefined && field !== "").length
  return {
    providerId: profile.provider_id,
    publicIdentifier: slug,
    profileUrl: profile.public_profile_url ?? profileUrlOf(slug),
    firstName,
    lastName,
    name: `${firstName} ${lastName}`.trim(),
    headline: profile.headline,
    company: {
      id: current?.company_id ?? "",
      name: current?.company ?? "",
      profileUrl: current?.company_id === undefined ? "" : companyUrlOf(current.company_id)
    },
    title: current?.position ?? "",
    location: profile.location ?? "",
    industry: "",
    connectionDegree: degreeOf(profile.network_distance),
    mutualConnections: profile.shared_connections_count ?? 0,
    followers: profile.follower_count ?? 0,
    connections: bucketOf(profile.connections_count),
    about: profile.summary === undefined || profile.summary === "" ? null : profile.summary,
    experience,
    skills: (profile.skills ?? []).map((skill) => skill.name),
    recentActivity: { lastPostAt: null, postsPerMonth: 0 },
    openToWork: profile.is_open_to_work ?? false,
    premium: profile.is_premium ?? false,
    signals: {
      hasPhoto: profile.profile_picture_url !== undefined,
      verified: false,
      creatorMode: profile.is_creator ?? false,
      profileCompleteness: Math.round((filled / 6) * 100)
    }
  }
}

/** A person as lists show them, from a full profile. */
export const summaryOf = (full: Person): PersonSummary => ({
  providerId: full.providerId,
  publicIdentifier: full.publicIdentifier,
  profileUrl: full.profileUrl,
  name: full.name,
  headline: full.headline,
  location: full.location,
  connectionDegree: full.connectionDegree
})

/** A person found by a search. */
export const searchedPerson = (result: typeof PeopleResult.Type): PersonSummary => {
  const slug = result.public_identifier ?? result.id
  return {
    providerId: result.id,
    publicIdentifier: slug,
    profileUrl: result.profile_url ?? profileUrlOf(slug),
    name: result.name ?? "",
    headline: result.headline ?? "",
    location: result.location ?? "",
    connectionDegree: degreeOf(result.network_distance)
  }
}

/** A chat's other attendee. */
export const attendeeSummary = (attendee: Attendee): PersonSummary => {
  const slug = attendee.profile_url?.split("/in/")[1]?.replace(/\/$/, "") ?? attendee.provider_id
  return {
    providerId: attendee.provider_id,
    publicIdentifier: slug,
    profileUrl: attendee.profile_url ?? profileUrlOf(slug),
    name: attendee.name,
    headline: attendee.specifics?.headline ?? attendee.specifics?.occupation ?? "",
    location: attendee.specifics?.location ?? "",
    connectionDegree: degreeOf(attendee.specifics?.network_distance)
  }
}

const sizes: ReadonlyArray<readonly [number, CompanySize]> = [
  [10, "1-10"],
  [50, "11-50"],
  [200, "51-200"],
  [500, "201-500"],
  [1000, "501-1,000"],
  [5000, "1,001-5,000"],
  [10000, "5,001-10,000"]
]
const sizeOf = (employees: number): CompanySize => sizes.find(([most]) => employees <= most)?.[1] ?? "10,001+"

const sizeOfHeadcount = (headcount: string | null | undefined): CompanySize => {
  const most = Number(/(\d[\d,]*)\s*$/.exec(headcount ?? "")?.[1]?.replace(/,/g, "") ?? "0")
  return sizeOf(most)
}

const typeOf = (kind: CompanyProfile["organization_type"]): Company["type"] =>
  kind === "PUBLIC_COMPANY"
    ? "Public Company"
    : kind === "SELF_EMPLOYED" || kind === "SELF_OWNED"
    ? "Self-Employed"
    : kind === "PARTNERSHIP"
    ? "Partnership"
    : kind === "NON_PROFIT" || kind === "EDUCATIONAL" || kind === "GOVERNMENT_AGENCY"
    ? "Nonprofit"
    : "Privately Held"

/** `get_company`: the provider's company page. */
export const company = (page: CompanyProfile): Company => {
  const headquarters = page.locations.find((location) => location.is_headquarter) ?? page.locations[0]
  const founded = Number.parseInt(page.foundation_date ?? "", 10)
  return {
    id: page.id,
    slug: page.public_identifier,
    name: page.name,
    profileUrl: page.profile_url,
    industry: page.industry?.[0] ?? "",
    tagline: page.tagline ?? "",
    description: page.description,
    website: page.website ?? null,
    headquarters: headquarters === undefined ? "" : `${headquarters.city}, ${headquarters.country}`,
    companySize: sizeOf(page.employee_count ?? 0),
    employeesOnNetwork: page.employee_count ?? 0,
    followers: page.followers_count,
    founded: Number.isNaN(founded) ? null : founded,
    type: typeOf(page.organization_type),
    specialties: page.activities ?? []
  }
}

/** A company found by a search. */
export const searchedCompany = (result: typeof CompanyResult.Type): CompanySummary => {
  const slug = result.profile_url?.split("/company/")[1]?.replace(/\/$/, "") ?? result.id
  return {
    id: result.id,
    slug,
    name: result.name,
    profileUrl: result.profile_url ?? companyUrlOf(slug),
    industry: result.industry ?? "",
    headquarters: result.location ?? "",
    companySize: sizeOfHeadcount(result.headcount),
    followers: result.followers_count ?? 0
  }
}

/** `get_post`, `get_posts`: the provider's post. */
export const post = (one: ProviderPost): Post => ({
  id: one.id,
  urn: one.social_id.startsWith("urn:li:activity:") ? one.social_id : activityUrn(one.id),
  url: one.share_url,
  author: {
    kind: one.author.is_company ? "company" : "person",
    id: one.author.public_identifier,
    name: one.author.name,
    headline: "",
    profileUrl: one.author.is_company ? companyUrlOf(one.author.public_identifier) : profileUrlOf(one.author.public_identifier)
  },
  text: one.text,
  publishedAt: one.parsed_datetime,
  reactions: one.reaction_counter,
  comments: one.comment_counter,
  reposts: one.repost_counter,
  hashtags: hashtagsOf(one.text)
})

/** One message of a chat. */
export const message = (one: ProviderMessage): Message => ({
  id: one.id,
  chatId: one.chat_id,
  direction: one.is_sender === 1 ? "sent" : "received",
  senderProviderId: one.is_sender === 1 ? null : one.sender_id,
  text: one.text ?? "",
  sentAt: one.timestamp
})
