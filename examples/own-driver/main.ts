/**
 * An app that embeds the outreach service's core on a network driver of its
 * own (`./Directory.ts`), imported by the package's name like any dependency:
 * it creates a workspace, signs an account in through the driver, runs a read
 * and a write as jobs through the Governor, and prints what they returned.
 *
 * Run it with `node examples/own-driver/main.ts` (embedded PGlite in memory).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect, Layer, Redacted } from "effect"
import { Accounts, App, AppConfig, Jobs, Migrations, PgliteClient, ServiceClock, Workspaces } from "outreach-service"
import * as Directory from "./Directory.ts"

const database = Layer.provideMerge(Migrations.layer, PgliteClient.layer({ dataDir: undefined }))

const program = Effect.gen(function*() {
  const workspaces = yield* Workspaces.Workspaces
  const accounts = yield* Accounts.Accounts
  const jobs = yield* Jobs.Jobs
  const { workspace } = yield* workspaces.create({ name: "Example" })
  const workspaceId = workspace.id

  const { account } = yield* accounts.connect({ workspaceId, baseUrl: "http://127.0.0.1", label: "Ada" })
  const signedIn = yield* accounts.nativeAuth(workspaceId, account.id, {
    username: "ada@example.com",
    password: Redacted.make("correct horse battery staple")
  })
  yield* Console.log(`account ${account.id}: ${signedIn.account.status}`)
  // Writes go without approval, at any hour: the example should not wait for a person or for Monday.
  yield* accounts.update(workspaceId, account.id, {
    mode: "autopilot",
    workingHours: { days: [1, 2, 3, 4, 5, 6, 7], from: "00:00", to: "23:59", timezone: "UTC" }
  })

  const run = (command: "get_profile" | "send_message", input: unknown) =>
    Effect.gen(function*() {
      const created = yield* jobs.create({ workspaceId, accountId: account.id, command, input })
      const done = yield* jobs.get(workspaceId, created.id, 30)
      yield* Console.log(`${command}: ${done.status} ${JSON.stringify(done.result ?? done.error)}`)
      return done
    })
  yield* run("get_profile", { person: "grace-hopper" })
  yield* run("send_message", { person: "grace-hopper", text: "Hello Grace, from the example app." })
})

program.pipe(
  Effect.provide(App.coreWith(Directory.layer)),
  Effect.provide(ServiceClock.layer),
  Effect.provide(database),
  Effect.provide(AppConfig.AppConfig.layerWith({})),
  NodeRuntime.runMain
)
