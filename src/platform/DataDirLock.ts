/**
 * One process at a time on an embedded database: PGlite is a single-process
 * database, and two processes writing one data directory would corrupt it. The
 * lock is a file holding the owner's pid; a lock left by a dead process is taken over.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Data, Effect } from "effect"

/** The data directory is in use by another live process. */
export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{
  readonly dataDir: string
  readonly pid: number
}> {
  override get message() {
    return `The embedded database in ${this.dataDir} is in use by process ${this.pid}. ` +
      "Stop that process first, or use a PostgreSQL server (DATABASE_URL) to run several processes at once."
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

const tryCreate = (file: string): boolean => {
  try {
    writeFileSync(file, String(process.pid), { flag: "wx" })
    return true
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false
    throw error
  }
}

const readOwner = (file: string): number => {
  try {
    return Number(readFileSync(file, "utf8").trim())
  } catch {
    return Number.NaN
  }
}

/** Holds the lock on `dataDir` for the life of the scope. */
export const acquire = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      const file = join(dataDir, "outreach.lock")
      yield* Effect.sync(() => mkdirSync(dataDir, { recursive: true }))
      for (let attempt = 0; attempt < 3; attempt++) {
        if (yield* Effect.sync(() => tryCreate(file))) return file
        const owner = readOwner(file)
        if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
          return yield* new DataDirInUse({ dataDir, pid: owner })
        }
        yield* Effect.logWarning(`taking over the lock of ${dataDir} left by process ${owner}, which is gone`)
        yield* Effect.sync(() => unlinkSync(file))
      }
      return yield* Effect.die(new Error(`could not lock ${dataDir}`))
    }),
    (file) => Effect.sync(() => unlinkSync(file)).pipe(Effect.ignore)
  )
