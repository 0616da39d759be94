/**
 * How a command becomes a job, for every door it comes in by (REST's command
 * endpoints and `POST /v1/jobs`, an assistant's tools): created under its
 * optional Idempotency-Key, then handed to the Governor by `Jobs.create`.
 */
import { Effect, Schema } from "effect"
import { type CommandName, commands } from "../domain/Commands.ts"
import { Idempotency } from "../idempotency/Idempotency.ts"
import type { JobRecord } from "../jobs/JobRow.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { idempotent } from "./IdempotentStart.ts"

/** The idempotency scope of a command sent to an account: the same for REST and assistants. */
export const commandEndpoint = (accountId: string, command: CommandName) => `POST /v1/accounts/${accountId}/${command}`

/** Accepts commands; needs `Jobs` and `Idempotency`. */
export const make = Effect.gen(function*() {
  const jobs = yield* Jobs
  const idempotency = yield* Idempotency
  /**
   * Creates the job, or with an Idempotency-Key answers the first request's job again; `body`
   * is what the key's repeats must match (the request's JSON, default the command's encoded input).
   */
  return Effect.fn("JobIntake.accept")(function*(request: {
    readonly workspaceId: string
    readonly endpoint: string
    readonly accountId: string
    readonly command: CommandName
    readonly input: unknown
    readonly body?: unknown
    readonly key: string | undefined
  }) {
    const body = request.body ?? (yield* Schema.encodeUnknownEffect(commands[request.command].input)(request.input).pipe(Effect.orDie))
    const create = Effect.map(
      jobs.create({ workspaceId: request.workspaceId, accountId: request.accountId, command: request.command, input: request.input }),
      (job): { readonly status: number; readonly body: JobRecord } => ({ status: 202, body: job })
    )
    const answer = yield* idempotent(idempotency, { workspaceId: request.workspaceId, endpoint: request.endpoint, key: request.key, body }, create)
    return { replayed: answer.replayed, job: answer.body }
  })
})
