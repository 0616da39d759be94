/**
 * An account row for the pure tests of the accounts folder: a warming premium
 * seat in approve mode, connected (and its warm-up begun) at `connectedAtMs`.
 */
import type { AccountRow } from "../../src/accounts/AccountRow.ts"

export const accountRow = (connectedAtMs: number, overrides: Partial<AccountRow>): AccountRow => ({
  id: "0b7c6a1e-3f4d-4e2a-9b8c-7d6e5f4a3b2c",
  workspaceId: "3b1f8a52-4c1e-4d8e-9c77-2a5e0d6f9b10",
  label: "Ada",
  status: "warming",
  resumeStatus: null,
  tier: "premium",
  products: [],
  healthLevel: "green",
  healthReason: null,
  pausedUntil: null,
  readsOnlyUntil: null,
  restrictedAt: null,
  connections: 500,
  minInviteQuality: 30,
  autoWithdrawDays: 21,
  warmupStartedAt: connectedAtMs,
  warmupStartDay: 1,
  workingDays: [1, 2, 3, 4, 5],
  workFrom: "09:00",
  workTo: "18:00",
  timezone: "UTC",
  offHoursPolicy: "queue",
  mode: "approve",
  linkUrl: null,
  linkExpiresAt: null,
  checkpoint: null,
  connectedAt: new Date(connectedAtMs).toISOString(),
  createdAt: new Date(connectedAtMs - 3_600_000).toISOString(),
  ...overrides
})
