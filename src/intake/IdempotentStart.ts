/**
 * Runs a creating request under its optional `Idempotency-Key`: without one it
 * just runs; with one, the first request's response is stored and repeats get
 * it back (the rules are in `idempotency/Idempotency.ts`). Job, workflow and
 * automation creation all go through here.
 */
import { Effect } from "effect"
import type { Invalid, WrongState } from "../domain/Failures.ts"
import type { Idempotency } from "../idempotency/Idempotency.ts"

export const idempotent = <E, R>(
  idempotency: Idempotency["Service"],
  request: {
    readonly workspaceId: string
    readonly endpoint: string
    readonly key: string | undefined
    /** The request body as JSON: what the key's repeats must match. */
    readonly body: unknown
  },
  create: Effect.Effect<{ readonly status: number; readonly body: unknown }, E, R>
): Effect.Effect<{ readonly replayed: boolean; readonly body: unknown }, E | WrongState | Invalid, R> =>
  request.key === undefined
    ? Effect.map(create, (created) => ({ replayed: false, body: created.body }))
    : idempotency.run({ ...request, key: request.key }, create, (body) => body)
