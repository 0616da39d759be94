import { assert, describe, it } from "@effect/vitest"
import { headline, inPriorityOrder, replyPriority, suggestedOpener } from "../../src/domain/Brief.ts"
import { triageClasses } from "../../src/domain/TriageClass.ts"

const quiet = {
  status: "active",
  replies: [],
  readyForFirstMessage: 0,
  approvals: 0,
  queued: 0,
  openNow: true,
  nextOpening: null,
  hours: 24
}

describe("the Daily brief's rules", () => {
  it("orders every triage class, meeting and interested first, out_of_office last", () => {
    assert.sameMembers([...replyPriority], [...triageClasses])
    assert.deepStrictEqual(replyPriority.slice(0, 2), ["meeting", "interested"])
    assert.strictEqual(replyPriority[replyPriority.length - 1], "out_of_office")
  })

  it("sorts replies by priority, the newest first within a class", () => {
    const sorted = inPriorityOrder([
      { id: 1, class: "out_of_office" as const, receivedAt: "2026-11-20T10:00:00.000Z" },
      { id: 2, class: "interested" as const, receivedAt: "2026-11-20T09:00:00.000Z" },
      { id: 3, class: "not_now" as const, receivedAt: "2026-11-20T11:00:00.000Z" },
      { id: 4, class: "interested" as const, receivedAt: "2026-11-20T12:00:00.000Z" },
      { id: 5, class: "meeting" as const, receivedAt: "2026-11-19T08:00:00.000Z" }
    ])
    assert.deepStrictEqual(sorted.map((r) => r.id), [5, 4, 2, 3, 1])
  })

  it("suggests an opener that greets the person by first name and follows up a note", () => {
    assert.match(suggestedOpener("Ada Lovelace", null), /^Hi Ada, thanks for connecting/)
    assert.match(suggestedOpener("Ada Lovelace", "Loved your talk"), /^Hi Ada, thanks for accepting my invitation/)
    assert.match(suggestedOpener(null, null), /^Hi, thanks/)
  })

  it("headlines people ready to talk first, then other replies, connections and approvals", () => {
    const line = headline({
      ...quiet,
      replies: [{ class: "meeting", unsure: false }, { class: "interested", unsure: false }, { class: "out_of_office", unsure: false }],
      readyForFirstMessage: 2,
      approvals: 1
    })
    assert.strictEqual(
      line,
      "2 people are ready to talk (1 asks for a meeting): answer them first; 1 other reply to read; 2 new connections are ready for a first message; 1 write waits for your approval."
    )
  })

  it("says how many replies triage is unsure of, after the replies to read", () => {
    const line = headline({
      ...quiet,
      replies: [{ class: "interested", unsure: false }, { class: "not_now", unsure: true }, { class: "other", unsure: true }]
    })
    assert.strictEqual(
      line,
      "1 person is interested: answer them first; 2 other replies to read; triage is unsure of 2 replies: read them yourself."
    )
    assert.match(headline({ ...quiet, replies: [{ class: "meeting", unsure: true }] }), /triage is unsure of 1 reply: read it yourself\.$/)
  })

  it("puts a held account before everything else", () => {
    const line = headline({ ...quiet, status: "reconnect_required", replies: [{ class: "interested", unsure: false }] })
    assert.match(line, /^The account was signed out: reconnect it before anything else; 1 person is interested/)
  })

  it("says nothing needs the person when all is quiet, and what the queue does", () => {
    assert.strictEqual(headline(quiet), "Nothing needs you: no replies in the last day, and the queue is empty.")
    assert.strictEqual(
      headline({ ...quiet, queued: 3, openNow: false, nextOpening: "2026-11-23T08:00:00.000Z", hours: 48 }),
      "Nothing needs you: no replies in the last 48 hours, and 3 jobs wait for the working hours at 2026-11-23T08:00:00.000Z."
    )
  })
})
