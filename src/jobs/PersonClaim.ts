/**
 * A write's claim of the person it is about: People's claim (the person recorded, the cross-seat rule
 * checked) and the job's link to the person, in one transaction. The claim holds the person's row to its
 * end, so a seat claiming the person at the same instant waits for it, and then sees this job running and
 * linked. jobs/ opens the transaction and links its own job; people/ knows nothing of jobs.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Person } from "../domain/NetworkModels.ts"
import { People, type WriteAbout } from "../people/People.ts"
import { JobStore } from "./JobStore.ts"

/** Claims the person for the job and links the job to them; answers the other seat that holds the person, if any. */
export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const people = yield* People
  const store = yield* JobStore
  return (input: {
    readonly job: { readonly id: string; readonly workspaceId: string; readonly accountId: string }
    readonly profile: Person
    readonly about: WriteAbout
  }) =>
    sql.withTransaction(Effect.gen(function*() {
      const { other, personId } = yield* people.claim(input)
      yield* store.linkPerson(input.job.id, personId, "replace")
      return other
    })).pipe(Effect.orDie)
})
