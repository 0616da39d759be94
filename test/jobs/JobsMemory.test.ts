/** The in-memory `Jobs` (writing approvals to the in-memory approvals' table), held to the jobs' spec (`JobsSpec.ts`). */
import { Effect, Layer } from "effect"
import * as ApprovalsMemory from "../../src/approvals/ApprovalsMemory.ts"
import * as JobsMemory from "../../src/jobs/JobsMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { jobsExpectations } from "./JobsSpec.ts"

jobsExpectations({
  name: "in memory",
  services: Notices.layer,
  withFixture: (test) => {
    const fixture = { workspaceId: crypto.randomUUID(), accountId: crypto.randomUUID(), otherWorkspaceId: crypto.randomUUID() }
    return test(fixture).pipe(
      Effect.provide(
        JobsMemory.layer([{ workspaceId: fixture.workspaceId, accountId: fixture.accountId, mode: "approve" }]).pipe(
          Layer.provide(ApprovalsMemory.tableLayer)
        )
      )
    )
  }
})
