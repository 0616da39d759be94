/**
 * What an account's network can do, as `GET /v1/accounts/{id}` shows it before any job runs:
 * the driver's name, the commands it runs (`NetworkDriver.capabilities`, all when the driver does
 * not say) and the others, whose jobs fail `notSupported`.
 */
import type { Capabilities } from "../domain/AccountRecord.ts"
import { commandNames } from "../domain/Commands.ts"
import type { NetworkDriver } from "../network/NetworkDriver.ts"

/** The capabilities of the network `driver`. */
export const capabilitiesOf = (driver: Pick<NetworkDriver["Service"], "name" | "capabilities">): typeof Capabilities.Type => {
  const runs = driver.capabilities ?? commandNames
  return {
    network: driver.name,
    commands: commandNames.filter((command) => runs.includes(command)),
    notSupported: commandNames.filter((command) => !runs.includes(command))
  }
}
