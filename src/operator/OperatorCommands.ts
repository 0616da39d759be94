/**
 * The operator CLI (`npm run cli -- ...`): what no API covers. It works against
 * the same database as the server (PostgreSQL while the server runs; the
 * embedded database only while the server is stopped).
 */
import { Config, Console, Effect, Option, Redacted } from "effect"
import { Argument, Command, Flag, Prompt } from "effect/cli"
import { ApiKeys } from "../keys/ApiKeys.ts"
import { Team } from "../team/Team.ts"
import { Workspaces } from "../workspaces/Workspaces.ts"

const workspaceId = Argument.String("workspace-id").pipe(Argument.withDescription("The workspace's id"))

const create = Command.make("create", {
  name: Flag.String("name").pipe(Flag.withDescription("The workspace (organisation) name")),
  seats: Flag.Int("seats").pipe(Flag.withDescription("Seats (connected accounts) allowed"), Flag.withDefault(5)),
  network: Flag.ChoiceWithValue("network", [["sandbox", "sandbox"], ["live", "live"]] as const).pipe(
    Flag.withDescription("The workspace's network: sandbox (simulated) or live (real seats through Unipile); default: the one OUTREACH_NETWORK names"),
    Flag.optional
  )
}, ({ name, network, seats }) =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const { keyValue, workspace } = yield* workspaces.create({ name, seats, network: Option.getOrUndefined(network) })
    yield* Console.log(`workspace ${workspace.id} "${workspace.name}" (${workspace.network}) with ${workspace.seatsTotal} seats`)
    yield* Console.log(`owner API key (shown once, keep it safe):\n\n  ${keyValue}\n`)
  })).pipe(Command.withDescription("Create a workspace and print its owner API key once"))

const list = Command.make("list", {}, () =>
  Effect.gen(function*() {
    const workspaces = yield* Workspaces
    const all = yield* workspaces.list
    if (all.length === 0) return yield* Console.log("no workspaces")
    for (const w of all) {
      yield* Console.log(`${w.id}  ${w.status.padEnd(9)}  ${w.network.padEnd(7)}  seats ${String(w.seatsTotal).padStart(3)}  ${w.name}`)
    }
  })).pipe(Command.withDescription("List workspaces"))

const seats = Command.make("seats", {
  workspaceId,
  total: Argument.Int("total").pipe(Argument.withDescription("The new number of seats"))
}, ({ total, workspaceId }) =>
  Effect.gen(function*() {
    if (total < 0) return yield* Console.error("seats must be 0 or more")
    const workspaces = yield* Workspaces
    const w = yield* workspaces.setSeats(workspaceId, total)
    yield* Console.log(`workspace ${w.id} now has ${w.seatsTotal} seats`)
  })).pipe(Command.withDescription("Set a workspace's number of seats"))

const status = (name: "suspend" | "activate", to: "suspended" | "active", description: string) =>
  Command.make(name, { workspaceId }, ({ workspaceId }) =>
    Effect.gen(function*() {
      const workspaces = yield* Workspaces
      const w = yield* workspaces.setStatus(workspaceId, to)
      yield* Console.log(`workspace ${w.id} is ${w.status}`)
    })).pipe(Command.withDescription(description))

const workspace = Command.make("workspace").pipe(
  Command.withDescription("Manage workspaces"),
  Command.withSubcommands([
    create,
    list,
    seats,
    status("suspend", "suspended", "Suspend a workspace: its keys answer 401 until it is activated"),
    status("activate", "active", "Activate a suspended workspace")
  ])
)

const key = Command.make("key").pipe(
  Command.withDescription("Manage API keys"),
  Command.withSubcommands([
    Command.make("create", {
      workspaceId: Flag.String("workspace").pipe(Flag.withDescription("The workspace's id (see `workspace list`)")),
      name: Flag.String("name").pipe(Flag.withDescription("What the key is for"), Flag.withDefault("Owner key (CLI)"))
    }, ({ name, workspaceId }) =>
      Effect.gen(function*() {
        const workspace = yield* (yield* Workspaces).get(workspaceId)
        const created = yield* (yield* ApiKeys).create({ workspaceId: workspace.id, name })
        yield* Console.log(`API key "${created.key.name}" for workspace ${workspace.id} "${workspace.name}" (shown once, keep it safe):\n\n  ${created.value}\n`)
      })).pipe(Command.withDescription("Create an owner API key for an existing workspace (a lost first key) and print it once"))
  ])
)

const session = Command.make("session").pipe(
  Command.withDescription("Sign a person in without the dashboard (development and support)"),
  Command.withSubcommands([
    Command.make("create", {
      workspaceId: Flag.String("workspace").pipe(Flag.withDescription("The workspace's id")),
      email: Flag.String("email"),
      name: Flag.String("name"),
      role: Flag.ChoiceWithValue("role", [["owner", "owner"], ["admin", "admin"], ["member", "member"]] as const).pipe(
        Flag.withDefault("member" as const)
      ),
      hours: Flag.Int("hours").pipe(Flag.withDescription("How long the session lasts"), Flag.withDefault(12))
    }, (input) =>
      Effect.gen(function*() {
        const workspaces = yield* Workspaces
        const created = yield* workspaces.createSession({ ...input, ttlHours: input.hours })
        yield* Console.log(`session for ${input.email} (${input.role}), valid ${input.hours} hours:\n\n  ${created.token}\n`)
      })).pipe(Command.withDescription("Create a person (or update their role) and print a session token once"))
  ])
)

/**
 * The password of a new owner: from `OUTREACH_OWNER_PASSWORD` when set (scripts), else typed at a
 * hidden prompt. Never a flag: a command line is visible to every user of the machine.
 */
const ownerPassword = Effect.gen(function*() {
  const fromEnv = yield* Config.option(Config.Redacted("OUTREACH_OWNER_PASSWORD"))
  if (Option.isSome(fromEnv)) return Redacted.value(fromEnv.value)
  return Redacted.value(yield* Prompt.run(Prompt.Password({ message: "Password (12 characters or more)" })))
})

const person = Command.make("person").pipe(
  Command.withDescription("People who sign in to the dashboard"),
  Command.withSubcommands([
    Command.make("create-owner", {
      workspaceId: Flag.String("workspace").pipe(Flag.withDescription("The workspace's id (see `workspace list`)")),
      email: Flag.String("email"),
      name: Flag.String("name")
    }, (input) =>
      Effect.gen(function*() {
        const workspace = yield* (yield* Workspaces).get(input.workspaceId)
        const password = yield* ownerPassword
        const { userId } = yield* (yield* Team).createOwner({ ...input, password }).pipe(
          // Reported in the CLI's own words, like an API error (`{error: {message, next}}`).
          Effect.catchTag("InputRefused", (refused) =>
            Effect.fail({ error: { message: refused.message, next: "Run the command again with another value." } }))
        )
        yield* Console.log(
          `${input.email} (${userId}) is an owner of workspace ${workspace.id} "${workspace.name}": sign in at /dashboard`
        )
      })).pipe(Command.withDescription(
        "Create the workspace's first owner (or make an existing person an owner) with a password; the password comes from OUTREACH_OWNER_PASSWORD or a hidden prompt"
      ))
  ])
)

/** The `outreach` operator command. */
export const cli = Command.make("outreach").pipe(
  Command.withDescription("Operator commands for the outreach service"),
  Command.withSubcommands([workspace, key, session, person])
)
