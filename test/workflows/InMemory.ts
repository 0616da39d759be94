/**
 * The in-memory side of the workflows' and automations' specs and routes: the in-memory automations
 * on the in-memory workflows, on the sandbox's addresses (which identify a workflow's person), with
 * the idempotency and activity log their handlers record in; accounts seeded in a workspace, and
 * made-up members of the sandbox network to start workflows about.
 */
import { Effect, Layer } from "effect"
import * as ActivityMemory from "../../src/activity/ActivityMemory.ts"
import * as IdempotencyMemory from "../../src/idempotency/IdempotencyMemory.ts"
import * as AutomationsMemory from "../../src/workflows/AutomationsMemory.ts"
import * as WorkflowsMemory from "../../src/workflows/WorkflowsMemory.ts"
import { twoWorkspaceIds } from "../support/Backends.ts"
import { callerWorkspaceId } from "../support/AnyCaller.ts"
import { SandboxAddresses } from "../support/SandboxAddresses.ts"
import type { WorkflowsFixture } from "./WorkflowsContract.ts"
export { person } from "./WorkflowsContract.ts"

/** The in-memory workflows and automations, and what their handlers record in. */
export const memoryServices = Layer.mergeAll(AutomationsMemory.layer, IdempotencyMemory.layer, ActivityMemory.layer).pipe(
  Layer.provideMerge(WorkflowsMemory.layer),
  Layer.provideMerge(SandboxAddresses)
)

/** A new account of the workspace (the caller's by default); its id. */
export const memoryAccount = (workspaceId = callerWorkspaceId) =>
  Effect.flatMap(WorkflowsMemory.WorkflowSeeds, (seeds) => seeds.account(workspaceId))

/** A spec's fixture on fresh in-memory services: two new workspaces, accounts seeded in them. */
export const withMemoryAccounts = <A, E, R>(test: (fixture: WorkflowsFixture) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(WorkflowsMemory.WorkflowSeeds, (seeds) => test({ ...twoWorkspaceIds(), account: seeds.account })).pipe(
    Effect.provide(memoryServices)
  )
