/** The in-memory `Approvals` (on the in-memory jobs and activity log), held to the approvals' spec (`ApprovalsContract.ts`). */
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { approvalsExpectations } from "./ApprovalsContract.ts"

approvalsExpectations({
  name: "in memory",
  services: Notices.layer,
  withFixture: (test) => {
    const fixture = { ...twoWorkspaceIds(), accountId: crypto.randomUUID(), advance: (ms: number) => TestClock.adjust(ms) }
    return test(fixture).pipe(
      Effect.provide(
        ApprovalsMemory.withJobs([{ workspaceId: fixture.workspaceId, accountId: fixture.accountId, mode: "approve" }]).pipe(
          Layer.provideMerge(ActivityMemory.layer)
        )
      )
    )
  }
})
