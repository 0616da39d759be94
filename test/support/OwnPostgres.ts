/**
 * A PostgreSQL server of a test's own, which it may stop, start and crash:
 * initdb in a temporary directory, its own port, Debian's binaries found the
 * way `.ci/run` finds them (the newest `/usr/lib/postgresql/<version>/bin`).
 * As root the server runs as `postgres` (runuser); otherwise as the caller.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { freePort } from "./Processes.ts"

/** The newest installed PostgreSQL's `bin` directory, if any. */
export const postgresBin: string | undefined = (() => {
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return undefined
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0]
  const bin = version === undefined ? undefined : join(root, version, "bin")
  return bin !== undefined && existsSync(join(bin, "initdb")) ? bin : undefined
})()

const asPostgres = (command: string, args: ReadonlyArray<string>) =>
  process.getuid?.() === 0
    ? execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "pipe" })
    : execFileSync(command, [...args], { stdio: "pipe" })

/**
 * What `control` does: `start`; `stop` (fast: clients are disconnected, work
 * is saved); `restart` (immediate: a crash, recovered from the WAL at start).
 */
export type PostgresAction = "start" | "stop" | "restart"

/** Starts the server; it is stopped and its directory removed when the scope closes. */
export const ownPostgres = (bin: string, options: { readonly maxConnections?: number } = {}) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "outreach-pg-"))
      if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir])
      const port = yield* freePort
      asPostgres(join(bin, "initdb"), ["-D", join(dir, "data"), "--auth=trust", "-U", "postgres"])
      const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off` +
        ` -c max_connections=${options.maxConnections ?? 100}`
      const control = (action: PostgresAction) =>
        Effect.sync(() =>
          asPostgres(join(bin, "pg_ctl"), [
            "-D", join(dir, "data"), "-l", join(dir, "log"), "-w",
            "-m", action === "restart" ? "immediate" : "fast",
            "-o", settings,
            action
          ])
        )
      yield* control("start")
      return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, control, dir }
    }),
    ({ control, dir }) =>
      control("stop").pipe(Effect.ignore, Effect.andThen(Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
  )
