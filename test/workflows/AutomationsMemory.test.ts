/** The in-memory `Automations` on the in-memory `Workflows` (the sandbox's addresses alone), held to the automations' spec (`AutomationsContract.ts`). */
import { Layer } from "effect"
import { automationsExpectations } from "./AutomationsContract.ts"
import { withMemoryAccounts } from "./InMemory.ts"

automationsExpectations({ name: "in memory", services: Layer.empty, withFixture: withMemoryAccounts })
