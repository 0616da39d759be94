/**
 * Answers for requests Node's HTTP parser refuses before any route sees them
 * (an unknown method, a malformed header, `Content-Length` beside
 * `Transfer-Encoding`, headers over the size limit, a request that arrives
 * too slowly). Node would write a bare status line; here each gets the envelope.
 * Which credential sent such a request is unknown, so of the `ratelimit-*`
 * headers only `ratelimit-limit` and `ratelimit-reset` can be given.
 */
import type { Server } from "node:http"
import type { Duplex } from "node:stream"
import { requestsPerMinute, secondsUntilReset } from "../ratelimit/RateLimit.ts"
import { type EnvelopeStatus, errorBody } from "./ErrorResponses.ts"

interface Refusal {
  readonly status: EnvelopeStatus
  readonly reason: string
  readonly message: string
  readonly next: string
}

const refusalOf = (code: string | undefined): Refusal => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        message: "The request headers are too large.",
        next: "Send smaller headers (at most 16 KiB in all)."
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "ERR_HTTP_HEADERS_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        message: "The request did not arrive in time.",
        next: "Send the whole request (headers and body) promptly, then retry."
      }
    case "HPE_INVALID_METHOD":
      return {
        status: 400,
        reason: "Bad Request",
        message: "The request uses a method HTTP does not define.",
        next: "Use GET, POST, PUT, PATCH or DELETE as GET /openapi.json lists for the path."
      }
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
      return {
        status: 400,
        reason: "Bad Request",
        message: "The request's Content-Length and Transfer-Encoding cannot both be honoured.",
        next: "Send one of the two headers, not both; the only Transfer-Encoding accepted is chunked."
      }
    default:
      return {
        status: 400,
        reason: "Bad Request",
        message: `The request is not valid HTTP/1.1 (${code ?? "unreadable"}).`,
        next: "Check the request line and headers; every header needs a name, a colon and a value of visible characters."
      }
  }
}

/** Installs the `clientError` answer on `server`; `now` is the service clock's time in milliseconds. */
export const answerClientErrors = (server: Server, now: () => number): Server =>
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    const refusal = refusalOf(error.code)
    const body = JSON.stringify(errorBody(refusal.status, { message: refusal.message, next: refusal.next }))
    socket.end([
      `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
      "content-type: application/json",
      `content-length: ${Buffer.byteLength(body)}`,
      `ratelimit-limit: ${requestsPerMinute}`,
      `ratelimit-reset: ${secondsUntilReset(now())}`,
      "connection: close",
      "",
      body
    ].join("\r\n"))
  })
