/**
 * `Idempotency` in memory, for fast tests of the request path without a
 * database: the rules of the stored one (`Idempotency.ts`), for one process. A
 * key is scoped to the workspace and the endpoint and kept `keyLifetime`; the
 * same body replays the first response, another body is 422, a repeat while
 * the first request runs is 409, a claim older than `staleClaimAfter` is taken
 * over, and a `create` that fails or is interrupted drops its claim.
 */
import { Duration, Effect, Exit, Layer } from "effect"
import * as Time from "../domain/Time.ts"
import * as AfterCommit from "../platform/AfterCommit.ts"
import {
  bodyHash,
  Idempotency,
  type IdempotentRequest,
  keyLifetime,
  staleClaimAfter,
  stillInProgress,
  usedWithAnotherBody
} from "./Idempotency.ts"

/** A key's use: its claim, and once `create` succeeded, the response kept for repeats. */
interface Use {
  readonly hash: string
  readonly claimedMs: number
  readonly expiresMs: number
  readonly response: { readonly status: number; readonly body: unknown } | undefined
}

const slotOf = (request: IdempotentRequest) => JSON.stringify([request.workspaceId, request.endpoint, request.key])

/** The in-memory `Idempotency`; needs nothing. */
export const layer = Layer.sync(Idempotency, () => {
  const uses = new Map<string, Use>()

  /** Claims the key, or says why not, in one synchronous step (as the stored claim is one statement). */
  const claim = (request: IdempotentRequest, hash: string, nowMs: number) => {
    for (const [slot, use] of uses) if (use.expiresMs <= nowMs) uses.delete(slot)
    const existing = uses.get(slotOf(request))
    const stale = existing?.response === undefined && (existing?.claimedMs ?? 0) <= nowMs - Duration.toMillis(staleClaimAfter)
    if (existing === undefined || stale) {
      const use: Use = { hash, claimedMs: nowMs, expiresMs: nowMs + Duration.toMillis(keyLifetime), response: undefined }
      uses.set(slotOf(request), use)
      return { _tag: "Claimed", use } as const
    }
    if (existing.hash !== hash) return { _tag: "Refused", error: usedWithAnotherBody(request.key) } as const
    if (existing.response === undefined) return { _tag: "Refused", error: stillInProgress(request.key) } as const
    return { _tag: "Replay", response: existing.response } as const
  }

  /** Keeps the response, or drops the claim, unless a later request took the key over meanwhile. */
  const settle = (request: IdempotentRequest, own: Use, response: Use["response"]) =>
    Effect.sync(() => {
      if (uses.get(slotOf(request)) !== own) return
      if (response === undefined) uses.delete(slotOf(request))
      else uses.set(slotOf(request), { ...own, response })
    })

  const run: Idempotency["Service"]["run"] = (request, create, encode) =>
    Effect.gen(function*() {
      const now = yield* Time.now
      const outcome = claim(request, bodyHash(request.body), now.ms)
      if (outcome._tag === "Refused") return yield* Effect.fail(outcome.error)
      if (outcome._tag === "Replay") return { replayed: true, ...outcome.response } as const
      const created = yield* AfterCommit.collecting(create).pipe(
        Effect.onExit((exit) =>
          settle(request, outcome.use, Exit.isSuccess(exit) ? { status: exit.value.status, body: encode(exit.value.body) } : undefined)
        )
      )
      return { replayed: false, status: created.status, body: created.body } as const
    })

  return Idempotency.of({ run })
})
