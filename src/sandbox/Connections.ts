/**
 * Who is a connection of an account in the sandbox: people the generator
 * makes first degree, people who accepted the account's invitation by now,
 * and people whose invitation the account accepted.
 */
import { Effect } from "effect"
import type { Person, PersonSummary } from "../domain/NetworkModels.ts"
import { acceptedAtOf } from "./Outcomes.ts"
import { relationTo } from "./SandboxPeople.ts"
import type { State } from "./State.ts"

/** Whether the person is a connection of the account at `now`. */
export const isConnected = (state: State, accountId: string, providerId: string, now: number): Effect.Effect<boolean> =>
  relationTo(accountId, providerId).connectionDegree === 1
    ? Effect.succeed(true)
    : Effect.gen(function*() {
      const invitations = yield* state.invitationsTo(accountId, providerId)
      if (invitations.some((invitation) => (acceptedAtOf(invitation) ?? Infinity) <= now)) return true
      const answers = yield* state.answers(accountId)
      return answers.some((answer) =>
        answer.providerId === providerId && answer.answer === "accepted" && answer.answeredAtMs <= now
      )
    })

/** A profile or summary with the degree the account's own actions gave it. */
export const withDegree = <P extends Person | PersonSummary>(person: P, connected: boolean): P =>
  connected && person.connectionDegree !== 1 ? { ...person, connectionDegree: 1 } : person
