/**
 * The sandbox network's state in memory: the same store as `State.ts` (held to it by
 * `test/sandbox/StateContract.ts`) without a database, so the sandbox driver (`SandboxDriver.on`)
 * runs its real rules in the fast tests. A transaction runs alone (one at a time; a nested one joins
 * it) and undoes what it changed when it fails, as the database's does (a nested one undoes its own
 * part, as a savepoint); unlike a database, a failed transaction's undo also drops what another
 * fiber wrote outside any transaction meanwhile (the driver writes inside transactions); what is stored as JSON is
 * kept as its JSON copy, as the database hands it back.
 */
import { Context, Effect, Exit, Semaphore } from "effect"
import type { SqlError } from "effect/sql"
import type { AccountRecord } from "../network/NetworkDriver.ts"
import type { SentInvitation, SentMessage } from "./Outcomes.ts"
import type { AccountFacts, Action, ActionKind, Answer, ReceivedMessage, State } from "./State.ts"

interface StoredWrite {
  readonly key: string
  readonly accountId: string
  readonly refused: boolean
  readonly result: unknown
  readonly refusal: unknown
}

interface Tables {
  fences: Map<string, number>
  writes: Array<StoredWrite>
  accounts: Map<string, AccountFacts & { readonly removed: boolean }>
  invitations: Array<SentInvitation>
  messages: Array<SentMessage>
  received: Array<ReceivedMessage>
  answers: Map<string, Array<Answer>>
  actions: Map<string, Action>
}

const copyOf = (tables: Tables): Tables => ({
  fences: new Map(tables.fences),
  writes: [...tables.writes],
  accounts: new Map(tables.accounts),
  invitations: [...tables.invitations],
  messages: [...tables.messages],
  received: [...tables.received],
  answers: new Map([...tables.answers].map(([key, rows]) => [key, [...rows]])),
  actions: new Map(tables.actions)
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** What a JSON column gives back: null for nothing, else a copy through JSON. */
const asJson = (value: unknown): unknown => value === undefined ? null : JSON.parse(JSON.stringify(value))

const bySentThenId = (a: { readonly sentAtMs: number; readonly id: string }, b: typeof a) =>
  a.sentAtMs - b.sentAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
const byReceivedThenId = (a: ReceivedMessage, b: ReceivedMessage) =>
  a.receivedAtMs - b.receivedAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** A key already stored: the database's unique index refuses it, a defect here as there. */
const duplicate = (table: string, key: string) => Effect.die(new Error(`${table}: ${key} is already stored.`))

/** Whether the fiber is inside a transaction already (a nested one joins it). */
const InTransaction = Context.Reference<boolean>("sandbox/StateMemory/InTransaction", { defaultValue: () => false })

/** An empty state store in memory. */
export const make: Effect.Effect<State> = Effect.gen(function*() {
  let tables: Tables = {
    fences: new Map(),
    writes: [],
    accounts: new Map(),
    invitations: [],
    messages: [],
    received: [],
    answers: new Map(),
    actions: new Map()
  }
  const oneAtATime = yield* Semaphore.make(1)
  const read = <A>(f: (current: Tables) => A) => Effect.sync(() => f(tables))
  const change = (f: (current: Tables) => void) => Effect.sync(() => f(tables))

  const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) => {
    // A database's failure inside is a defect, as the stored store's transaction makes it.
    const alone: Effect.Effect<A, E | SqlError.SqlError, R> = Effect.flatMap(InTransaction, (inside) => {
      const undoing = Effect.suspend(() => {
        const before = copyOf(tables)
        return Effect.onExit(
          Effect.provideService(effect, InTransaction, true),
          (exit) => Exit.isSuccess(exit) ? Effect.void : Effect.sync(() => tables = before)
        )
      })
      return inside ? undoing : oneAtATime.withPermits(1)(undoing)
    })
    return Effect.catchTag(alone, "SqlError", Effect.die)
  }

  return {
    transaction,
    raiseFence: (accountId, fence) =>
      read((current) => {
        const kept = Math.max(current.fences.get(accountId) ?? fence, fence)
        current.fences.set(accountId, kept)
        return kept
      }),
    recordWrite: (write) =>
      change((current) =>
        current.writes.push({
          key: write.key,
          accountId: write.accountId,
          refused: write.refused,
          result: asJson(write.result),
          refusal: asJson(write.refusal)
        })
      ),
    writeOf: (accountId, key) =>
      read((current) => {
        const found = current.writes.find((write) =>
          write.key === key && write.accountId === accountId && !write.refused && (write.result !== null || write.refusal !== null)
        )
        return found === undefined ? undefined : { result: found.result, refusal: found.refusal }
      }),
    account: (accountId) =>
      read((current) => {
        const found = current.accounts.get(accountId)
        return found === undefined ? null : { tier: found.tier, products: found.products, workspaceId: found.workspaceId }
      }),
    recordAccount: (account: AccountRecord) =>
      change((current) => {
        current.accounts.set(account.accountId, {
          tier: account.tier,
          products: [...account.products],
          workspaceId: account.workspaceId,
          removed: account.removed
        })
      }),
    invitationsTo: (accountId, providerId) =>
      read((current) =>
        current.invitations
          .filter((invitation) => invitation.accountId === accountId && invitation.providerId === providerId)
          .toSorted((a, b) => b.sentAtMs - a.sentAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      ),
    workspaceInvitationsTo: (workspaceId, accountId, providerId) =>
      read((current) =>
        current.invitations.filter((invitation) => {
          const sender = current.accounts.get(invitation.accountId)
          return sender !== undefined && sender.workspaceId === workspaceId && !sender.removed &&
            invitation.accountId !== accountId && invitation.providerId === providerId && invitation.withdrawnAtMs === null
        })
      ),
    invitation: (accountId, id) =>
      read((current) =>
        UUID.test(id)
          ? current.invitations.find((invitation) => invitation.accountId === accountId && invitation.id === id.toLowerCase())
          : undefined
      ),
    invitationsActiveSince: (accountId, fromMs) =>
      read((current) =>
        current.invitations
          .filter((invitation) =>
            invitation.accountId === accountId &&
            (invitation.sentAtMs > fromMs || (invitation.withdrawnAtMs ?? -Infinity) > fromMs ||
              (invitation.forcedAcceptedAtMs ?? -Infinity) > fromMs)
          )
          .toSorted(bySentThenId)
      ),
    notesSentBetween: (accountId, fromMs, toMs) =>
      read((current) =>
        current.invitations.filter((invitation) =>
          invitation.accountId === accountId && invitation.note !== null && invitation.sentAtMs >= fromMs &&
          invitation.sentAtMs < toMs
        ).length
      ),
    insertInvitation: (invitation) =>
      Effect.suspend(() =>
        tables.invitations.some((kept) => kept.id === invitation.id)
          ? duplicate("sandbox_invitations", invitation.id)
          : change((current) => current.invitations.push({ ...invitation, withdrawnAtMs: null, forcedAcceptedAtMs: null }))
      ),
    withdraw: (id, atMs) =>
      change((current) => {
        current.invitations = current.invitations.map((kept) => kept.id === id ? { ...kept, withdrawnAtMs: atMs } : kept)
      }),
    forceAcceptance: (id, atMs) =>
      change((current) => {
        current.invitations = current.invitations.map((kept) => kept.id === id ? { ...kept, forcedAcceptedAtMs: atMs } : kept)
      }),
    messagesTo: (accountId, providerId) =>
      read((current) =>
        current.messages
          .filter((message) => message.accountId === accountId && message.providerId === providerId)
          .toSorted((a, b) => a.seq - b.seq)
      ),
    messagesOf: (accountId) =>
      read((current) => current.messages.filter((message) => message.accountId === accountId).toSorted(bySentThenId)),
    messagesSince: (accountId, fromMs) =>
      read((current) =>
        current.messages.filter((message) => message.accountId === accountId && message.sentAtMs > fromMs).toSorted(bySentThenId)
      ),
    insertMessage: (message) =>
      Effect.suspend(() =>
        tables.messages.some((kept) => kept.id === message.id)
          ? duplicate("sandbox_messages", message.id)
          : change((current) =>
            current.messages.push({
              id: message.id,
              accountId: message.accountId,
              providerId: message.providerId,
              chatId: message.chatId,
              seq: message.seq,
              text: message.text,
              inmail: message.inmail,
              sentAtMs: message.sentAtMs
            })
          )
      ),
    receivedFrom: (accountId, providerId) =>
      read((current) =>
        current.received
          .filter((message) => message.accountId === accountId && message.providerId === providerId)
          .toSorted(byReceivedThenId)
      ),
    receivedBetween: (accountId, fromMs, toMs) =>
      read((current) =>
        current.received
          .filter((message) => message.accountId === accountId && message.receivedAtMs > fromMs && message.receivedAtMs <= toMs)
          .toSorted(byReceivedThenId)
      ),
    sendersTo: (accountId) =>
      read((current) => [
        ...new Set(current.received.filter((message) => message.accountId === accountId).map((message) => message.providerId))
      ]),
    insertReceived: (message) =>
      Effect.suspend(() =>
        tables.received.some((kept) => kept.id === message.id)
          ? duplicate("sandbox_inbound_messages", message.id)
          : change((current) => current.received.push({ ...message }))
      ),
    answers: (accountId) => read((current) => [...(current.answers.get(accountId) ?? [])]),
    insertAnswer: (accountId, answer) =>
      Effect.suspend(() =>
        (tables.answers.get(accountId) ?? []).some((kept) => kept.invitationId === answer.invitationId)
          ? duplicate("sandbox_invitation_answers", answer.invitationId)
          : change((current) => current.answers.set(accountId, [...(current.answers.get(accountId) ?? []), { ...answer }]))
      ),
    action: (accountId, kind: ActionKind, target) =>
      read((current) => current.actions.get(JSON.stringify([accountId, kind, target]))),
    putAction: (accountId, kind: ActionKind, action) =>
      change((current) => {
        const key = JSON.stringify([accountId, kind, target(action)])
        const earlier = current.actions.get(key)
        current.actions.set(key, {
          id: earlier?.id ?? action.id,
          target: action.target,
          detail: asJson(action.detail),
          atMs: action.atMs
        })
      })
  }
})

const target = (action: Action) => action.target
