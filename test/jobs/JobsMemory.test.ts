/** The in-memory `Jobs`, held to the jobs' spec (`JobsSpec.ts`). */
import { Effect } from "effect"
import * as JobsMemory from "../../src/jobs/JobsMemory.ts"
import { Notices } from "../../src/platform/Notices.ts"
import { jobsExpectations } from "./JobsSpec.ts"

jobsExpectations({
  name: "in memory",
  services: Notices.layer,
  withFixture: (test) => {
    const fixture = { workspaceId: crypto.randomUUID(), accountId: crypto.randomUUID(), otherWorkspaceId: crypto.randomUUID() }
    return test(fixture).pipe(
      Effect.provide(JobsMemory.layer([{ workspaceId: fixture.workspaceId, accountId: fixture.accountId, mode: "approve" }]))
    )
  }
})
