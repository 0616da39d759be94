/**
 * The answer for a request that reaches Node while no route is served: the
 * port is bound before the core is built (the cluster needs its real port), so
 * a client, or a load balancer polling `/healthz`, can connect while the
 * service is still starting, and again once the routes stop during shutdown.
 * Node would hold such a request open with no answer, forever; here it gets a
 * 503 in the envelope, and asks again.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import { requestsPerMinute, secondsUntilReset } from "../ratelimit/RateLimit.ts"
import { errorBody } from "./ErrorResponses.ts"

const body = JSON.stringify(errorBody(503, {
  message: "The service is starting or stopping and serves no route yet.",
  next: "Retry in a few seconds; GET /healthz answers 200 once the service is ready."
}))

/**
 * Installs the answer on `server`, as its first `request` listener: it stands aside whenever
 * another listener (the routes) is there. `now` is the service clock's time in milliseconds.
 */
export const answerWhileNotServing = (server: Server, now: () => number): Server =>
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (server.listenerCount("request") > 1) return
    request.resume()
    response.writeHead(503, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "retry-after": "1",
      "ratelimit-limit": String(requestsPerMinute),
      "ratelimit-reset": String(secondsUntilReset(now())),
      connection: "close"
    }).end(body)
  })
