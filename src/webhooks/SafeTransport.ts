/**
 * One webhook delivery attempt over HTTP/1.1 (undici's dispatcher, the
 * client behind Node's `fetch`), to a host that `AddressGuard.resolveAndCheck`
 * vetted.
 *
 * The connection is pinned to the vetted address with a custom `lookup`:
 * resolving again at connect time would let a DNS answer that changed since
 * the check (DNS rebinding) send the request to a private address. `Host`
 * and TLS SNI/certificate checks still use the URL's hostname.
 *
 * Connections are kept alive per endpoint when the caller passes a
 * `ConnectionPool`: one undici pool per origin and vetted address, so a
 * reused socket always leads to the address this attempt vetted. Without
 * one, every attempt opens a fresh connection, closed after it.
 *
 * undici rather than `node:http`: its dispatch API takes a request and
 * answers through a handler, without the request and response objects and
 * streams `http.request` builds per request; on the webhook bench a POST
 * costs about a quarter less CPU. It retires kept-alive sockets by the
 * endpoint's `Keep-Alive` hint.
 *
 * Redirects are never followed (a 3xx is reported as a failure). Of the
 * response body, the first {@link responseKeptBytes} are kept (the delivery
 * history shows them); the rest is drained only so the socket can be reused:
 * past `maxDrainedBytes` it is dropped with its socket.
 */
import type { LookupFunction } from "node:net"
import { Client, type Dispatcher, Pool } from "undici"
import { Clock, Duration, Effect, type Scope } from "effect"

/** The spec's webhook response time-out. */
export const deliveryTimeoutMs = Duration.toMillis(Duration.seconds(10))

/** An idle kept-alive socket is closed after this long (unless the endpoint hints shorter): below the 5 seconds a Node server keeps one open. */
const idleSocketMs = 4_000
/** Pools kept at once; the least recently used one beyond this is closed. */
const maxPools = 256
/** A response body longer than this is not worth draining: the socket is dropped instead. */
const maxDrainedBytes = 64 * 1024

/** The start of a response's body kept for the delivery history, in bytes. */
export const responseKeptBytes = 2048

/** Kept-alive connections to webhook endpoints, closed with the scope that made them. */
export interface ConnectionPool {
  /** The pool for `url`'s origin pinned to `address`: its connections were all opened to that address. */
  readonly poolFor: (url: URL, address: string, family: 4 | 6) => Dispatcher
}

/** Connection options that pin every connection to `address`, whatever the URL's host name resolves to now. */
const pinnedTo = (address: string, family: 4 | 6): Pool.Options => {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    // With `all` (used by Happy Eyeballs) Node expects the list form of the answer.
    if (options.all === true) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
  // HTTP/1.1 only, as node:http spoke: an endpoint's server sees the requests it was always sent.
  return { allowH2: false, keepAliveTimeout: idleSocketMs, connect: { lookup } }
}

/** Closes a pool or client and its sockets; what is in flight on it fails, and nothing waits for it. */
const close = (dispatcher: Dispatcher): void => {
  dispatcher.destroy().catch(() => undefined)
}

/** A pool of kept-alive connections, one per origin and vetted address, closed when the scope closes. */
export const connectionPool: Effect.Effect<ConnectionPool, never, Scope.Scope> = Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => new Map<string, Pool>()),
    (pools) =>
      Effect.sync(() => {
        for (const pool of pools.values()) close(pool)
        pools.clear()
      })
  ),
  (pools) => ({
    poolFor: (url, address, family) => {
      const key = `${url.origin} ${address}`
      const found = pools.get(key)
      // Re-inserted, so the map's order is least recently used first.
      pools.delete(key)
      const pool = found ?? new Pool(url.origin, pinnedTo(address, family))
      pools.set(key, pool)
      if (pools.size > maxPools) {
        for (const [oldestKey, oldest] of pools) {
          pools.delete(oldestKey)
          close(oldest)
          break
        }
      }
      return pool
    }
  })
)

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
  /** The start of the response's body as text (its first {@link responseKeptBytes}); absent when no response arrived. */
  readonly response?: string
}

type Exchange =
  | { readonly status: number; readonly response: string }
  /** `stale`: the connection closed before anything was answered (a kept-alive one the endpoint had just closed); worth one retry. */
  | { readonly error: string; readonly stale: boolean }

const describeStatus = (status: number): string | undefined => {
  if (status >= 200 && status < 300) return undefined
  if (status >= 300 && status < 400) return `The endpoint answered ${status} (a redirect, not followed).`
  return `The endpoint answered ${status}.`
}

/** Why the deadline aborted a request. */
class DeadlinePassed extends Error {}

/**
 * Sends one request and calls `done` once with what came of it; plain code, so an attempt costs
 * one callback effect however many steps it takes. Answers a function that stops the request.
 */
const exchange = (request: DeliveryRequest, timeoutMs: number, done: (exchange: Exchange) => void): () => void => {
  const pooled = request.connections !== undefined
  let dispatcher: Dispatcher
  let path: string
  try {
    // A vetted URL arrives parsed (`VettedUrl.url`): not parsed again at every attempt.
    const url = typeof request.url === "string" ? new URL(request.url) : request.url
    path = `${url.pathname}${url.search}`
    // A pooled connection is only ever one opened to this same vetted address.
    dispatcher = request.connections === undefined
      ? new Client(url.origin, pinnedTo(request.address, request.family))
      : request.connections.poolFor(url, request.address, request.family)
  } catch (error) {
    done({ error: `The request could not be made: ${String(error)}`, stale: false })
    return () => undefined
  }
  // The status, once the response has begun: from then on the attempt's outcome is known.
  let status: number | undefined
  let drained = 0
  /** The body's first bytes, kept: most answers are empty or a few bytes, in one chunk. */
  const kept: Array<Uint8Array> = []
  let answered = false
  let controller: Dispatcher.DispatchController | undefined
  /** Set when the request is to stop: by the deadline, an interruption or an undrained body. */
  let stopWith: Error | undefined
  const stop = (reason: Error) => {
    stopWith ??= reason
    controller?.abort(reason)
  }
  // The deadline is real time, not Clock time: under the sandbox's test clock a silent
  // receiver must still fail after 10 seconds, not hang. A plain timer (an AbortSignal per
  // attempt costs a signal, its timer and listeners); it alone does not keep the process alive.
  const deadline = setTimeout(() => stop(new DeadlinePassed()), timeoutMs).unref()
  const answer = (exchange: Exchange) => {
    if (answered) return
    answered = true
    clearTimeout(deadline)
    if (!pooled) close(dispatcher)
    done(status === undefined ? exchange : { status, response: responseText(kept) })
  }
  try {
    dispatcher.dispatch({
      path,
      method: "POST",
      headers: request.headers,
      body: request.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs
    }, {
      onRequestStart: (started) => {
        controller = started
        if (stopWith !== undefined) started.abort(stopWith)
      },
      onResponseStart: (_controller, statusCode) => {
        status = statusCode
      },
      // The status decides; the body's start is kept, the rest read so the connection can be reused, unless it is long.
      onResponseData: (_controller, chunk) => {
        if (drained < responseKeptBytes) kept.push(chunk.subarray(0, responseKeptBytes - drained))
        drained += chunk.length
        if (drained > maxDrainedBytes) stop(new Error("response body too long to drain"))
      },
      // undici frees the connection a full turn of the event loop after the response (its guard
      // against servers that close a kept-alive one anyway), from an immediate queued after this
      // callback: answered once that has run, the next attempt to the endpoint reuses the
      // connection rather than opening another.
      onResponseEnd: () => setImmediate(() => setImmediate(() => answer({ status: status ?? 0, response: "" }))),
      onResponseError: (_controller, error) => {
        const timedOut = stopWith instanceof DeadlinePassed
        answer({
          error: timedOut ? `No response within ${timeoutMs} ms.` : `The request failed: ${error.message}`,
          stale: pooled && !timedOut && stopWith === undefined && "code" in error && error.code === "UND_ERR_SOCKET"
        })
      }
    })
  } catch (error) {
    answer({ error: `The request could not be made: ${String(error)}`, stale: false })
  }
  return () => stop(new Error("interrupted"))
}

/**
 * Performs one delivery POST, pinned to the vetted address, with a
 * time-out (10 seconds unless `timeoutMs` says otherwise). Never fails:
 * the outcome says whether the endpoint answered 2xx in time and, if not, why.
 */
export const deliver = (request: DeliveryRequest): Effect.Effect<DeliveryOutcome> =>
  // No span, and one callback for the whole attempt: it runs for every delivery attempt, and its
  // caller's outcome says what happened.
  Effect.callback<DeliveryOutcome>((resume) => {
    const startedMs = realClock.currentTimeMillisUnsafe()
    const timeoutMs = request.timeoutMs ?? deliveryTimeoutMs
    const settle = (result: Exchange) =>
      resume(Effect.succeed(outcomeOf(result, realClock.currentTimeMillisUnsafe() - startedMs)))
    let stopRequest = exchange(request, timeoutMs, (first) => {
      // A kept-alive connection can be closed by the endpoint just as it is reused: once more (the dead one has left the pool).
      if ("error" in first && first.stale) stopRequest = exchange(request, timeoutMs, settle)
      else settle(first)
    })
    return Effect.sync(() => stopRequest())
  })

/**
 * How long an attempt took is real time, as its deadline is: under the sandbox's test clock (which
 * stands still) every attempt took "0 ms" in the history.
 */
const realClock = Clock.Clock.defaultValue()

const decoder = new TextDecoder("utf-8", { fatal: false })

/**
 * The kept start of a body as text: UTF-8 (anything else shows as replacement characters), without
 * NUL characters, which PostgreSQL's text and jsonb refuse.
 */
const responseText = (chunks: ReadonlyArray<Uint8Array>): string => {
  if (chunks.length === 0) return ""
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
  return decoder.decode(bytes).replaceAll("\0", "")
}

/** The outcome of an attempt that took `durationMs`. */
const outcomeOf = (result: Exchange, durationMs: number): DeliveryOutcome => {
  if ("error" in result) return { ok: false, status: null, durationMs, error: result.error }
  const error = describeStatus(result.status)
  return error === undefined
    ? { ok: true, status: result.status, durationMs, response: result.response }
    : { ok: false, status: result.status, durationMs, error, response: result.response }
}
