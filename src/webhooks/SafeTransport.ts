/**
 * One webhook delivery attempt over node:http/https, to a host that
 * `AddressGuard.resolveAndCheck` vetted.
 *
 * The connection is pinned to the vetted address with a custom `lookup`:
 * resolving again at connect time would let a DNS answer that changed since
 * the check (DNS rebinding) send the request to a private address. `Host`
 * and TLS SNI/certificate checks still use the URL's hostname.
 *
 * Redirects are never followed (node:http does not follow them; a 3xx is
 * reported as a failure), and the response body is never read.
 *
 * @since 1.0.0
 */
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { Clock, Duration, Effect } from "effect"

/** The spec's webhook response time-out. */
export const deliveryTimeoutMs = Duration.toMillis(Duration.seconds(10))

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

type Exchange = { readonly status: number } | { readonly error: string }

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
    // The deadline is real time, not Clock time: under the sandbox's test
    // clock a silent receiver must still fail after 10 seconds, not hang.
    const deadline = AbortSignal.timeout(timeoutMs)
    let req: http.ClientRequest
    try {
      const url = new URL(request.url)
      const client = url.protocol === "https:" ? https : http
      req = client.request({
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port === "" ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
        lookup: pinnedLookup,
        // A fresh socket per attempt: a pooled one could be bound to another address.
        agent: false,
        signal: AbortSignal.any([interrupted, deadline])
      })
    } catch (error) {
      resume(Effect.succeed({ error: `The request could not be made: ${String(error)}` }))
      return
    }
    req.on("response", (response) => {
      resume(Effect.succeed({ status: response.statusCode ?? 0 }))
      // Only the status matters; an endless body must not keep the socket busy.
      response.destroy()
    })
    req.on("error", (error) => {
      resume(Effect.succeed({
        error: deadline.aborted
          ? `No response within ${timeoutMs} ms.`
          : `The request failed: ${error.message}`
      }))
    })
    req.end(request.body)
    return Effect.sync(() => req.destroy())
  })

/**
 * Performs one delivery POST, pinned to the vetted address, with a
 * time-out (10 seconds unless `timeoutMs` says otherwise). Never fails:
 * the outcome says whether the endpoint answered 2xx in time and, if not, why.
 */
export const deliver = Effect.fn("WebhookTransport.deliver")(function*(request: DeliveryRequest) {
  const startedMs = yield* Clock.currentTimeMillis
  const result = yield* exchange(request, request.timeoutMs ?? deliveryTimeoutMs)
  const durationMs = (yield* Clock.currentTimeMillis) - startedMs
  if ("error" in result) {
    const outcome: DeliveryOutcome = { ok: false, status: null, durationMs, error: result.error }
    return outcome
  }
  const error = describeStatus(result.status)
  const outcome: DeliveryOutcome = error === undefined
    ? { ok: true, status: result.status, durationMs }
    : { ok: false, status: result.status, durationMs, error }
  return outcome
})
