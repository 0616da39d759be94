/** The sandbox network's stored state store (`src/sandbox/State.ts`) on a fresh database, held to the shared spec. */
import * as State from "../../src/sandbox/State.ts"
import * as TestDatabase from "../support/TestDatabase.ts"
import { stateContract } from "./StateContract.ts"

stateContract("stored", State.make, TestDatabase.layer)
