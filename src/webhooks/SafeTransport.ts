/**
 * One webhook delivery attempt over node:http/https, to a host that
 * `AddressGuard.resolveAndCheck` vetted.
 *
 * The connection is pinned to the vetted address with a custom `lookup`:
 * resolving again at connect time would let a DNS answer that changed since
 * the check (DNS rebinding) send the request to a private address. `Host`
 * and TLS SNI/certificate checks still use the URL's hostname.
 *
 * Connections are kept alive per endpoint when the caller passes a
 * `ConnectionPool`: one agent per origin and vetted address, so a reused
 * socket always leads to the address this attempt vetted. Without one, every
 * attempt opens a fresh socket.
 *
 * Redirects are never followed (node:http does not follow them; a 3xx is
 * reported as a failure), and the response body is drained only so the socket
 * can be reused: past `maxDrainedBytes` it is dropped with its socket.
 *
 * @since 1.0.0
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { Clock, Duration, Effect, type Scope } from "effect"

/** The spec's webhook response time-out. */
export const deliveryTimeoutMs = Duration.toMillis(Duration.seconds(10))

/** An idle kept-alive socket is closed after this long: below the 5 seconds a Node server keeps one open. */
const idleSocketMs = 4_000
/** Agents kept at once; the least recently used one beyond this is closed. */
const maxAgents = 256
/** A response body longer than this is not worth draining: the socket is dropped instead. */
const maxDrainedBytes = 64 * 1024

/** Kept-alive connections to webhook endpoints, closed with the scope that made them. */
export interface ConnectionPool {
  /** The agent for `url`'s origin pinned to `address`: its sockets were all opened to that address. */
  readonly agentFor: (url: URL, address: string, family: 4 | 6) => http.Agent
}

/** A pool of kept-alive connections, one agent per origin and vetted address, closed when the scope closes. */
export const connectionPool: Effect.Effect<ConnectionPool, never, Scope.Scope> = Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => new Map<string, http.Agent>()),
    (agents) =>
      Effect.sync(() => {
        for (const agent of agents.values()) agent.destroy()
        agents.clear()
      })
  ),
  (agents) => ({
    agentFor: (url, address, family) => {
      const key = `${url.protocol}//${url.host} ${address} ${family}`
      const found = agents.get(key)
      // Re-inserted, so the map's order is least recently used first.
      agents.delete(key)
      const agent = found ?? (url.protocol === "https:" ? new https.Agent(agentOptions) : new http.Agent(agentOptions))
      agents.set(key, agent)
      if (agents.size > maxAgents) {
        for (const [oldestKey, oldest] of agents) {
          agents.delete(oldestKey)
          oldest.destroy()
          break
        }
      }
      return agent
    }
  })
)

const agentOptions: http.AgentOptions = { keepAlive: true, timeout: idleSocketMs }

/** One POST to send. */
export interface DeliveryRequest {
  readonly url: string | URL
  /** The vetted address to connect to (`VettedTarget.address`). */
  readonly address: string
  readonly family: 4 | 6
  readonly headers: Readonly<Record<string, string>>
  /** The exact bytes that were signed. */
  readonly body: string | Uint8Array
  /** Default `deliveryTimeoutMs` (10 seconds). */
  readonly timeoutMs?: number
  /** Kept-alive connections to reuse; without it, a fresh socket for this attempt. */
  readonly connections?: ConnectionPool
}

/** What came of one attempt. Never an exception: every failure is described in `error`. */
export interface DeliveryOutcome {
  /** Whether the endpoint answered 2xx in time. */
  readonly ok: boolean
  /** The response status, `null` when no response arrived (timeout, connection error). */
  readonly status: number | null
  readonly durationMs: number
  /** Why the attempt failed, for the delivery record; absent on success. */
  readonly error?: string
}

type Exchange =
  | { readonly status: number }
  /** `stale`: a kept-alive socket the endpoint had closed before anything was answered; worth one retry on a fresh one. */
  | { readonly error: string; readonly stale: boolean }

const describeStatus = (status: number): string | undefined => {
  if (status >= 200 && status < 300) return undefined
  if (status >= 300 && status < 400) return `The endpoint answered ${status} (a redirect, not followed).`
  return `The endpoint answered ${status}.`
}

const exchange = (request: DeliveryRequest, timeoutMs: number): Effect.Effect<Exchange> =>
  Effect.callback<Exchange>((resume, interrupted) => {
    const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
      // With `all` (used by Happy Eyeballs) Node expects the list form of the answer.
      if (options.all === true) callback(null, [{ address: request.address, family: request.family }])
      else callback(null, request.address, request.family)
    }
    let req: http.ClientRequest
    try {
      // A vetted URL arrives parsed (`VettedUrl.url`): not parsed again at every attempt.
      const url = typeof request.url === "string" ? new URL(request.url) : request.url
      // A pooled socket is only ever one opened to this same vetted address.
      const agent = request.connections === undefined ? false : request.connections.agentFor(url, request.address, request.family)
      const client = url.protocol === "https:" ? https : http
      req = client.request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
        lookup: pinnedLookup,
        agent
      })
    } catch (error) {
      resume(Effect.succeed({ error: `The request could not be made: ${String(error)}`, stale: false }))
      return
    }
    // The deadline is real time, not Clock time: under the sandbox's test
    // clock a silent receiver must still fail after 10 seconds, not hang. A plain timer that
    // destroys the request (an AbortSignal per attempt cost node a signal, its timer and listeners);
    // like AbortSignal.timeout's, it alone does not keep the process alive.
    let timedOut = false
    const deadline = setTimeout(() => {
      timedOut = true
      req.destroy(new Error("deadline"))
    }, timeoutMs).unref()
    // The status, once the response has begun: from then on the attempt's outcome is known.
    let status: number | undefined
    let answered = false
    const answer = (exchange: Exchange) => {
      if (answered) return
      answered = true
      resume(Effect.succeed(status === undefined ? exchange : { status }))
    }
    req.on("response", (response) => {
      status = response.statusCode ?? 0
      // Only the status matters, but it is answered once the body is drained (or dropped, past
      // `maxDrainedBytes`) and the request closed: then the socket is back in its pool.
      let drained = 0
      response.on("data", (chunk: Buffer) => {
        drained += chunk.length
        if (drained > maxDrainedBytes) response.destroy()
      })
    })
    // Node emits the request's `close`, then its socket's `free` (back to the pool) in the same
    // callback: answered after both, the next attempt finds the socket free.
    req.on("close", () => {
      clearTimeout(deadline)
      queueMicrotask(() => answer({ status: status ?? 0 }))
    })
    req.on("error", (error) => {
      answer({
        error: timedOut
          ? `No response within ${timeoutMs} ms.`
          : `The request failed: ${error.message}`,
        stale: req.reusedSocket && !timedOut && !interrupted.aborted
      })
    })
    req.end(request.body)
    return Effect.sync(() => req.destroy())
  })

/**
 * Performs one delivery POST, pinned to the vetted address, with a
 * time-out (10 seconds unless `timeoutMs` says otherwise). Never fails:
 * the outcome says whether the endpoint answered 2xx in time and, if not, why.
 */
export const deliver = (request: DeliveryRequest): Effect.Effect<DeliveryOutcome> =>
  // No span: it runs for every delivery attempt, and its caller's outcome says what happened.
  Effect.flatMap(Clock.currentTimeMillis, (startedMs) => {
    const timeoutMs = request.timeoutMs ?? deliveryTimeoutMs
    return exchange(request, timeoutMs).pipe(
      // A kept-alive socket can be closed by the endpoint just as it is reused: once more (the dead one has left the pool).
      Effect.flatMap((first) => "error" in first && first.stale ? exchange(request, timeoutMs) : Effect.succeed(first)),
      Effect.flatMap((result) =>
        Effect.map(Clock.currentTimeMillis, (endedMs): DeliveryOutcome => {
          const durationMs = endedMs - startedMs
          if ("error" in result) return { ok: false, status: null, durationMs, error: result.error }
          const error = describeStatus(result.status)
          return error === undefined
            ? { ok: true, status: result.status, durationMs }
            : { ok: false, status: result.status, durationMs, error }
        })
      )
    )
  })
