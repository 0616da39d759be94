/** The sandbox network's in-memory state store (`src/sandbox/StateMemory.ts`), held to the shared spec. */
import { Layer } from "effect"
import * as StateMemory from "../../src/sandbox/StateMemory.ts"
import { stateContract } from "./StateContract.ts"

stateContract("in memory", StateMemory.make, Layer.empty)
