/**
 * The sandbox driver on its in-memory state (`src/sandbox/StateMemory.ts`), held to the shared
 * spec (`SandboxDriverContract.ts`) that the stored state passes too.
 */
import * as SandboxDriver from "../../src/sandbox/SandboxDriver.ts"
import { sandboxDriverContract } from "./SandboxDriverContract.ts"

sandboxDriverContract("the in-memory state", SandboxDriver.memoryLayer)
