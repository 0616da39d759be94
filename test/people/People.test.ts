import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { COLD_MESSAGE_HOLD_DAYS } from "../../src/api/PeopleApi.ts"
import { PACING_MAX_MS } from "../../src/domain/Job.ts"
import { Inbox } from "../../src/inbox/Inbox.ts"
import { Jobs } from "../../src/jobs/Jobs.ts"
import * as PersonClaim from "../../src/jobs/PersonClaim.ts"
import { NetworkDriver } from "../../src/network/NetworkDriver.ts"
import { invitationOutcome, replyOutcome } from "../../src/sandbox/Behaviour.ts"
import { memberFrom, relationTo } from "../../src/sandbox/SandboxPeople.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { otherSeatRefusal } from "../../src/people/People.ts"
import { call, layer as serverLayer, newWorkspace } from "../support/TestServer.ts"
import { connectedAccount, DAY, jobAfter, strangers, workspaceWithAccount } from "../jobs/support.ts"

const reply = "Sounds good, let's talk. Does Tuesday at 10am work for a call?"

/** Made-up people, as profile addresses, who are connections of none of the accounts (so a message to them is cold). */
const strangersToAll = (accountIds: ReadonlyArray<string>, count: number, salt: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  for (let i = 0; found.length < count && i < 50_000; i++) {
    const ref = memberFrom(rng(salt, i))
    if (accountIds.every((accountId) => relationTo(accountId, ref.providerId).connectionDegree !== 1)) found.push(ref.profileUrl)
  }
  return found
}

/** A made-up stranger to the account who, left alone, neither accepts its invitation nor answers its first message. */
const quietStranger = (accountId: string, salt: string): string => {
  for (let i = 0; i < 50_000; i++) {
    const ref = memberFrom(rng(salt, accountId, i))
    if (
      relationTo(accountId, ref.providerId).connectionDegree !== 1 &&
      !invitationOutcome(accountId, ref.providerId).accepts &&
      replyOutcome(accountId, ref.providerId, 0) === null
    ) return ref.profileUrl
  }
  throw new Error("nobody found")
}

/** A made-up person who is a connection of `friendOf` and not of `strangerTo`. */
const friendOnlyOf = (friendOf: string, strangerTo: string, salt: string): string => {
  for (let i = 0; i < 50_000; i++) {
    const ref = memberFrom(rng(salt, i))
    if (relationTo(friendOf, ref.providerId).connectionDegree === 1 && relationTo(strangerTo, ref.providerId).connectionDegree !== 1) {
      return ref.profileUrl
    }
  }
  throw new Error("nobody found")
}

/** Runs a command on an account and waits for its job to finish. */
const run = (workspaceId: string, accountId: string, command: "connect" | "send_message" | "get_profile", input: unknown) =>
  Effect.gen(function*() {
    const job = yield* (yield* Jobs).create({ workspaceId, accountId, command, input })
    return yield* jobAfter(workspaceId, job.id)
  })

/**
 * Two seats of one workspace, Ada inviting a stranger to both and Grace writing to them (`grace`'s command), both in
 * `approve` mode so that the Governor leaves their writes alone (the test moves them); the person's profile as Grace
 * reads it, and the claim of a write (People's claim and the job's link, in one transaction).
 */
const twoSeatsAbout = (salt: string, grace: (person: string) => { readonly command: "connect" | "send_message"; readonly input: unknown }) =>
  Effect.gen(function*() {
    const { token, workspaceId, accountId: ada } = yield* workspaceWithAccount({ mode: "approve" })
    const graceId = yield* connectedAccount(token, { mode: "approve" }, "Grace")
    const [person] = strangersToAll([ada, graceId], 1, salt)
    const jobs = yield* Jobs
    const adaJob = yield* jobs.create({ workspaceId, accountId: ada, command: "connect", input: { person } })
    const graceJob = yield* jobs.create({ workspaceId, accountId: graceId, ...grace(person) })
    const profile = yield* (yield* NetworkDriver).read(graceId, "get_profile", { person })
    return { ada, grace: graceId, adaJob: { ...adaJob, workspaceId }, graceJob: { ...graceJob, workspaceId }, profile, claim: yield* PersonClaim.make }
  })

/** The person at a profile address, found through the API. */
const personAt = (token: string, profile: string) =>
  Effect.gen(function*() {
    const found = yield* call("GET", `/v1/people?profile=${encodeURIComponent(profile)}`, { token })
    assert.strictEqual(found.status, 200, JSON.stringify(found.body))
    assert.strictEqual(found.body.people.length, 1, JSON.stringify(found.body))
    return found.body.people[0]
  })

interface Listed {
  readonly id: string
  readonly name: string | null
  readonly headline: string | null
  readonly company: string | null
  readonly profileUrl: string
  readonly lastActivityAt: string
}

layer(serverLayer())("people", (it) => {
  it.effect("search by name, company and any form of the profile address; cursor pages cover everyone once", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const addresses = strangers(accountId, 5, "people-search")
      const profiles: Array<{ providerId: string; name: string; profileUrl: string; publicIdentifier: string; company: { name: string } }> = []
      for (const person of addresses) {
        const read = yield* run(workspaceId, accountId, "get_profile", { person })
        assert.strictEqual(read.status, "completed", JSON.stringify(read.error))
        profiles.push(read.result as (typeof profiles)[number])
        yield* TestClock.adjust(60_000)
      }

      const all = yield* call("GET", "/v1/people", { token })
      assert.strictEqual(all.status, 200, JSON.stringify(all.body))
      assert.strictEqual(all.body.ok, true)
      const everyone: ReadonlyArray<Listed> = all.body.people
      assert.strictEqual(everyone.length, 5)
      assert.isNull(all.body.nextCursor)
      // Latest activity first: the last profile read comes first.
      assert.strictEqual(everyone[0].profileUrl, profiles[4].profileUrl)
      assert.deepStrictEqual(
        [...everyone].map((p) => p.lastActivityAt),
        [...everyone].map((p) => p.lastActivityAt).sort().reverse()
      )
      const first = everyone.find((p) => p.profileUrl === profiles[0].profileUrl)
      assert.isDefined(first)
      assert.deepInclude(first, { name: profiles[0].name, company: profiles[0].company.name })
      assert.deepInclude(all.body.people[0].accounts[0], { accountId, label: "Ada", relationship: "none", invitation: null })

      // By name: one word of it, in another case, finds the person, and only people it fits.
      const word = profiles[0].name.split(" ").at(-1) ?? ""
      const byName = yield* call("GET", `/v1/people?q=${encodeURIComponent(word.toUpperCase())}`, { token })
      assert.strictEqual(byName.status, 200, JSON.stringify(byName.body))
      assert.include(byName.body.people.map((p: Listed) => p.profileUrl), profiles[0].profileUrl)
      for (const p of byName.body.people as ReadonlyArray<Listed>) {
        assert.include([p.name, p.headline, p.company, p.profileUrl].join(" ").toLowerCase(), word.toLowerCase())
      }
      const nobody = yield* call("GET", `/v1/people?q=${encodeURIComponent(`${word} zzqx`)}`, { token })
      assert.deepStrictEqual(nobody.body.people, [])

      // By company.
      const company = profiles[1].company.name
      const byCompany = yield* call("GET", `/v1/people?company=${encodeURIComponent(company.toLowerCase())}`, { token })
      assert.include(byCompany.body.people.map((p: Listed) => p.profileUrl), profiles[1].profileUrl)
      for (const p of byCompany.body.people as ReadonlyArray<Listed>) assert.include(p.company?.toLowerCase(), company.toLowerCase())

      // By profile address: every form of one person's address finds exactly that person.
      for (const form of [
        profiles[2].profileUrl,
        `linkedin.com/in/${profiles[2].publicIdentifier.toUpperCase()}/`,
        profiles[2].providerId
      ]) {
        const byProfile = yield* call("GET", `/v1/people?profile=${encodeURIComponent(form)}`, { token })
        assert.strictEqual(byProfile.status, 200, JSON.stringify(byProfile.body))
        assert.deepStrictEqual(byProfile.body.people.map((p: Listed) => p.profileUrl), [profiles[2].profileUrl], form)
      }
      const notAPerson = yield* call("GET", `/v1/people?profile=${encodeURIComponent("https://www.linkedin.com/company/acme")}`, { token })
      assert.strictEqual(notAPerson.status, 422)
      assert.strictEqual(notAPerson.body.error.type, "unprocessable")
      assert.include(notAPerson.body.error.message, "query.profile")

      // Pages of 2: 2, 2, 1, in the order of the whole list, each person once.
      const paged: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const page: { status: number; body: { people: ReadonlyArray<Listed>; nextCursor: string | null } } = yield* call(
          "GET",
          `/v1/people?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`,
          { token }
        )
        assert.strictEqual(page.status, 200, JSON.stringify(page.body))
        assert.isAtMost(page.body.people.length, 2)
        paged.push(...page.body.people.map((p) => p.id))
        cursor = page.body.nextCursor
        pages++
      } while (cursor !== null && pages < 10)
      assert.strictEqual(pages, 3)
      assert.deepStrictEqual(paged, everyone.map((p) => p.id))

      const badCursor = yield* call("GET", "/v1/people?cursor=not-a-cursor", { token })
      assert.strictEqual(badCursor.status, 422)
      assert.strictEqual(badCursor.body.ok, false)
      assert.strictEqual(badCursor.body.error.type, "unprocessable")
      assert.include(badCursor.body.error.message, "cursor")

      // Another workspace has its own people.
      const other = yield* newWorkspace("Another workspace")
      const foreign = yield* call("GET", "/v1/people", { token: other.keyValue })
      assert.deepStrictEqual(foreign.body.people, [])
      const foreignPerson = yield* call("GET", `/v1/people/${everyone[0].id}`, { token: other.keyValue })
      assert.strictEqual(foreignPerson.status, 404)
    }))

  it.effect("the timeline after a connect job, its acceptance, a message and a triaged reply; 404 and 400 for bad ids", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      // The reply and the acceptance are the test's own: the person does neither unasked.
      const person = quietStranger(accountId, "people-timeline")
      const connect = yield* run(workspaceId, accountId, "connect", { person, note: "Hello from Ada" })
      assert.strictEqual(connect.status, "completed", JSON.stringify(connect.error))
      const { invitationId } = connect.result as { invitationId: string }

      yield* TestClock.adjust(3_600_000)
      const accepted = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "invitation_accepted", invitationId }
      })
      assert.strictEqual(accepted.status, 200, JSON.stringify(accepted.body))
      yield* TestClock.adjust(3_600_000)
      const message = yield* run(workspaceId, accountId, "send_message", { person, text: "Thanks for connecting!" })
      assert.strictEqual(message.status, "completed", JSON.stringify(message.error))
      yield* TestClock.adjust(3_600_000)
      const answered = yield* call("POST", `/v1/sandbox/accounts/${accountId}/events`, {
        token,
        body: { type: "message_received", person, text: reply }
      })
      assert.strictEqual(answered.status, 200, JSON.stringify(answered.body))
      yield* TestClock.adjust(60_000)
      assert.strictEqual((yield* (yield* Inbox).syncAccount(accountId))._tag, "Synced")

      const listed = yield* personAt(token, person)
      const found = yield* call("GET", `/v1/people/${listed.id}`, { token })
      assert.strictEqual(found.status, 200, JSON.stringify(found.body))
      assert.strictEqual(found.body.ok, true)
      const { person: record, timeline } = found.body
      assert.strictEqual(record.id, listed.id)
      assert.strictEqual(record.name, (connect.result as { person: { name: string } }).person.name)
      assert.isString(record.company)
      assert.deepStrictEqual(record.accounts, [{
        accountId,
        label: "Ada",
        relationship: "connected",
        invitation: "accepted",
        messagesSent: 1,
        messagesReceived: 1,
        lastActivityAt: timeline[0].at
      }])
      assert.strictEqual(record.lastActivityAt, timeline[0].at)

      // Newest first: the reply (triaged), the message and its job, the acceptance, the connect job and its invitation.
      assert.deepStrictEqual(
        timeline.map((entry: { kind: string; command?: string }) => entry.command === undefined ? entry.kind : `job:${entry.command}`),
        ["message_received", "message_sent", "job:send_message", "invitation_accepted", "job:connect", "invitation"]
      )
      assert.deepInclude(timeline[0], { accountId, accountLabel: "Ada", text: reply })
      assert.strictEqual(timeline[0].triage.class, "meeting")
      assert.isString(timeline[0].triage.suggestedReply)
      assert.deepInclude(timeline[1], { jobId: message.id, text: "Thanks for connecting!", inmail: false })
      assert.deepInclude(timeline[3], { invitationId })
      assert.deepInclude(timeline[4], { jobId: connect.id, status: "completed", error: null })
      assert.deepInclude(timeline[5], { invitationId, status: "accepted", source: "svc", note: "Hello from Ada" })
      for (let i = 1; i < timeline.length; i++) assert.isTrue(timeline[i - 1].at >= timeline[i].at, "newest first")

      const unknown = yield* call("GET", `/v1/people/${crypto.randomUUID()}`, { token })
      assert.strictEqual(unknown.status, 404)
      assert.strictEqual(unknown.body.error.type, "notFound")
      assert.isString(unknown.body.error.next)
      const malformed = yield* call("GET", "/v1/people/not-a-uuid", { token })
      assert.strictEqual(malformed.status, 400)
      assert.strictEqual(malformed.body.error.type, "badRequest")
      const anonymous = yield* call("GET", "/v1/people")
      assert.strictEqual(anonymous.status, 401)
    }))

  it.effect("a person known only from syncing: an invitation sent on the network itself, without a name until the profile is read", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId } = yield* workspaceWithAccount()
      const person = quietStranger(accountId, "people-external")
      const sent = yield* (yield* NetworkDriver).write(accountId, "connect", { person })
      yield* TestClock.adjust(60_000)
      assert.strictEqual((yield* (yield* Inbox).syncAccount(accountId))._tag, "Synced")

      const listed = yield* personAt(token, sent.person.providerId)
      assert.deepInclude(listed, { profileUrl: sent.person.profileUrl, name: null, company: null })
      assert.deepInclude(listed.accounts[0], { accountId, relationship: "invited", invitation: "pending" })
      const found = yield* call("GET", `/v1/people/${listed.id}`, { token })
      assert.deepStrictEqual(
        found.body.timeline.map((entry: { kind: string; source?: string }) => [entry.kind, entry.source]),
        [["invitation", "external"]]
      )

      // Reading the profile tells who they are; it is the same person, whatever address the read used.
      yield* TestClock.adjust(60_000)
      const read = yield* run(workspaceId, accountId, "get_profile", { person: sent.person.providerId })
      assert.strictEqual(read.status, "completed", JSON.stringify(read.error))
      const known = yield* personAt(token, person)
      assert.strictEqual(known.id, listed.id)
      assert.strictEqual(known.name, sent.person.name)
      assert.isString(known.company)
      assert.isTrue(known.lastActivityAt > listed.lastActivityAt)
    }))

  it.effect("cross-seat guardrail on connect: the second seat fails naming the first, and the person's history shows both", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId: ada } = yield* workspaceWithAccount()
      const grace = yield* connectedAccount(token, {}, "Grace")
      const [person] = strangersToAll([ada, grace], 1, "people-seats-connect")
      const first = yield* run(workspaceId, ada, "connect", { person })
      assert.strictEqual(first.status, "completed", JSON.stringify(first.error))
      const second = yield* run(workspaceId, grace, "connect", { person })
      assert.strictEqual(second.status, "failed")
      const error = second.error as { type: string; message: string }
      assert.strictEqual(error.type, "guardrail")
      assert.include(error.message, "Ada")
      assert.include(error.message, ada)
      assert.include(error.message, "pending invitation")

      const listed = yield* personAt(token, person)
      const found = yield* call("GET", `/v1/people/${listed.id}`, { token })
      const accounts = found.body.person.accounts as ReadonlyArray<{ label: string; relationship: string }>
      assert.sameDeepMembers(accounts.map((a) => [a.label, a.relationship]), [["Ada", "invited"], ["Grace", "none"]])
      const refused = found.body.timeline.find((entry: { jobId?: string }) => entry.jobId === second.id)
      assert.deepInclude(refused, { kind: "job", accountLabel: "Grace", status: "failed" })
      assert.strictEqual(refused.error.type, "guardrail")
    }))

  it.effect("cross-seat guardrail on cold messages: held while unanswered, free after a reply or the hold; warm messages pass", () =>
    Effect.gen(function*() {
      const { token, workspaceId, accountId: ada } = yield* workspaceWithAccount()
      const grace = yield* connectedAccount(token, {}, "Grace")
      const [first, second] = strangersToAll([ada, grace], 2, "people-seats-cold")

      // Ada's InMail holds the person: Grace may neither cold-message nor invite them.
      const inmail = yield* run(workspaceId, ada, "send_message", { person: first, text: "Hi, a two-minute idea?", inmail: true })
      assert.strictEqual(inmail.status, "completed", JSON.stringify(inmail.error))
      assert.strictEqual((inmail.result as { inmail: boolean }).inmail, true)
      const cold = yield* run(workspaceId, grace, "send_message", { person: first, text: "Hello!", inmail: true })
      assert.strictEqual(cold.status, "failed")
      const coldError = cold.error as { type: string; message: string }
      assert.strictEqual(coldError.type, "guardrail")
      assert.include(coldError.message, "Ada")
      assert.include(coldError.message, "cold message")
      yield* TestClock.adjust(PACING_MAX_MS)
      const invite = yield* run(workspaceId, grace, "connect", { person: first })
      assert.strictEqual(invite.status, "failed")
      assert.include((invite.error as { message: string }).message, "Ada")

      // Once the person answers Ada, Grace may write to them.
      yield* call("POST", `/v1/sandbox/accounts/${ada}/events`, { token, body: { type: "message_received", person: first, text: reply } })
      yield* TestClock.adjust(60_000)
      assert.strictEqual((yield* (yield* Inbox).syncAccount(ada))._tag, "Synced")
      yield* TestClock.adjust(PACING_MAX_MS)
      const afterReply = yield* run(workspaceId, grace, "send_message", { person: first, text: "Hello!", inmail: true })
      assert.strictEqual(afterReply.status, "completed", JSON.stringify(afterReply.error))

      // An unanswered InMail holds the person for the hold's days, and not after.
      yield* TestClock.adjust(PACING_MAX_MS)
      const unanswered = yield* run(workspaceId, ada, "send_message", { person: second, text: "Hi there", inmail: true })
      assert.strictEqual(unanswered.status, "completed", JSON.stringify(unanswered.error))
      yield* TestClock.adjust((COLD_MESSAGE_HOLD_DAYS - 1) * DAY)
      const held = yield* run(workspaceId, grace, "send_message", { person: second, text: "Hello!", inmail: true })
      assert.strictEqual(held.status, "failed")
      assert.strictEqual((held.error as { type: string }).type, "guardrail")
      yield* TestClock.adjust(2 * DAY)
      const free = yield* run(workspaceId, grace, "send_message", { person: second, text: "Hello!", inmail: true })
      assert.strictEqual(free.status, "completed", JSON.stringify(free.error))

      // A message to one of Grace's own connections is not cold: Ada's pending invitation does not hold it.
      const friend = friendOnlyOf(grace, ada, "people-seats-warm")
      yield* TestClock.adjust(PACING_MAX_MS)
      const invited = yield* run(workspaceId, ada, "connect", { person: friend })
      assert.strictEqual(invited.status, "completed", JSON.stringify(invited.error))
      yield* TestClock.adjust(PACING_MAX_MS)
      const warm = yield* run(workspaceId, grace, "send_message", { person: friend, text: "Good to see you yesterday" })
      assert.strictEqual(warm.status, "completed", JSON.stringify(warm.error))
    }))

  it.effect("a seat's invitation or message in flight holds the person until its job ends; the claim links the job", () =>
    Effect.gen(function*() {
      const { ada, adaJob, claim, graceJob, profile } = yield* twoSeatsAbout(
        "people-in-flight",
        (person) => ({ command: "send_message", input: { person, text: "Hi", inmail: true } })
      )
      const sql = yield* SqlClient.SqlClient
      assert.notStrictEqual(profile.connectionDegree, 1)

      yield* sql`UPDATE jobs SET status = 'running', started_at = created_at WHERE id = ${adaJob.id}`
      assert.isUndefined(yield* claim({ job: adaJob, profile, about: "invitation" }))
      const held = yield* claim({ job: graceJob, profile, about: "message" })
      assert.isDefined(held)
      assert.deepInclude(held, { accountId: ada, label: "Ada", reason: "in_flight" })
      assert.include(otherSeatRefusal(profile.name, held).message, "Ada")

      // Its job ended without an invitation: the person is free again.
      yield* sql`UPDATE jobs SET status = 'failed' WHERE id = ${adaJob.id}`
      assert.isUndefined(yield* claim({ job: graceJob, profile, about: "message" }))
      const linked = yield* sql<{ n: number }>`
        SELECT count(*)::int AS n FROM jobs WHERE id IN (${adaJob.id}, ${graceJob.id}) AND person_id IS NOT NULL`
      assert.strictEqual(linked[0].n, 2)
    }))

  it.effect("two seats claiming one person at the same instant: the link is in the claim's transaction, so the second sees the first", () =>
    Effect.gen(function*() {
      const { ada, adaJob, claim, grace, graceJob, profile } = yield* twoSeatsAbout(
        "people-same-instant",
        (person) => ({ command: "connect", input: { person } })
      )
      const sql = yield* SqlClient.SqlClient
      // Both writes are running (their attempts recorded), neither linked to the person yet.
      yield* sql`UPDATE jobs SET status = 'running', started_at = created_at WHERE id IN (${adaJob.id}, ${graceJob.id})`

      const [toAda, toGrace] = yield* Effect.all([
        claim({ job: adaJob, profile, about: "invitation" }),
        claim({ job: graceJob, profile, about: "invitation" })
      ], { concurrency: 2 })
      // Whichever took the person's row first holds it; the other, waiting for that row, found its job linked.
      const told = [toAda, toGrace].filter((other) => other !== undefined)
      assert.strictEqual(told.length, 1, JSON.stringify([toAda, toGrace]))
      assert.deepInclude(told[0], { reason: "in_flight", accountId: toAda === undefined ? ada : grace })
      const linked = yield* sql<{ jobs: number; people: number }>`
        SELECT count(*)::int AS jobs, count(DISTINCT person_id)::int AS people
        FROM jobs WHERE id IN (${adaJob.id}, ${graceJob.id}) AND person_id IS NOT NULL`
      assert.deepStrictEqual({ ...linked[0] }, { jobs: 2, people: 1 })
    }))
})
