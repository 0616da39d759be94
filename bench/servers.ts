/**
 * Servers of the service as child processes on one PostgreSQL database, for
 * the benches of several runners (`bench:cluster`, `bench:scaling`): started
 * on a free port, their logs kept, called with JSON as an integrator would.
 */
import type { ChildProcess } from "node:child_process"
import { freePort, startProcess } from "./support.ts"

export const key = "svc_" + "B".repeat(43)

export interface Server {
  readonly name: string
  readonly base: string
  readonly child: ChildProcess
  log: string
}

/** A server on `database`, the workspace of {@link key} bootstrapped; resolves once it is ready. */
export const startServer = async (
  name: string,
  database: string,
  env: Record<string, string> = {},
  /** `node` flags before the script. */
  flags: ReadonlyArray<string> = []
): Promise<Server> => {
  const port = await freePort()
  const { child, output } = await startProcess([...flags, "src/main.ts"], {
    DATABASE_URL: database,
    HOST: "127.0.0.1",
    PORT: String(port),
    OUTREACH_BOOTSTRAP_KEY: key,
    OUTREACH_INBOX_SYNC: "false",
    LOG_LEVEL: "Info",
    ...env
  }, /message="?ready/)
  const server: Server = { name, base: `http://127.0.0.1:${port}`, child, log: output }
  const keep = (chunk: Buffer) => {
    server.log += chunk.toString()
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  return server
}

// Untyped JSON as the service answers it: the benches read it as an integrator would.
export const call = async (server: Server, method: string, path: string, body?: unknown): Promise<any> => {
  const response = await fetch(server.base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = await response.json()
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json
}
