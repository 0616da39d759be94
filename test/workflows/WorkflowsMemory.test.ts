/** The in-memory `Workflows` (on the sandbox's addresses alone), held to the workflows' spec (`WorkflowsContract.ts`). */
import { Layer } from "effect"
import { withMemoryAccounts } from "./InMemory.ts"
import { workflowsExpectations } from "./WorkflowsContract.ts"

workflowsExpectations({ name: "in memory", services: Layer.empty, withFixture: withMemoryAccounts })
