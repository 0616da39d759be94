/**
 * Commands and jobs: the 21 command endpoints and `POST /v1/jobs` (with
 * Idempotency-Key), reading with long-poll, listing and cancelling.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../api/Api.ts"
import { acceptedJob, decodeJob, decodeJobOf, JobAnswer, LIST_LIMIT_DEFAULT } from "../api/JobsApi.ts"
import { type CommandName, commands } from "../domain/Commands.ts"
import { isFinished } from "../domain/Job.ts"
import { CurrentPrincipal } from "../domain/Principal.ts"
import { Draining } from "./Draining.ts"
import * as JobIntake from "../intake/JobIntake.ts"
import { Jobs } from "../jobs/Jobs.ts"
import type { JobRecord } from "../jobs/JobRow.ts"
import * as HandlerGroup from "./HandlerGroup.ts"
import { spoken, spokenFn } from "./ServiceErrors.ts"

const ok = true as const

const encodeJobAnswer = Schema.encodeSync(Schema.toCodecJson(JobAnswer))

export const JobsHandlers = Layer.unwrap(Effect.gen(function*() {
  const jobs = spoken(yield* Jobs)
  const draining = yield* Draining
  const accept = spokenFn(yield* JobIntake.make)
  const workspace = CurrentPrincipal.useSync((principal) => principal.workspaceId)
  // A finished job never changes, and Jobs answers it from memory as the same record each time
  // (jobs/FinishedJobs.ts): its answer is decoded and encoded once, like GET /v1/me's.
  const finishedAnswers = new WeakMap<JobRecord, HttpServerResponse.HttpServerResponse>()
  const answerOf = (job: JobRecord) => {
    const encoded = finishedAnswers.get(job)
    if (encoded !== undefined) return Effect.succeed(encoded)
    return Effect.map(Effect.orDie(decodeJob(job)), (decoded) => {
      const answer = { ok, job: decoded }
      if (!isFinished(job.status)) return answer
      const response = HttpServerResponse.jsonUnsafe(encodeJobAnswer(answer))
      finishedAnswers.set(job, response)
      return response
    })
  }

  const command = <C extends CommandName>(name: C) =>
  ({ params, payload, headers }: {
    readonly params: { readonly id: string }
    readonly payload: unknown
    readonly headers: { readonly "idempotency-key"?: string | undefined }
  }) =>
    Effect.gen(function*() {
      const answer = yield* accept({
        workspaceId: yield* workspace,
        endpoint: JobIntake.commandEndpoint(params.id, name),
        accountId: params.id,
        command: name,
        input: payload,
        key: headers["idempotency-key"]
      })
      const job = yield* decodeJobOf(name)(answer.job).pipe(Effect.orDie)
      return acceptedJob(job, answer.replayed)
    })

  return HandlerGroup.onMiddlewares(HttpApiBuilder.group(Api, "jobs", (handlers) =>
    handlers.handleAll({
      create: ({ payload, headers }) =>
        Effect.gen(function*() {
          const input = yield* Schema.encodeUnknownEffect(commands[payload.command].input)(payload.input).pipe(Effect.orDie)
          const answer = yield* accept({
            workspaceId: yield* workspace,
            endpoint: "POST /v1/jobs",
            accountId: payload.account,
            command: payload.command,
            input: payload.input,
            body: { account: payload.account, command: payload.command, input },
            key: headers["idempotency-key"]
          })
          return acceptedJob(yield* decodeJob(answer.job).pipe(Effect.orDie), answer.replayed)
        }),
      // Plain combinators rather than a generator: every poll of a job comes here.
      get: ({ params, query }) =>
        Effect.flatMap(workspace, (workspaceId) =>
          Effect.flatMap(
            // A long-poll ends at once when the service begins to stop, with the job as it is then.
            query.wait === undefined || query.wait === 0
              ? jobs.get(workspaceId, params.id)
              : Effect.raceFirst(
                jobs.get(workspaceId, params.id, query.wait),
                Effect.andThen(draining.started, jobs.get(workspaceId, params.id))
              ),
            answerOf
          )),
      list: ({ query }) =>
        Effect.gen(function*() {
          const page = yield* jobs.list(yield* workspace, {
            accountId: query.account,
            status: query.status,
            kind: query.kind,
            cursor: query.cursor,
            limit: query.limit ?? LIST_LIMIT_DEFAULT
          })
          const decoded = yield* Effect.forEach(page.jobs, (job) => decodeJob(job)).pipe(Effect.orDie)
          return { ok, jobs: decoded, nextCursor: page.nextCursor }
        }),
      cancel: ({ params }) =>
        Effect.gen(function*() {
          const job = yield* jobs.cancel(yield* workspace, params.id)
          return { ok, job: yield* decodeJob(job).pipe(Effect.orDie) }
        }),
      command_get_profile: command("get_profile"),
      command_get_company: command("get_company"),
      command_search_people: command("search_people"),
      command_search_companies: command("search_companies"),
      command_get_posts: command("get_posts"),
      command_get_post: command("get_post"),
      command_list_chats: command("list_chats"),
      command_get_conversation: command("get_conversation"),
      command_list_invites: command("list_invites"),
      command_profile_viewers: command("profile_viewers"),
      command_ssi: command("ssi"),
      command_connect: command("connect"),
      command_withdraw_invite: command("withdraw_invite"),
      command_send_message: command("send_message"),
      command_accept_invite: command("accept_invite"),
      command_decline_invite: command("decline_invite"),
      command_endorse: command("endorse"),
      command_save_lead: command("save_lead"),
      command_react: command("react"),
      command_comment: command("comment"),
      command_create_post: command("create_post")
    })
  ))
}))
