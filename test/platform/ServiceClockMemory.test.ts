/** The in-memory `ServiceClock`, held to the clock's spec (`ServiceClockContract.ts`). */
import { Layer } from "effect"
import * as ServiceClockMemory from "../../src/platform/ServiceClockMemory.ts"
import { serviceClockExpectations } from "./ServiceClockContract.ts"

serviceClockExpectations({
  name: "in memory",
  services: Layer.empty,
  withFixture: (test) => {
    const kept = ServiceClockMemory.store()
    return test({ clock: (mode) => ServiceClockMemory.layer(mode, kept) })
  }
})
