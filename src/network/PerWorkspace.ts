/**
 * Sandbox and live workspaces in one deployment: a `NetworkDriver` that holds the sandbox driver
 * and the live one, and sends each call to the driver of the account's workspace (a workspace's
 * network is chosen when it is created and never changes, so each account's and each workspace's
 * network is looked up once and kept). A server that cannot reach real seats (no provider
 * settings, or the test clock) holds, for live workspaces, a driver that refuses everything with
 * the reason.
 */
import { Cache, Duration, Effect, Exit } from "effect"
import type { WorkspaceNetwork } from "../domain/WorkspaceNetwork.ts"
import { NetworkDriver, type SignInStep, type WriteOutcome } from "./NetworkDriver.ts"
import { networkError } from "./NetworkErrors.ts"

/** What the driver routes on. */
export interface Routing {
  readonly sandbox: NetworkDriver["Service"]
  /** The live driver, or why this server has none (its live workspaces' accounts are then refused with it). */
  readonly live: NetworkDriver["Service"] | string
  /** The network of an account or workspace the lookups do not know (`OUTREACH_NETWORK`'s). */
  readonly defaultNetwork: WorkspaceNetwork
  readonly networkOfWorkspace: (workspaceId: string) => Effect.Effect<WorkspaceNetwork | undefined>
  readonly workspaceOfAccount: (accountId: string) => Effect.Effect<string | undefined>
}

/** The live network's name while it cannot be reached (the driver it stands for). */
const liveName = "unipile"

/** The live workspaces' driver on a server that cannot reach real seats: every call refused, saying why. */
export const unreachable = (reason: string): NetworkDriver["Service"] => {
  const refused = networkError(
    "notSupported",
    `This account's workspace is live, and this server cannot reach real seats: ${reason}.`,
    "Give the server UNIPILE_DSN and UNIPILE_API_KEY, on the system clock (docs/networks.md, \"Going live\"), or use a sandbox workspace."
  )
  const rejected: SignInStep = { _tag: "Rejected", message: refused.message }
  return NetworkDriver.of({
    name: liveName,
    capabilities: [],
    signIn: () => Effect.succeed(rejected),
    passCheckpoint: () => Effect.succeed(rejected),
    signInLink: () => Effect.fail(refused),
    // Asked only once the provider called back, which it cannot have done for this server.
    profileOf: () => Effect.die(new Error(refused.message)),
    identify: () => Effect.fail(refused),
    read: () => Effect.fail(refused),
    write: () => Effect.fail(refused),
    sync: () => Effect.fail(refused)
  })
}

const kept = (exit: Exit.Exit<WorkspaceNetwork | undefined>) =>
  Exit.isSuccess(exit) && exit.value !== undefined ? Duration.infinity : Duration.zero

/** The driver; both networks' drivers already built. */
export const make = (routing: Routing) =>
  Effect.gen(function*() {
    const live = typeof routing.live === "string" ? unreachable(routing.live) : routing.live
    const on = (network: WorkspaceNetwork | undefined) => (network ?? routing.defaultNetwork) === "live" ? live : routing.sandbox
    const workspaceNetworks = yield* Cache.makeWith(routing.networkOfWorkspace, { capacity: 100_000, timeToLive: kept })
    const accountNetworks = yield* Cache.makeWith(
      (accountId: string) =>
        Effect.flatMap(routing.workspaceOfAccount(accountId), (workspaceId) =>
          workspaceId === undefined ? Effect.succeed(undefined) : Cache.get(workspaceNetworks, workspaceId)),
      { capacity: 1_000_000, timeToLive: kept }
    )
    const ofWorkspace = (workspaceId: string) => Effect.map(Cache.get(workspaceNetworks, workspaceId), on)
    const ofAccount = (accountId: string) => Effect.map(Cache.get(accountNetworks, accountId), on)
    const fallback = on(routing.defaultNetwork)

    return NetworkDriver.of({
      name: fallback.name,
      signIn: (input) => Effect.flatMap(ofAccount(input.accountId), (driver) => driver.signIn(input)),
      passCheckpoint: (input) => Effect.flatMap(ofAccount(input.accountId), (driver) => driver.passCheckpoint(input)),
      profileOf: (accountId) => Effect.flatMap(ofAccount(accountId), (driver) => driver.profileOf(accountId)),
      // A person's address out of any workspace: the default network's reading (callers with a workspace use its driver).
      identify: (address) => fallback.identify(address),
      messageReaches: (accountId, providerId) =>
        Effect.flatMap(ofAccount(accountId), (driver) =>
          driver.messageReaches === undefined ? Effect.succeed(true) : driver.messageReaches(accountId, providerId)),
      read: (accountId, command, input) => Effect.flatMap(ofAccount(accountId), (driver) => driver.read(accountId, command, input)),
      write: (accountId, command, input, attempt) =>
        Effect.flatMap(ofAccount(accountId), (driver) => driver.write(accountId, command, input, attempt)),
      outcomeOf: (accountId, command, key, fence) =>
        Effect.flatMap(ofAccount(accountId), (driver) =>
          driver.outcomeOf === undefined ? Effect.succeed<WriteOutcome>({ _tag: "Unknown" }) : driver.outcomeOf(accountId, command, key, fence)),
      sync: (accountId, since) => Effect.flatMap(ofAccount(accountId), (driver) => driver.sync(accountId, since)),
      accountRecorded: (account) =>
        Effect.flatMap(ofWorkspace(account.workspaceId), (driver) => driver.accountRecorded?.(account) ?? Effect.void),
      simulate: (accountId, event) =>
        Effect.flatMap(ofAccount(accountId), (driver) =>
          driver.simulate === undefined
            ? Effect.fail(networkError(
              "notSupported",
              `The ${driver.name} network cannot be told what to do: the account's workspace is live.`,
              "Simulate on an account of a sandbox workspace."
            ))
            : driver.simulate(accountId, event)),
      workspaces: {
        drivers: typeof routing.live === "string" ? [routing.sandbox.name] : [routing.sandbox.name, live.name],
        of: ofWorkspace
      }
    })
  })
