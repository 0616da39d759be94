/**
 * The network driver port: every action on the professional network goes
 * through this one service, so a real driver can replace the sandbox without
 * touching the core: signing in, every read and write command of the
 * catalogue (`domain/Commands.ts`), and syncing what the network did
 * (invitations accepted, messages received).
 */
import { Context, Effect, Option, type Redacted, Schema } from "effect"
import { type CommandName, commands, type InputOf, type ReadCommand, type ResultOf, type WriteCommand } from "../domain/Commands.ts"
import type { Tier } from "../domain/Limits.ts"
import { type NetworkError, networkError } from "./NetworkErrors.ts"
import type { SyncResult } from "./Sync.ts"

/** What the network reports about a signed-in account. */
export interface AccountProfile {
  readonly tier: Tier
  readonly products: ReadonlyArray<string>
  readonly connections: number
}

/** Who a person is on the network: its identifier and its canonical profile address. */
export interface PersonIdentity {
  readonly providerId: string
  readonly profileUrl: string
}

/** What the service records of an account that a driver may keep for its own rules. */
export interface AccountRecord {
  readonly accountId: string
  readonly workspaceId: string
  readonly tier: Tier
  readonly products: ReadonlyArray<string>
  /** The account was disconnected from the service (`DELETE /v1/accounts/{id}`). */
  readonly removed: boolean
}

/** A checkpoint the network asks a person to pass. */
export type CheckpointType = "2fa" | "otp" | "captcha" | "in_app_approval"

/** The outcome of a sign-in step. */
export type SignInStep =
  | { readonly _tag: "Connected"; readonly profile: AccountProfile }
  | { readonly _tag: "Checkpoint"; readonly checkpoint: CheckpointType; readonly message: string }
  | { readonly _tag: "Rejected"; readonly message: string }

/**
 * Something a test makes the network do to an account (sandbox only):
 * - `invitation_accepted`: the person accepts the account's pending invitation
 *   now, named by its `invitationId` (from `connect`) or by the person;
 * - `message_received`: the person sends the account a message now, in the
 *   chat with them (`chatId`, when given, must be that chat).
 */
export type SimulatedEvent =
  | {
    readonly type: "invitation_accepted"
    readonly invitationId?: string | undefined
    readonly person?: string | undefined
  }
  | {
    readonly type: "message_received"
    readonly person: string
    readonly text: string
    readonly chatId?: string | undefined
  }

/** What identifies one write across its attempts, and which owner of the account makes this one. */
export interface WriteAttempt {
  /** The job's id: the same for every attempt of one job (an idempotency key). */
  readonly key: string
  /**
   * The fencing token of this attempt: the epoch of the account's owner that recorded it, which only
   * grows. A network that supports conditional requests keeps the newest token each account has shown
   * and refuses an attempt with an older one (a runner that froze and woke after another took the
   * account over); the sandbox does.
   */
  readonly fence: number
}

/** What the network knows of a write whose outcome a crash left unknown. */
export type WriteOutcome =
  | { readonly _tag: "Happened"; readonly result: unknown }
  /** It reached the network, which refused it by its rules (already connected...): nothing happened, nor would again. */
  | { readonly _tag: "Refused"; readonly error: NetworkError }
  | { readonly _tag: "NotHappened" }
  | { readonly _tag: "Unknown" }

/** What a network driver does (the `NetworkDriver` service). */
export interface NetworkDriverShape {
  /** The driver's name, as configured by `OUTREACH_NETWORK`. */
  readonly name: string
  /** The commands this network can run; absent, all of them. The others fail `notSupported`. */
  readonly capabilities?: ReadonlyArray<CommandName>
  /** Signs in with the network's own username and password (never stored). */
  readonly signIn: (input: {
    readonly accountId: string
    readonly username: string
    readonly password: Redacted.Redacted<string>
    readonly country: string | undefined
  }) => Effect.Effect<SignInStep>
  /** Passes a pending checkpoint with the code the person entered (none for in-app approval). */
  readonly passCheckpoint: (input: {
    readonly accountId: string
    readonly checkpoint: CheckpointType
    readonly code: string | undefined
  }) => Effect.Effect<SignInStep>
  /**
   * A sign-in link of the network's own (a provider's hosted sign-in page) for the account, answered
   * as `connectUrl` or `reconnectUrl`; the network calls the service back under `callbackBase` once
   * the person signed in. Optional: without it the service issues its own link (the sandbox's page).
   */
  readonly signInLink?: (input: {
    readonly accountId: string
    readonly workspaceId: string
    readonly reconnect: boolean
    readonly callbackBase: string
    readonly expiresAtMs: number
  }) => Effect.Effect<string, NetworkError>
  /** The profile of an account whose sign-in link was completed by the person. */
  readonly profileOf: (accountId: string) => Effect.Effect<AccountProfile>
  /**
   * The person an address names: any form the commands accept for a person
   * (profile address, Sales Navigator lead address, provider id, slug), every
   * form of one person giving the same identity. Fails `invalidInput` for an
   * address that names no person. The sandbox answers without the network.
   */
  readonly identify: (address: string) => Effect.Effect<PersonIdentity, NetworkError>
  /**
   * Whether a plain message from the account reaches the person (a connection, or someone who
   * wrote to it), asked before work that would message them. Optional: a driver that cannot tell
   * leaves it out, and such work finds out when its message is sent.
   */
  readonly messageReaches?: (accountId: string, providerId: string) => Effect.Effect<boolean>
  /** Runs a read command as the account; the result's type follows the command. */
  readonly read: <C extends ReadCommand>(
    accountId: string,
    command: C,
    input: InputOf<C>
  ) => Effect.Effect<ResultOf<C>, NetworkError>
  /**
   * Runs a write command as the account; the network's own rules fail with named `NetworkError`
   * types. `attempt.key` (the job's id) is the same for every attempt of one job: a driver that
   * keeps it with what it did can answer `outcomeOf` after a crash.
   */
  readonly write: <C extends WriteCommand>(
    accountId: string,
    command: C,
    input: InputOf<C>,
    attempt?: WriteAttempt
  ) => Effect.Effect<ResultOf<C>, NetworkError>
  /**
   * Whether the write keyed `key` reached the network, asked when a crash left its job running
   * with its outcome unknown: `Happened` with the write's result, `Refused` with the network's
   * error when it reached the network and was refused by its rules (the job fails with that error,
   * not sent again), `NotHappened` when it surely never reached it (it is then run again), `Unknown`
   * otherwise (it then fails `interrupted`, never sent twice). The result is the command's result as JSON, checked by the service against the
   * command's result schema. Optional: a driver that cannot tell leaves it out, which counts as
   * `Unknown`. `fence` is the asking owner's token: a network with conditional requests raises the
   * account's token to it first, so no older attempt can land after the answer.
   */
  readonly outcomeOf?: (
    accountId: string,
    command: WriteCommand,
    key: string,
    fence: number
  ) => Effect.Effect<WriteOutcome, NetworkError>
  /**
   * What changed on the network for the account in (`since`, now], `since`
   * in epoch milliseconds: sent invitations with their current status and
   * received messages. Now is the `Clock`'s.
   */
  readonly sync: (accountId: string, since: number) => Effect.Effect<SyncResult, NetworkError>
  /**
   * Told each time the service records a change of an account (created, signed in with its tier
   * and products, changed, removed), inside the transaction that records it: keep it to the
   * driver's own bookkeeping. Optional. The sandbox keeps its own copy from it, so its rules
   * (the free tier's notes, InMail, Sales Navigator, seats of one workspace) never read the
   * service's tables.
   */
  readonly accountRecorded?: (account: AccountRecord) => Effect.Effect<void>
  /**
   * Sandbox only (a real network cannot be told what to do): makes the
   * network do `event` to the account at the `Clock`'s now, so later reads
   * and `sync` show it. Fails `notFound` for an invitation that is unknown or
   * no longer pending, `invalidInput` for an address or chat it cannot use.
   */
  readonly simulate?: (accountId: string, event: SimulatedEvent) => Effect.Effect<void, NetworkError>
  /**
   * A driver that holds several networks, one per kind of workspace (sandbox and live workspaces in
   * one deployment, `PerWorkspace.ts`): the names of the drivers it holds, and the one serving a
   * workspace (its name, capabilities, sign-in link). Absent: this driver serves every workspace.
   */
  readonly workspaces?: {
    readonly drivers: ReadonlyArray<string>
    readonly of: (workspaceId: string) => Effect.Effect<NetworkDriverShape>
  }
}

export class NetworkDriver extends Context.Service<NetworkDriver, NetworkDriverShape>()("outreach/NetworkDriver") {}

/** The driver serving the workspace: `driver` itself unless it holds one per kind of workspace. */
export const driverOf = (driver: NetworkDriver["Service"], workspaceId: string): Effect.Effect<NetworkDriver["Service"]> =>
  driver.workspaces === undefined ? Effect.succeed(driver) : driver.workspaces.of(workspaceId)

/** Whether `driver` holds the network of the workspace (false for a live one on a server that cannot reach real seats). */
export const servesWorkspace = (driver: NetworkDriver["Service"], workspaceId: string): Effect.Effect<boolean> =>
  driver.workspaces === undefined ? Effect.succeed(true) : Effect.map(driver.workspaces.of(workspaceId), (served) => holds(driver, served.name))

/** Whether `driver` is, or holds, the driver named `name`. */
export const holds = (driver: NetworkDriver["Service"], name: string): boolean =>
  driver.name === name || (driver.workspaces?.drivers.includes(name) ?? false)

/** A driver's reads, one function per read command it supports. */
export type ReadHandlers = {
  readonly [C in ReadCommand]?: (accountId: string, input: InputOf<C>) => Effect.Effect<ResultOf<C>, NetworkError>
}

/** A driver's writes, one function per write command it supports. */
export type WriteHandlers = {
  readonly [C in WriteCommand]?: (
    accountId: string,
    input: InputOf<C>,
    attempt: WriteAttempt | undefined
  ) => Effect.Effect<ResultOf<C>, NetworkError>
}

/** The `notSupported` error of a command the `driver`'s network cannot run: its job's, and an assistant's tool's at once. */
export const notSupported = (driver: string, command: string): NetworkError =>
  networkError(
    "notSupported",
    `The ${driver} network does not support ${command}.`,
    "Use a command this network supports (the account's `capabilities`), or another driver."
  )

const unsupported = (driver: string, command: string) => Effect.fail(notSupported(driver, command))

/**
 * A driver from a table of the commands it supports: for an embedder's own network. A
 * command left out of the table fails its jobs with `notSupported` naming it and the driver.
 */
export const make = (driver: Omit<NetworkDriver["Service"], "read" | "write"> & {
  readonly reads: ReadHandlers
  readonly writes: WriteHandlers
}): NetworkDriver["Service"] => {
  const { reads, writes, ...rest } = driver
  return NetworkDriver.of({
    ...rest,
    read: (accountId, command, input) => {
      const handler = reads[command]
      return handler === undefined ? unsupported(driver.name, command) : handler(accountId, input)
    },
    write: (accountId, command, input, attempt) => {
      const handler = writes[command]
      return handler === undefined ? unsupported(driver.name, command) : handler(accountId, input, attempt)
    }
  })
}

/** A command's input, checked against its schema, ready to run as an account (a write is told its attempt: the job). */
export type ReadyCall<C extends CommandName> = (
  accountId: string,
  attempt: WriteAttempt
) => Effect.Effect<ResultOf<C>, NetworkError>

/** Every command of the catalogue as a call on a driver: its input checked, then run, typed by the command. */
export type CommandCalls = {
  readonly [C in CommandName]: (input: unknown) => Option.Option<ReadyCall<C>>
}

/**
 * The calls of `driver`, one per command: the input decoded with the command's schema (none when it
 * does not fit), then a read sent through `read` and a write through `write`; the compiler refuses a
 * command sent the wrong way. A caller holding any command name runs it without casting its input.
 */
export const callsOf = (driver: NetworkDriver["Service"]): CommandCalls => {
  const call = <I, A>(
    schema: Schema.Decoder<I>,
    run: (accountId: string, input: I, attempt: WriteAttempt) => Effect.Effect<A, NetworkError>
  ) => {
    const decode = Schema.decodeUnknownOption(schema)
    return (input: unknown) =>
      Option.map(decode(input), (decoded) => (accountId: string, attempt: WriteAttempt) => run(accountId, decoded, attempt))
  }
  return {
    get_profile: call(commands.get_profile.input, (accountId, input) => driver.read(accountId, "get_profile", input)),
    get_company: call(commands.get_company.input, (accountId, input) => driver.read(accountId, "get_company", input)),
    search_people: call(commands.search_people.input, (accountId, input) => driver.read(accountId, "search_people", input)),
    search_companies: call(commands.search_companies.input, (accountId, input) => driver.read(accountId, "search_companies", input)),
    get_posts: call(commands.get_posts.input, (accountId, input) => driver.read(accountId, "get_posts", input)),
    get_post: call(commands.get_post.input, (accountId, input) => driver.read(accountId, "get_post", input)),
    list_chats: call(commands.list_chats.input, (accountId, input) => driver.read(accountId, "list_chats", input)),
    get_conversation: call(commands.get_conversation.input, (accountId, input) => driver.read(accountId, "get_conversation", input)),
    list_invites: call(commands.list_invites.input, (accountId, input) => driver.read(accountId, "list_invites", input)),
    profile_viewers: call(commands.profile_viewers.input, (accountId, input) => driver.read(accountId, "profile_viewers", input)),
    ssi: call(commands.ssi.input, (accountId, input) => driver.read(accountId, "ssi", input)),
    connect: call(commands.connect.input, (accountId, input, attempt) => driver.write(accountId, "connect", input, attempt)),
    withdraw_invite: call(commands.withdraw_invite.input, (accountId, input, attempt) => driver.write(accountId, "withdraw_invite", input, attempt)),
    send_message: call(commands.send_message.input, (accountId, input, attempt) => driver.write(accountId, "send_message", input, attempt)),
    accept_invite: call(commands.accept_invite.input, (accountId, input, attempt) => driver.write(accountId, "accept_invite", input, attempt)),
    decline_invite: call(commands.decline_invite.input, (accountId, input, attempt) => driver.write(accountId, "decline_invite", input, attempt)),
    endorse: call(commands.endorse.input, (accountId, input, attempt) => driver.write(accountId, "endorse", input, attempt)),
    save_lead: call(commands.save_lead.input, (accountId, input, attempt) => driver.write(accountId, "save_lead", input, attempt)),
    react: call(commands.react.input, (accountId, input, attempt) => driver.write(accountId, "react", input, attempt)),
    comment: call(commands.comment.input, (accountId, input, attempt) => driver.write(accountId, "comment", input, attempt)),
    create_post: call(commands.create_post.input, (accountId, input, attempt) => driver.write(accountId, "create_post", input, attempt))
  }
}
