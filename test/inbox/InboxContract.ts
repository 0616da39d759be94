/**
 * What `Inbox` promises the invitations route, run against the stored inbox (`InboxStored.test.ts`,
 * the core on a database) and against the in-memory one the fast route tests use
 * (`InboxMemory.test.ts`): the same expectations, so the fake cannot drift from the service it
 * stands in for. Accounts are made and invitations recorded as connecting and syncing make and
 * record them. Syncing itself is the stored inbox's alone (`Inbox.test.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Missing } from "../../src/domain/Failures.ts"
import { INVITATION_LIST_MAX } from "../../src/domain/InboxRecords.ts"
import { nextOf } from "../../src/http/ServiceErrors.ts"
import { Inbox } from "../../src/inbox/Inbox.ts"
import type { SyncedInvitation } from "../../src/network/Sync.ts"
import type { Backend, TwoWorkspaces } from "../support/Backends.ts"

/** The two workspaces, and how accounts and the invitations they sent are made on the backend. */
export interface InboxFixture extends TwoWorkspaces {
  /** A new account of the workspace; its id. */
  readonly account: (workspaceId: string) => Effect.Effect<string>
  /** An invitation the account sent, recorded as syncing records it. */
  readonly synced: (accountId: string, invitation: SyncedInvitation) => Effect.Effect<void>
}

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 9, minutes)).toISOString()

/** A pending invitation sent at `minutes`. */
export const pendingInvitation = (invitationId: string, minutes: number, note: string | null = null): SyncedInvitation => ({
  invitationId,
  providerId: `ACo-${invitationId}`,
  note,
  status: "pending",
  sentAt: at(minutes),
  acceptedAt: null,
  resolvedAt: null
})

const ids = (list: ReadonlyArray<{ readonly id: string }>) => list.map((invitation) => invitation.id)

export const inboxExpectations = <R>(backend: Backend<R, Inbox, InboxFixture>) =>
  layer(backend.services)(`Inbox (${backend.name})`, (it) => {
    it.effect("lists an account's invitations of one status or all, newest first then by id", () =>
      backend.withFixture(({ workspaceId, account, synced }) =>
        Effect.gen(function*() {
          const inbox = yield* Inbox
          const ada = yield* account(workspaceId)
          const grace = yield* account(workspaceId)
          yield* synced(ada, pendingInvitation("inv-b", 1, "Hello"))
          yield* synced(ada, pendingInvitation("inv-c", 3))
          yield* synced(ada, pendingInvitation("inv-a", 3))
          yield* synced(ada, { ...pendingInvitation("inv-d", 2), status: "accepted", acceptedAt: at(5), resolvedAt: at(5) })
          yield* synced(ada, { ...pendingInvitation("inv-e", 0), status: "declined", resolvedAt: at(6) })
          yield* synced(grace, pendingInvitation("inv-g", 4))

          const pending = yield* inbox.invitations(workspaceId, ada, "pending")
          assert.deepStrictEqual(ids(pending), ["inv-a", "inv-c", "inv-b"])
          assert.deepStrictEqual(pending[2], {
            id: "inv-b",
            providerId: "ACo-inv-b",
            note: "Hello",
            status: "pending",
            source: "external",
            sentAt: at(1),
            resolvedAt: null
          })
          assert.deepStrictEqual(ids(yield* inbox.invitations(workspaceId, ada, "all")), ["inv-a", "inv-c", "inv-d", "inv-b", "inv-e"])
          const accepted = yield* inbox.invitations(workspaceId, ada, "accepted")
          assert.deepStrictEqual(accepted.map(({ id, status, resolvedAt }) => ({ id, status, resolvedAt })), [
            { id: "inv-d", status: "accepted", resolvedAt: at(5) }
          ])
          assert.deepStrictEqual(ids(yield* inbox.invitations(workspaceId, ada, "declined")), ["inv-e"])
          assert.deepStrictEqual(yield* inbox.invitations(workspaceId, ada, "withdrawn"), [])
          assert.deepStrictEqual(ids(yield* inbox.invitations(workspaceId, grace, "all")), ["inv-g"])
        })))

    it.effect("a later sync moves a status on from pending, never back, and keeps when it was resolved", () =>
      backend.withFixture(({ workspaceId, account, synced }) =>
        Effect.gen(function*() {
          const inbox = yield* Inbox
          const ada = yield* account(workspaceId)
          yield* synced(ada, pendingInvitation("inv-1", 1))
          yield* synced(ada, { ...pendingInvitation("inv-1", 1), status: "withdrawn", resolvedAt: at(8) })
          // A sync that read the network before the withdrawal never makes it pending again.
          yield* synced(ada, pendingInvitation("inv-1", 1))
          assert.deepStrictEqual(yield* inbox.invitations(workspaceId, ada, "pending"), [])
          const [withdrawn] = yield* inbox.invitations(workspaceId, ada, "withdrawn")
          assert.deepInclude(withdrawn, { id: "inv-1", status: "withdrawn", resolvedAt: at(8), sentAt: at(1) })
        })))

    it.effect(`lists ${INVITATION_LIST_MAX} invitations at most, the newest`, () =>
      backend.withFixture(({ workspaceId, account, synced }) =>
        Effect.gen(function*() {
          const inbox = yield* Inbox
          const ada = yield* account(workspaceId)
          yield* Effect.forEach(
            Array.from({ length: INVITATION_LIST_MAX + 1 }, (_, i) => i),
            (i) => synced(ada, pendingInvitation(`inv-${String(i).padStart(3, "0")}`, i)),
            { discard: true }
          )
          const listed = yield* inbox.invitations(workspaceId, ada, "pending")
          assert.strictEqual(listed.length, INVITATION_LIST_MAX)
          assert.strictEqual(listed[0]?.id, `inv-${INVITATION_LIST_MAX}`)
          assert.strictEqual(listed.at(-1)?.id, "inv-001")
        })))

    it.effect("an account of another workspace, or none, is not found; its id in capitals is the same account", () =>
      backend.withFixture(({ workspaceId, otherWorkspaceId, account, synced }) =>
        Effect.gen(function*() {
          const inbox = yield* Inbox
          const ada = yield* account(workspaceId)
          yield* synced(ada, pendingInvitation("inv-x", 1))
          const elsewhere = yield* Effect.flip(inbox.invitations(otherWorkspaceId, ada, "all"))
          assert.instanceOf(elsewhere, Missing)
          assert.strictEqual(elsewhere.message, `No account ${ada} in this workspace.`)
          assert.match(nextOf(elsewhere.advice), /GET \/v1\/accounts/)
          const unknown = crypto.randomUUID()
          const none = yield* Effect.flip(inbox.invitations(workspaceId, unknown, "pending"))
          assert.instanceOf(none, Missing)
          assert.strictEqual(none.message, `No account ${unknown} in this workspace.`)
          assert.deepStrictEqual(ids(yield* inbox.invitations(workspaceId, ada.toUpperCase(), "pending")), ["inv-x"])
        })))
  })
