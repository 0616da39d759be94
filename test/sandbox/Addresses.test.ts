import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import {
  type InvalidAddressReason,
  parseCompanyAddress,
  parsePostAddress,
  parseProfileAddress
} from "../../src/sandbox/Addresses.ts"
import { catalogue, companyFor } from "../../src/sandbox/Companies.ts"
import { postIdOf, providerIdOfSlug } from "../../src/sandbox/Ids.ts"

const profile = (input: string) => {
  const result = parseProfileAddress(input)
  if (Result.isFailure(result)) throw new Error(`${input}: ${result.failure.message}`)
  return result.success
}

const profileFailure = (input: string) => {
  const result = parseProfileAddress(input)
  if (Result.isSuccess(result)) throw new Error(`${input} was accepted`)
  return result.failure
}

describe("parseProfileAddress", () => {
  const id = providerIdOfSlug("anna-weber")
  const forms = [
    "https://www.linkedin.com/in/anna-weber",
    "https://www.linkedin.com/in/anna-weber/",
    "http://www.linkedin.com/in/anna-weber",
    "https://linkedin.com/in/anna-weber",
    "https://de.linkedin.com/in/anna-weber/",
    "https://www.linkedin.com/in/Anna-Weber?utm_source=share&utm_medium=member_desktop",
    "https://www.linkedin.com/in/anna-weber/details/experience/",
    "https://www.linkedin.com/in/anna-weber#about",
    "linkedin.com/in/anna-weber",
    "www.linkedin.com/in/anna-weber",
    "  https://www.linkedin.com/in/anna-weber  ",
    "anna-weber",
    id,
    "ACwAA" + id.slice(5),
    `https://www.linkedin.com/sales/lead/${"ACwAA" + id.slice(5)},NAME_SEARCH,x7Yz?_ntb=abc`,
    `https://www.linkedin.com/sales/people/${id},name`,
    `https://www.linkedin.com/in/${id}`,
    `urn:li:fsd_profile:${id}`
  ]

  it("normalises every form of one address to one reference", () => {
    for (const form of forms) {
      assert.deepStrictEqual(profile(form), {
        providerId: id,
        publicIdentifier: "anna-weber",
        profileUrl: "https://www.linkedin.com/in/anna-weber"
      }, form)
    }
  })

  it("keeps a provider id the sandbox did not make as the identity", () => {
    const foreign = "ACoAAA8BYqEBCGLg_vT_ca6mMEqkpp9nVffJ3hc"
    const ref = profile(foreign)
    assert.strictEqual(ref.providerId, foreign)
    assert.strictEqual(ref.publicIdentifier, foreign)
    assert.deepStrictEqual(profile(ref.profileUrl), ref)
    assert.deepStrictEqual(profile(`https://www.linkedin.com/sales/lead/ACwAAA8BYqEBCGLg_vT_ca6mMEqkpp9nVffJ3hc,NAME_SEARCH`), ref)
  })

  it("accepts percent-encoded slugs in any script", () => {
    const ref = profile("https://www.linkedin.com/in/j%C3%BCrgen-m%C3%BCller/")
    assert.strictEqual(ref.publicIdentifier, "jürgen-müller")
    assert.deepStrictEqual(profile(ref.profileUrl), ref)
    assert.deepStrictEqual(profile("jürgen-müller"), ref)
  })

  const rejected: ReadonlyArray<readonly [string, InvalidAddressReason]> = [
    ["", "empty"],
    ["   ", "empty"],
    ["https://www.linkedin.com/in/" + "a".repeat(2100), "tooLong"],
    ["https://twitter.com/anna", "notNetworkAddress"],
    ["https://www.linkedin.com.evil.example/in/anna-weber", "notNetworkAddress"],
    ["ftp://www.linkedin.com/in/anna-weber", "notNetworkAddress"],
    ["anna weber", "notNetworkAddress"],
    ["https://www.linkedin.com/company/northwind-analytics", "wrongKind"],
    ["https://www.linkedin.com/feed/update/urn:li:activity:7528731723694092345/", "wrongKind"],
    ["https://www.linkedin.com/jobs/view/123", "unsupportedPath"],
    ["https://www.linkedin.com/in/", "missingIdentifier"],
    ["https://www.linkedin.com/sales/lead/", "missingIdentifier"],
    ["https://www.linkedin.com/in/a", "malformedIdentifier"],
    ["https://www.linkedin.com/in/anna_weber!", "malformedIdentifier"],
    ["https://www.linkedin.com/in/%E0%A4%A", "malformedIdentifier"],
    ["https://www.linkedin.com/sales/lead/12345,NAME_SEARCH", "malformedIdentifier"]
  ]

  it("refuses bad addresses with a typed reason and a message", () => {
    for (const [input, reason] of rejected) {
      const failure = profileFailure(input)
      assert.strictEqual(failure._tag, "InvalidAddress", input)
      assert.strictEqual(failure.kind, "profile", input)
      assert.strictEqual(failure.reason, reason, input)
      assert.isAbove(failure.message.length, 10, input)
    }
    assert.include(profileFailure("https://www.linkedin.com/company/acme").message, "company")
  })
})

describe("parseCompanyAddress", () => {
  it("normalises slug and id forms", () => {
    const slugForms = [
      "https://www.linkedin.com/company/northwind-analytics",
      "https://www.linkedin.com/company/Northwind-Analytics/about/",
      "linkedin.com/company/northwind-analytics?trk=x",
      "https://fr.linkedin.com/company/northwind-analytics/",
      "northwind-analytics"
    ]
    for (const form of slugForms) {
      assert.deepStrictEqual(Result.getOrThrow(parseCompanyAddress(form)), { _tag: "CompanySlug", slug: "northwind-analytics" })
    }
    const idForms = ["1730163", "https://www.linkedin.com/company/1730163/", "urn:li:company:1730163", "urn:li:organization:1730163", "https://www.linkedin.com/sales/company/1730163"]
    for (const form of idForms) {
      assert.deepStrictEqual(Result.getOrThrow(parseCompanyAddress(form)), { _tag: "CompanyId", id: "1730163" })
    }
  })

  it("finds a catalogue company by slug and by id alike", () => {
    for (const company of catalogue.slice(0, 20)) {
      const bySlug = companyFor(Result.getOrThrow(parseCompanyAddress(company.profileUrl)))
      const byId = companyFor(Result.getOrThrow(parseCompanyAddress(`https://www.linkedin.com/company/${company.id}/`)))
      assert.deepStrictEqual(bySlug, company)
      assert.deepStrictEqual(byId, company)
    }
  })

  it("refuses bad company addresses with their reason", () => {
    const cases: ReadonlyArray<readonly [string, InvalidAddressReason]> = [
      ["", "empty"],
      ["https://example.com/company/acme", "notNetworkAddress"],
      ["https://www.linkedin.com/in/anna-weber", "wrongKind"],
      [providerIdOfSlug("anna-weber"), "wrongKind"],
      ["https://www.linkedin.com/company/", "missingIdentifier"],
      ["https://www.linkedin.com/company/a$b", "malformedIdentifier"]
    ]
    for (const [input, reason] of cases) {
      const result = parseCompanyAddress(input)
      assert.isTrue(Result.isFailure(result), input)
      if (Result.isFailure(result)) assert.strictEqual(result.failure.reason, reason, input)
    }
  })
})

describe("parsePostAddress", () => {
  const id = postIdOf(Date.UTC(2026, 10, 18, 8, 12), 4242)

  it("reads the activity id from every form", () => {
    const forms = [
      `urn:li:activity:${id}`,
      `urn:li:share:${id}`,
      `urn:li:ugcPost:${id}`,
      id,
      `https://www.linkedin.com/feed/update/urn:li:activity:${id}/`,
      `https://www.linkedin.com/feed/update/urn%3Ali%3Aactivity%3A${id}`,
      `linkedin.com/feed/update/urn:li:activity:${id}?utm_source=share`
    ]
    for (const form of forms) assert.deepStrictEqual(Result.getOrThrow(parsePostAddress(form)), { id, authorSlug: null }, form)
  })

  it("reads the author from a /posts/ address", () => {
    const address = Result.getOrThrow(
      parsePostAddress(`https://www.linkedin.com/posts/anna-weber_cold-outreach-isnt-dead-activity-${id}-AbCd?utm_source=x`)
    )
    assert.deepStrictEqual(address, { id, authorSlug: "anna-weber" })
  })

  it("refuses bad post addresses with their reason", () => {
    const cases: ReadonlyArray<readonly [string, InvalidAddressReason]> = [
      ["", "empty"],
      ["urn:li:activity:12", "malformedIdentifier"],
      ["1234567890123456789", "malformedIdentifier"],
      ["https://www.linkedin.com/posts/anna-weber_no-id-here", "malformedIdentifier"],
      ["https://www.linkedin.com/feed/update/", "missingIdentifier"],
      ["https://www.linkedin.com/in/anna-weber", "wrongKind"],
      ["https://news.example.com/posts/x", "notNetworkAddress"],
      ["hello", "notNetworkAddress"]
    ]
    for (const [input, reason] of cases) {
      const result = parsePostAddress(input)
      assert.isTrue(Result.isFailure(result), input)
      if (Result.isFailure(result)) assert.strictEqual(result.failure.reason, reason, input)
    }
  })
})
