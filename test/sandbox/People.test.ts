import { afterEach, assert, beforeEach, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { checkInviteQuality } from "../../src/domain/InviteQuality.ts"
import { parseProfileAddress, profileOfProviderId } from "../../src/sandbox/Addresses.ts"
import { catalogue } from "../../src/sandbox/Companies.ts"
import { providerIdOfSlug } from "../../src/sandbox/Ids.ts"
import { nameOfSlug } from "../../src/sandbox/Names.ts"
import { memberFrom, personAt, placementOfSlug, sandboxSlug, summaryOf, walkthroughPerson } from "../../src/sandbox/SandboxPeople.ts"
import { places } from "../../src/sandbox/Places.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { roles } from "../../src/sandbox/Roles.ts"

const now = Date.UTC(2026, 10, 21, 9, 30)
const viewing = { account: "account-1", now }
const personOf = (address: string) => personAt(Result.getOrThrow(parseProfileAddress(address)), viewing)

const realRandom = Math.random
beforeEach(() => {
  // Any use of Math.random by the sandbox is a bug: it would break determinism.
  Math.random = () => {
    throw new Error("Math.random used")
  }
})
afterEach(() => {
  Math.random = realRandom
})

describe("people", () => {
  it("gives the same person for every form of one address", () => {
    const forms = [
      "https://www.linkedin.com/in/anna-weber",
      "http://de.linkedin.com/in/Anna-Weber/?trk=public_profile",
      "linkedin.com/in/anna-weber",
      providerIdOfSlug("anna-weber"),
      `https://www.linkedin.com/sales/lead/${"ACwAA" + providerIdOfSlug("anna-weber").slice(5)},NAME_SEARCH,abc`
    ]
    const first = personOf(forms[0])
    for (const form of forms) assert.deepStrictEqual(personOf(form), first, form)
    assert.strictEqual(first.name, "Anna Weber")
    assert.strictEqual(first.firstName, "Anna")
  })

  it("gives different people for different addresses", () => {
    const seen = new Set<string>()
    for (let i = 0; i < 300; i++) {
      const person = personAt(memberFrom(rng("population", i)), viewing)
      const fingerprint = JSON.stringify([person.name, person.headline, person.company.id, person.location, person.followers])
      assert.isFalse(seen.has(fingerprint), fingerprint)
      seen.add(fingerprint)
    }
    assert.notDeepEqual(personOf("anna-weber"), personOf("anna-weber-2"))
    assert.notStrictEqual(personOf("jsmith42").providerId, personOf("jsmith43").providerId)
  })

  it("reads names from slugs, with their accents back, and invents one when the slug spells none", () => {
    assert.deepStrictEqual(nameOfSlug("maria-garcia-lopez"), { firstName: "María", lastName: "García López" })
    assert.deepStrictEqual(nameOfSlug("pieter-van-dijk-8a7b6c5d"), { firstName: "Pieter", lastName: "van Dijk" })
    assert.deepStrictEqual(nameOfSlug("conor-obrien"), { firstName: "Conor", lastName: "O'Brien" })
    assert.isNull(nameOfSlug("jsmith42"))
    const invented = personOf("jsmith42")
    assert.isAbove(invented.firstName.length, 1)
    assert.strictEqual(invented.name, `${invented.firstName} ${invented.lastName}`)
  })

  it("round-trips the placement a sandbox slug carries", () => {
    const random = rng("placements")
    for (let i = 0; i < 500; i++) {
      const placement = {
        companyIndex: random.int(0, catalogue.length - 1),
        roleIndex: random.int(0, roles.length - 1),
        placeIndex: random.int(0, places.length - 1)
      }
      const slug = sandboxSlug({ firstName: "Zoë", lastName: "de Jong" }, placement, random.int(0, 0xfff))
      assert.match(slug, /^zoe-de-jong-[1-9][0-9a-f]{8}$/)
      assert.deepStrictEqual(placementOfSlug(slug), placement)
      const person = personAt(profileOfProviderId(providerIdOfSlug(slug)), viewing)
      assert.strictEqual(person.company.id, catalogue[placement.companyIndex].id)
      assert.strictEqual(person.title, roles[placement.roleIndex].title)
      assert.strictEqual(person.location, places[placement.placeIndex].location)
      assert.strictEqual(person.lastName, "de Jong")
    }
  })

  it("builds plausible profiles", () => {
    for (let i = 0; i < 300; i++) {
      const person = personAt(memberFrom(rng("plausible", i)), viewing)
      assert.strictEqual(person.experience[0].endDate, null)
      assert.strictEqual(person.experience[0].title, person.title)
      for (let j = 1; j < person.experience.length; j++) {
        const position = person.experience[j]
        assert.isNotNull(position.endDate)
        assert.isTrue(position.startDate <= (position.endDate ?? ""), JSON.stringify(position))
        assert.isTrue((position.endDate ?? "") <= person.experience[j - 1].startDate)
      }
      assert.isTrue(person.experience[0].startDate <= "2026-01")
      if (person.recentActivity.lastPostAt !== null) {
        assert.isBelow(Date.parse(person.recentActivity.lastPostAt), now)
        assert.isAbove(person.recentActivity.postsPerMonth, 0)
      }
      assert.isAtMost(person.mutualConnections, person.connectionDegree === 3 ? 0 : 200)
    }
  })

  it("changes only the relation (degree, mutual connections) with the viewing account", () => {
    const ref = Result.getOrThrow(parseProfileAddress("anna-weber"))
    const degrees = new Set<number>()
    for (let i = 0; i < 60; i++) {
      const seen = personAt(ref, { account: `account-${i}`, now })
      const { connectionDegree, mutualConnections, ...rest } = seen
      const { connectionDegree: _d, mutualConnections: _m, ...base } = personAt(ref, viewing)
      assert.deepStrictEqual(rest, base)
      degrees.add(connectionDegree)
      if (connectionDegree === 3) assert.strictEqual(mutualConnections, 0)
    }
    assert.isTrue(degrees.has(2) && degrees.has(3))
  })

  it("never makes the walkthrough person a connection of any account, in any form of her address", () => {
    // One account in 25 would see her as first degree without the rule: 20,000 accounts would meet hundreds.
    const forms = [walkthroughPerson, `https://www.linkedin.com/in/${walkthroughPerson}`, providerIdOfSlug(walkthroughPerson)]
      .map((address) => Result.getOrThrow(parseProfileAddress(address)))
    const degrees = new Set<number>()
    for (let i = 0; i < 20_000; i++) {
      const account = i % 2 === 0 ? `account-${i}` : crypto.randomUUID()
      for (const ref of forms) {
        const person = personAt(ref, { account, now })
        degrees.add(person.connectionDegree)
        assert.strictEqual(summaryOf(ref, account).connectionDegree, person.connectionDegree)
        // The first hour's connect passes the default minInviteQuality (30) too, whoever connects.
        assert.isNull(checkInviteQuality(person, 30), account)
      }
    }
    assert.deepStrictEqual([...degrees].sort(), [2, 3])
  })

  it("makes anyone else a connection of some accounts", () => {
    const ref = Result.getOrThrow(parseProfileAddress("anna-weber"))
    const firstDegree = Array.from({ length: 2000 }, (_, i) => personAt(ref, { account: `account-${i}`, now }))
      .filter((person) => person.connectionDegree === 1).length
    assert.isAbove(firstDegree, 40)
    assert.isBelow(firstDegree, 130)
  })

  it("keeps the latest post on the timeline as time moves on", () => {
    const active = Array.from({ length: 200 }, (_, i) => memberFrom(rng("active", i)))
      .find((ref) => personAt(ref, viewing).recentActivity.postsPerMonth >= 2)
    assert.isDefined(active)
    if (active === undefined) return
    const last = personAt(active, viewing).recentActivity.lastPostAt
    assert.isNotNull(last)
    const justAfter = Date.parse(last ?? "") + 1
    assert.strictEqual(personAt(active, { ...viewing, now: justAfter }).recentActivity.lastPostAt, last)
    const before = personAt(active, { ...viewing, now: Date.parse(last ?? "") }).recentActivity.lastPostAt
    assert.notStrictEqual(before, last)
  })
})
