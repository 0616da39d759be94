/**
 * The sandbox's companies: a fixed catalogue of 256 fictional companies (where
 * the simulated people work, and what company search finds) plus a company
 * made up on the spot for any other slug or id.
 */
import type { Company, CompanyRef, CompanySize, CompanySummary } from "../domain/NetworkModels.ts"
import type { CompanyAddress } from "./Addresses.ts"
import { slugify } from "./Names.ts"
import { places } from "./Places.ts"
import { hash32, rng, type Rng } from "./Random.ts"
import { industries } from "./Roles.ts"

interface IndustryStyle {
  readonly suffixes: ReadonlyArray<string>
  readonly specialties: ReadonlyArray<string>
  readonly offer: string
}

const styles: Readonly<Record<string, IndustryStyle>> = {
  "Software Development": {
    suffixes: ["Labs", "Software", "Cloud", "AI", "Systems", "Analytics"],
    specialties: ["SaaS", "B2B software", "APIs", "Machine learning", "Developer tools", "Analytics", "Automation"],
    offer: "software that helps teams work faster"
  },
  "IT Services and IT Consulting": {
    suffixes: ["Digital", "Consulting", "Technologies", "IT Solutions"],
    specialties: ["Cloud migration", "Managed services", "ERP implementation", "Digital transformation", "Nearshoring"],
    offer: "IT consulting and managed services"
  },
  "Financial Services": {
    suffixes: ["Capital", "Pay", "Finance", "Wealth"],
    specialties: ["Payments", "Lending", "Wealth management", "Open banking", "Compliance"],
    offer: "financial products for businesses and households"
  },
  Banking: {
    suffixes: ["Bank", "Savings Bank", "Trust"],
    specialties: ["Retail banking", "SME lending", "Mortgages", "Treasury"],
    offer: "banking for people and growing companies"
  },
  Insurance: {
    suffixes: ["Insurance", "Mutual", "Assurance"],
    specialties: ["Commercial insurance", "Claims automation", "Underwriting", "Reinsurance"],
    offer: "insurance that is simple to buy and quick to pay out"
  },
  "Hospitals and Health Care": {
    suffixes: ["Health", "Care", "Medical", "Clinics"],
    specialties: ["Primary care", "Telehealth", "Patient experience", "Clinical operations"],
    offer: "care that puts patients first"
  },
  "Biotechnology Research": {
    suffixes: ["Bio", "Therapeutics", "Genomics"],
    specialties: ["Drug discovery", "Genomics", "Clinical trials", "Cell therapy"],
    offer: "research into new therapies"
  },
  "Staffing and Recruiting": {
    suffixes: ["Talent", "Recruitment", "Staffing"],
    specialties: ["Executive search", "Tech recruiting", "RPO", "Contract staffing"],
    offer: "recruiting for fast-growing teams"
  },
  "Advertising Services": {
    suffixes: ["Media", "Creative", "Agency"],
    specialties: ["Performance marketing", "Brand strategy", "Content production", "Paid social"],
    offer: "campaigns that turn attention into revenue"
  },
  "Business Consulting and Services": {
    suffixes: ["Partners", "Advisory", "Consulting Group"],
    specialties: ["Strategy", "Operations", "Go-to-market", "Due diligence", "Change management"],
    offer: "advice on strategy and operations"
  },
  "Industrial Machinery Manufacturing": {
    suffixes: ["Industries", "Machinery", "Robotics", "Engineering"],
    specialties: ["Industrial automation", "Robotics", "Precision machining", "Predictive maintenance"],
    offer: "machines and automation for modern factories"
  },
  Retail: {
    suffixes: ["Stores", "Market", "Outfitters"],
    specialties: ["Omnichannel retail", "E-commerce", "Private label", "Store operations"],
    offer: "everyday products, online and in store"
  },
  "Transportation, Logistics, Supply Chain and Storage": {
    suffixes: ["Logistics", "Freight", "Shipping"],
    specialties: ["Last-mile delivery", "Freight forwarding", "Warehousing", "Supply chain visibility"],
    offer: "logistics that keeps supply chains moving"
  },
  Telecommunications: {
    suffixes: ["Telecom", "Networks", "Mobile"],
    specialties: ["5G", "Fibre broadband", "IoT connectivity", "Unified communications"],
    offer: "connectivity for homes and businesses"
  },
  "Higher Education": {
    suffixes: ["University", "Institute", "Business School"],
    specialties: ["Executive education", "Research", "MBA programmes", "Continuing education"],
    offer: "education and research"
  },
  "E-Learning Providers": {
    suffixes: ["Learning", "Academy", "Edu"],
    specialties: ["Online courses", "Corporate training", "Upskilling", "Certification"],
    offer: "online learning for working professionals"
  },
  "Real Estate": {
    suffixes: ["Properties", "Realty", "Estates"],
    specialties: ["Commercial real estate", "Property management", "Residential development"],
    offer: "commercial and residential property"
  },
  "Renewable Energy Power Generation": {
    suffixes: ["Energy", "Solar", "Wind", "Power"],
    specialties: ["Solar PV", "Onshore wind", "Energy storage", "PPAs"],
    offer: "clean power at utility scale"
  },
  "Computer and Network Security": {
    suffixes: ["Security", "Cyber", "Shield"],
    specialties: ["Threat detection", "Zero trust", "Penetration testing", "SOC as a service"],
    offer: "security that stops attacks before they spread"
  },
  "Food and Beverage Services": {
    suffixes: ["Foods", "Kitchen", "Coffee Co."],
    specialties: ["Food service", "Specialty coffee", "Catering", "Healthy snacks"],
    offer: "food and drink people come back for"
  },
  "Motor Vehicle Manufacturing": {
    suffixes: ["Motors", "Mobility", "Automotive"],
    specialties: ["Electric vehicles", "Battery systems", "Fleet solutions", "Autonomous driving"],
    offer: "vehicles for the electric era"
  },
  "Venture Capital and Private Equity Principals": {
    suffixes: ["Ventures", "Capital Partners"],
    specialties: ["Seed investing", "Series A", "Growth equity", "B2B SaaS"],
    offer: "capital and support for ambitious founders"
  }
}

const prefixes: ReadonlyArray<string> = [
  "Northwind", "Bluepeak", "Brightline", "Ironwood", "Silverleaf", "Redwood", "Clearwater", "Stonebridge",
  "Evergreen", "Harborview", "Lumen", "Cobalt", "Meridian", "Aurora", "Beacon", "Cedar", "Crescent",
  "Falcon", "Granite", "Juniper", "Keystone", "Lakeshore", "Maple", "Nimbus", "Pioneer", "Quartz",
  "Riverstone", "Sable", "Tidewater", "Willow", "Zenith", "Alder", "Bramble", "Copper", "Driftwood",
  "Emberline", "Fernhill", "Goldcrest", "Halcyon", "Kestrel", "Lodestar", "Mosaic", "Oakridge",
  "Pinecrest", "Quill", "Rivermark", "Saltmarsh", "Upland", "Verdant", "Wayfarer", "Yarrow", "Bluebird",
  "Larkspur", "Highgate", "Solstice", "Tamarack"
]

const sizes: ReadonlyArray<readonly [CompanySize, number, number, number]> = [
  ["1-10", 2, 10, 8],
  ["11-50", 11, 50, 18],
  ["51-200", 51, 200, 24],
  ["201-500", 201, 500, 18],
  ["501-1,000", 501, 1000, 11],
  ["1,001-5,000", 1001, 5000, 12],
  ["5,001-10,000", 5001, 10000, 5],
  ["10,001+", 10001, 60000, 4]
]

const styleOf = (industry: string): IndustryStyle => styles[industry] ?? styles["Software Development"]

const titleCase = (slug: string): string =>
  slug.split("-").filter((w) => w.length > 0).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ")

const build = (id: string, slug: string, name: string, industry: string, random: Rng): Company => {
  const style = styleOf(industry)
  const [size, low, high] = random.weighted(sizes.map((s) => [s, s[3]] as const))
  const employees = random.int(low, high)
  const hq = random.pick(places)
  const founded = size === "10,001+" ? random.int(1950, 2008) : random.int(1985, 2023)
  const type = size === "1-10" && random.chance(0.3)
    ? "Self-Employed"
    : industry === "Higher Education"
    ? "Nonprofit"
    : employees > 5000 && random.chance(0.6)
    ? "Public Company"
    : random.chance(0.05)
    ? "Partnership"
    : "Privately Held"
  const specialties = random.sample(style.specialties, random.int(2, Math.min(5, style.specialties.length)))
  return {
    id,
    slug,
    name,
    profileUrl: `https://www.linkedin.com/company/${encodeURIComponent(slug)}`,
    industry,
    tagline: `${name}: ${style.offer}`,
    description: `${name} provides ${style.offer}. Founded in ${founded} and headquartered in ${hq.city}, ` +
      `the team of ${employees.toLocaleString("en-US")} works on ${specialties.join(", ").toLowerCase()}.`,
    website: random.chance(0.95) ? `https://www.${slug}.example` : null,
    headquarters: hq.location,
    companySize: size,
    employeesOnNetwork: Math.max(1, Math.round(employees * random.float(0.45, 0.9))),
    followers: Math.round(employees * random.float(4, 60)) + random.int(20, 400),
    founded: random.chance(0.92) ? founded : null,
    type,
    specialties
  }
}

const CATALOGUE_SIZE = 256

const buildCatalogue = (): ReadonlyArray<Company> => {
  const random = rng("sandbox-company-catalogue")
  const names = new Set<string>()
  const ids = new Set<string>()
  const companies: Array<Company> = []
  while (companies.length < CATALOGUE_SIZE) {
    const industry = random.pick(industries)
    const name = `${random.pick(prefixes)} ${random.pick(styleOf(industry).suffixes)}`
    if (names.has(name)) continue
    let id = String(1_000_000 + (hash32("company-id", name) % 89_000_000))
    while (ids.has(id)) id = String(Number(id) + 1)
    names.add(name)
    ids.add(id)
    companies.push(build(id, slugify(name), name, industry, rng("company", id)))
  }
  return companies
}

/** The 256 catalogue companies; a person's employer is one of them (its index packs into 8 bits). */
export const catalogue: ReadonlyArray<Company> = buildCatalogue()

const byId = new Map(catalogue.map((company) => [company.id, company]))
const bySlug = new Map(catalogue.map((company) => [company.slug, company]))

/** The catalogue company at an index (taken modulo the catalogue size). */
export const catalogueCompany = (index: number): Company => catalogue[((index % CATALOGUE_SIZE) + CATALOGUE_SIZE) % CATALOGUE_SIZE]

/** The id of a company made up for a slug outside the catalogue (a 9-digit id, outside the catalogue's range). */
const idOfSlug = (slug: string): string => String(100_000_000 + (hash32("company-slug", slug) % 800_000_000))

/**
 * The company an address names. Catalogue companies are found by id or slug.
 * Any other slug gets a company named after it (`acme-robotics` is "Acme
 * Robotics"); any other id gets a made-up company. The same address always
 * gives the same company; an id handed out for a made-up slug company does
 * not lead back to that slug (the network's numeric ids carry no slug).
 */
export const companyFor = (address: CompanyAddress): Company => {
  if (address._tag === "CompanyId") {
    const known = byId.get(address.id)
    if (known !== undefined) return known
    const random = rng("company", address.id)
    const industry = random.pick(industries)
    const name = `${random.pick(prefixes)} ${random.pick(styleOf(industry).suffixes)}`
    return build(address.id, address.id, name, industry, random)
  }
  const known = bySlug.get(address.slug)
  if (known !== undefined) return known
  const id = idOfSlug(address.slug)
  const random = rng("company", id)
  return build(id, address.slug, titleCase(address.slug), random.pick(industries), random)
}

/** How a company is named inside another record. */
export const companyRefOf = (company: Company): CompanyRef => ({
  id: company.id,
  name: company.name,
  profileUrl: company.profileUrl
})

/** How search results show a company. */
export const companySummaryOf = (company: Company): CompanySummary => ({
  id: company.id,
  slug: company.slug,
  name: company.name,
  profileUrl: company.profileUrl,
  industry: company.industry,
  headquarters: company.headquarters,
  companySize: company.companySize,
  followers: company.followers
})
