/**
 * The one mapping from a service's refusal to the API's error (src/http/ServiceErrors.ts): each
 * kind becomes its error type, the message is kept, and the advice is worded as the `next` the
 * API has always given (these words are part of the contract a caller sees).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { NotFound } from "../../src/api/Errors.ts"
import { foreignCursor } from "../../src/domain/Cursor.ts"
import { Expired, Forbidden, Invalid, Missing, relayed, WrongState } from "../../src/domain/Failures.ts"
import { apiErrorOf, nextOf, spoken, wordsOf } from "../../src/http/ServiceErrors.ts"

describe("a service's refusal at the edge", () => {
  it("each kind is its API error, with the service's message and the advice as next", () => {
    const message = "No job 42 in this workspace."
    const cases = [
      [new Missing({ message, advice: { _tag: "ListJobs" } }), "NotFound", "notFound"],
      [new WrongState({ message, advice: { _tag: "ReadJob", jobId: "42" } }), "Conflict", "conflict"],
      [new Invalid({ message, advice: { _tag: "NewIdempotencyKey" } }), "Unprocessable", "unprocessable"],
      [new Forbidden({ message, advice: { _tag: "FreeASeat" } }), "NotAllowed", "notAllowed"],
      [new Expired({ message, advice: { _tag: "CreateJobAgain", kind: "connect" } }), "ApprovalExpired", "approvalExpired"]
    ] as const
    for (const [failure, tag, type] of cases) {
      const error = apiErrorOf(failure)
      assert.strictEqual(error._tag, tag)
      assert.deepStrictEqual(error.error, { type, message, next: nextOf(failure.advice) })
    }
  })

  it("words the advice as the API always has, the facts filled in", () => {
    assert.strictEqual(nextOf({ _tag: "ListJobs" }), "List the workspace's jobs with GET /v1/jobs.")
    assert.strictEqual(nextOf({ _tag: "ReadJob", jobId: "42" }), "Read it with GET /v1/jobs/42.")
    assert.strictEqual(nextOf({ _tag: "CreateJobAgain", kind: "connect" }), "Create the connect job again if it should still go out.")
    assert.strictEqual(
      nextOf({ _tag: "WeakerRole", role: "admin" }),
      "Choose the admin role or a weaker one (admin, member, read_only), or ask an owner."
    )
    assert.strictEqual(
      nextOf({ _tag: "AssumeWrites", most: 5000, commands: ["connect", "send_message"] }),
      "Give write commands with a count, such as assume=connect:300,send_message:20 (at most 5000 writes in all); the write commands are connect, send_message."
    )
    const cursor = apiErrorOf(foreignCursor("the newest job"))
    assert.deepStrictEqual(cursor.error, {
      type: "unprocessable",
      message: "query.cursor: the cursor is not one this API gave out.",
      next: "Pass the nextCursor of the previous page unchanged, or leave it out to start from the newest job."
    })
    // Advice the network (or a profile address) worded passes unchanged.
    assert.strictEqual(nextOf(relayed({ message: "m", next: "Check the address." }).advice), "Check the address.")
  })

  it.effect("a spoken service answers its refusals as API errors and leaves everything else as it is", () =>
    Effect.gen(function*() {
      const service = spoken({
        get: (id: string) =>
          id === "known" ? Effect.succeed(id) : Effect.fail(new Missing({ message: `No job ${id} in this workspace.`, advice: { _tag: "ListJobs" } })),
        other: () => Effect.fail("not a refusal"),
        limit: 7
      })
      assert.strictEqual(yield* service.get("known"), "known")
      const missing = yield* Effect.flip(service.get("gone"))
      assert.instanceOf(missing, NotFound)
      assert.deepStrictEqual(missing.error, {
        type: "notFound",
        message: "No job gone in this workspace.",
        next: "List the workspace's jobs with GET /v1/jobs."
      })
      assert.strictEqual(yield* Effect.flip(service.other()), "not a refusal")
      assert.strictEqual(service.limit, 7)
    }))

  it("the words of an API error and of a refusal are the same envelope fields (what MCP shows)", () => {
    const failure = new WrongState({ message: "Workflow w has already ended (completed).", advice: { _tag: "StartNewWorkflow" } })
    assert.deepStrictEqual(wordsOf(failure), wordsOf(apiErrorOf(failure)))
    assert.deepStrictEqual(wordsOf(failure), {
      type: "conflict",
      message: "Workflow w has already ended (completed).",
      next: "Start a new workflow with POST /v1/workflows."
    })
  })
})
