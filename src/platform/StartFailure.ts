/**
 * A service that cannot start says so in one readable line that names the
 * fix, in the configured log format, and exits 1: a taken port, an unreachable
 * database, a bad setting, a data directory another process holds. The cause
 * (with its stack) is logged at Debug, so `LOG_LEVEL=Debug` or `--verbose`
 * shows it.
 */
import { type Cause, Data, Effect } from "effect"
import { chainOf, codeOf, messageOf, tagOf } from "./Causes.ts"

/** The start failed and was reported; the process exits 1 without reporting it again. */
export class StartFailed extends Data.TaggedError("StartFailed")<{}> {}

const firstLine = (text: string): string => text.split("\n")[0].trim()

/** What the start failure means, and what to do, in one line. */
export const describe = (cause: Cause.Cause<unknown>, where: { readonly host: string; readonly port: string }): string => {
  const all = chainOf(cause)
  const tagged = (tag: string) => all.find((error) => tagOf(error) === tag)
  const withCode = (...codes: ReadonlyArray<string>) => all.find((error) => codes.includes(codeOf(error) ?? ""))

  const dataDir = tagged("DataDirInUse")
  if (dataDir !== undefined) return firstLine(messageOf(dataDir))
  const config = tagged("ConfigError")
  if (config !== undefined) {
    const setting = /at \["([^"]+)"\]/.exec(messageOf(config))?.[1]
    return setting === undefined
      ? `A setting is not valid: ${firstLine(messageOf(config))}. Fix the environment variable and start again.`
      : `The setting ${setting} is not valid: ${firstLine(messageOf(config)).replace(/^SchemaError\(/, "")}. Fix ${setting} and start again (see the README's Configuration).`
  }
  const portTaken = tagged("ServeError") === undefined ? undefined : withCode("EADDRINUSE", "EACCES", "EADDRNOTAVAIL")
  if (portTaken !== undefined) {
    return codeOf(portTaken) === "EADDRINUSE"
      ? `Port ${where.port} on ${where.host} is already in use by another process: stop it, or start with another PORT.`
      : `The service cannot listen on ${where.host}:${where.port} (${codeOf(portTaken)}): choose another HOST or PORT.`
  }
  const database = withCode("ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "28P01", "3D000", "28000")
  if (database !== undefined || tagged("ConnectionError") !== undefined) {
    const why = database === undefined ? "the connection failed" : firstLine(messageOf(database))
    return `The database in DATABASE_URL cannot be reached (${why}): start PostgreSQL or fix DATABASE_URL, then start again.`
  }
  const first = all[0]
  return `The service could not start: ${first === undefined ? "unknown cause" : firstLine(messageOf(first))}. Start it with --verbose (or LOG_LEVEL=Debug) to see the cause.`
}

/** Logs the one line at Error and the cause at Debug, then fails with {@link StartFailed}. */
export const report = (cause: Cause.Cause<unknown>, where: { readonly host: string; readonly port: string }) =>
  Effect.logError(describe(cause, where)).pipe(
    Effect.andThen(Effect.logDebug("the cause of the failed start", cause)),
    Effect.andThen(Effect.fail(new StartFailed()))
  )
