/**
 * People with its port to the jobs about a person answered by the job store:
 * `people/` sits below `jobs/`, so the wiring joins them here, once (a layer
 * shared by reference is built once).
 */
import { Layer } from "effect"
import { People } from "../people/People.ts"
import { JobStore } from "./JobStore.ts"

export const layer = People.layer.pipe(Layer.provide(JobStore.personJobs))
