/**
 * The job explorer (issue #32): filters, the failure reason in the list, a job
 * as a sentence, cancel, and retry of a failed write as a new job.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { csrfTokenFor } from "../../src/http/SessionCookie.ts"
import { SignIn } from "../../src/team/SignIn.ts"
import { connectedAccount, strangers } from "../jobs/support.ts"
import { cookie, ownerSession, password } from "../support/Teammates.ts"
import { call, layer as serverLayer } from "../support/TestServer.ts"

layer(serverLayer())("the job explorer", (it) => {
  it.effect("lists jobs in words with filters; cancels one; retries a failed write as a new job", () =>
    Effect.gen(function*() {
      const { key, email } = yield* ownerSession
      const accountId = yield* connectedAccount(key, { mode: "approve" })
      const [first, second] = strangers(accountId, 2, "explorer")
      const one = (yield* call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person: first, note: "First note" } })).body.job
      const two = (yield* call("POST", `/v1/accounts/${accountId}/connect`, { token: key, body: { person: second, note: "Second note" } })).body.job
      const approvals = (yield* call("GET", "/v1/approvals", { token: key })).body.approvals
      const approvalOfTwo = approvals.find((a: { jobId: string }) => a.jobId === two.id).id
      yield* call("POST", `/v1/approvals/${approvalOfTwo}/reject`, { token: key, body: { reason: "wrong person" } })
      const outcome = yield* (yield* SignIn).password(email, password)
      const token = outcome._tag === "SignedIn" ? outcome.session.token : ""
      const headers = cookie(token)
      const form = (fields = "") => ({ headers, raw: { text: `_csrf=${encodeURIComponent(csrfTokenFor(token))}${fields}`, contentType: "application/x-www-form-urlencoded" } })

      const all = yield* call("GET", "/dashboard/jobs", { headers })
      assert.include(all.body, "Invitation to")
      assert.include(all.body, "Waiting for approval")
      assert.include(all.body, "wrong person")
      const failed = yield* call("GET", "/dashboard/jobs?status=failed", { headers })
      assert.include(failed.body, "Second note")
      assert.notInclude(failed.body, "First note")

      const page = yield* call("GET", `/dashboard/jobs/${one.id}`, { headers })
      assert.match(page.body, /Invitation to <a href="https:\/\/www\.linkedin\.com\/in\/[^"]+"[^>]*>[^<]+<\/a>, note “First note”/)
      assert.include(page.body, "waits for a person&#39;s approval")
      assert.include(page.body, "The job as JSON")

      const cancelled = yield* call("POST", `/dashboard/jobs/${one.id}/cancel`, form())
      assert.strictEqual(cancelled.status, 200)
      assert.strictEqual((yield* call("GET", `/v1/jobs/${one.id}`, { token: key })).body.job.status, "cancelled")
      const again = yield* call("POST", `/dashboard/jobs/${one.id}/cancel`, form())
      assert.strictEqual(again.status, 409)

      const retried = yield* call("POST", `/dashboard/jobs/${two.id}/retry`, form())
      assert.strictEqual(retried.status, 200)
      assert.include(retried.body, "A new job was made")
      const jobs = (yield* call("GET", `/v1/jobs?account=${accountId}&status=awaiting_approval`, { token: key })).body.jobs
      assert.strictEqual(jobs.length, 1)
      assert.notStrictEqual(jobs[0].id, two.id)
      assert.deepStrictEqual(jobs[0].input, two.input)
      // A job that did not fail is not retried.
      const refused = yield* call("POST", `/dashboard/jobs/${jobs[0].id}/retry`, form())
      assert.strictEqual(refused.status, 409)
    }), { timeout: 60_000 })
})
