/**
 * What a completed job does beside settling: one entry per command of the
 * catalogue (`domain/Commands.ts`), typed by that command's result. A
 * `connect` records the invitation it sent and touches the person; a
 * `withdraw_invite` withdraws the invitation; the other commands about one
 * person touch that person; the rest do nothing. Each entry records through
 * the owners, as services (`Invitations`, `PersonTouches`); `JobEndings`
 * settles the job and runs its command's entry (`JobCompletions`) in the same
 * transaction, then links the job to the person the entry names.
 *
 * The catalogue in `domain/` stays pure (no I/O); this table is its service
 * side, and the type below fails to compile when a command is added without
 * saying what its completion does.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import type { SqlError } from "effect/sql"
import { type CommandName, commands, isCommandName } from "../domain/Commands.ts"
import { Invitations } from "../accounts/Invitations.ts"
import { type PersonFacts, PersonTouches } from "../people/People.ts"

/** The completed job, as its completion needs it. */
export interface CompletedJob {
  readonly workspaceId: string
  readonly accountId: string
  /** When it completed (ISO). */
  readonly at: string
}

type Effects<A> = Effect.Effect<A, SqlError.SqlError | Schema.SchemaError>

/** The owners a completion records in, each joining the ending's transaction. */
export interface Owners {
  readonly invitations: Invitations["Service"]
  readonly people: PersonTouches["Service"]
}

/**
 * A command's completion effects, in the job's ending transaction: the id of
 * the person the job was about, once touched, or undefined for none.
 */
export type Completion<R> = (owners: Owners, job: CompletedJob, result: R) => Effects<string | undefined>

/** A catalogue entry's completion, run on its result as stored (encoded). */
export interface Entry {
  readonly complete: (owners: Owners, job: CompletedJob, encodedResult: unknown) => Effects<string | undefined>
}

/** The entry of `spec` (a command of the catalogue): its result decoded with the command's own schema. */
const on = <S extends Schema.ConstraintDecoder<unknown>>(spec: { readonly result: S }, completion: Completion<S["Type"]>): Entry => {
  const decode = Schema.decodeUnknownOption(spec.result)
  return {
    // A result that does not decode (stored by an older version) completes nothing rather than failing the ending.
    complete: (owners, job, encodedResult) =>
      Option.match(decode(encodedResult), {
        onNone: () => Effect.succeed(undefined),
        onSome: (result) => completion(owners, job, result)
      })
  }
}

const summary = (person: { providerId: string; profileUrl: string; name: string; headline: string }): PersonFacts => ({
  providerId: person.providerId,
  profileUrl: person.profileUrl,
  name: person.name,
  headline: person.headline
})

/** The completion that touches the one person the result names. */
const touching = <R>(personOf: (result: R) => PersonFacts): Completion<R> => ({ people }, job, result) =>
  people.touch(job.workspaceId, personOf(result), job.at)

const nothing: Entry = { complete: () => Effect.succeed(undefined) }

/** Every command's completion effects; a command added to the catalogue has no entry until it is given one here. */
export const completions: { readonly [K in CommandName]: Entry } = {
  get_profile: on(commands.get_profile, touching((person) => ({ ...summary(person), company: person.company.name }))),
  get_company: nothing,
  search_people: nothing,
  search_companies: nothing,
  get_posts: nothing,
  get_post: nothing,
  list_chats: nothing,
  get_conversation: nothing,
  list_invites: nothing,
  profile_viewers: nothing,
  ssi: nothing,
  connect: on(commands.connect, ({ invitations, people }, job, sent) =>
    Effect.andThen(
      invitations.recordSent(job.accountId, sent),
      people.touch(job.workspaceId, summary(sent.person), job.at)
    )),
  withdraw_invite: on(commands.withdraw_invite, ({ invitations, people }, job, withdrawn) =>
    Effect.andThen(
      invitations.recordWithdrawn(job.accountId, withdrawn),
      people.touch(job.workspaceId, { providerId: withdrawn.providerId, profileUrl: null }, job.at)
    )),
  send_message: on(commands.send_message, touching((sent) => ({ providerId: sent.recipientProviderId, profileUrl: null }))),
  accept_invite: on(commands.accept_invite, touching((answered) => summary(answered.from))),
  decline_invite: on(commands.decline_invite, touching((answered) => summary(answered.from))),
  endorse: on(commands.endorse, touching((endorsed) => summary(endorsed.person))),
  save_lead: on(commands.save_lead, touching((saved) => summary(saved.person))),
  react: nothing,
  comment: nothing,
  create_post: nothing
}

/** The completions of the commands' jobs, recorded in their owners. */
export class JobCompletions extends Context.Service<JobCompletions, {
  /**
   * Runs the completion effects of a job of `kind` that completed with
   * `encodedResult` (as stored), in the caller's transaction; the person it was about, if any.
   */
  readonly complete: (kind: string, job: CompletedJob, encodedResult: unknown) => Effects<string | undefined>
}>()("outreach/JobCompletions") {
  /** Needs the `SqlClient`. */
  static readonly layer = Layer.effect(
    JobCompletions,
    Effect.gen(function*() {
      const owners: Owners = { invitations: yield* Invitations, people: yield* PersonTouches }
      return JobCompletions.of({
        complete: (kind, job, encodedResult) =>
          isCommandName(kind) ? completions[kind].complete(owners, job, encodedResult) : Effect.succeed(undefined)
      })
    })
  ).pipe(Layer.provide([Invitations.layer, PersonTouches.layer]))
}
