/**
 * The request gate, around every route: admits the request (credential and
 * rate window in one round trip), answers 429 over the limit, puts the
 * `ratelimit-*` headers on every response, and makes sure every failure —
 * unknown route, wrong method, oversized body, defect — leaves in the envelope.
 */
import { ByteSize, Cause, Context, Effect, Option, Predicate, type Types } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { type Admission, Credentials } from "../auth/Credentials.ts"
import { NetworkDriver, servesWorkspace } from "../network/NetworkDriver.ts"
import { AppConfig } from "../platform/AppConfig.ts"
import * as Cluster from "../platform/Cluster.ts"
import { isDatabaseBusy, isDatabaseUnreachable } from "../platform/Causes.ts"
import { rateLimitHeaders } from "../ratelimit/RateLimit.ts"
import { Admitted } from "./Admission.ts"
import { Draining } from "./Draining.ts"
import { ensureEnvelope, errorResponse } from "./ErrorResponses.ts"
import { sessionTokenOf } from "./SessionCookie.ts"

/** Paths the gate lets through untouched: load balancers poll them. */
const ungated = new Set(["/healthz"])

/**
 * Paths the gate does not touch at all: the cluster's runners call each other there, with their
 * own secret and their own (not JSON) bodies, and must keep answering while this server drains.
 */
const passedThrough = new Set([Cluster.runnerPath])

/** The token of an `Authorization: Bearer ...` header. */
export const bearerToken = (authorization: string | undefined): string | undefined => {
  if (authorization === undefined) return undefined
  const match = /^bearer +(.+)$/i.exec(authorization.trim())
  return match === null ? undefined : match[1].trim()
}

interface RoutePattern {
  readonly method: string
  readonly pattern: RegExp
}

const toPattern = (path: string): RegExp =>
  new RegExp("^" + path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\/:[^/]+/g, "/[^/]+") + "/?$")

/** A route the service serves. */
export interface RouteSpec {
  readonly method: string
  readonly path: string
}

/**
 * Pages for people under one path (the dashboard, `dashboard/`, handed over by the wiring in
 * `Server.ts`, so `http/` names no page): a missed route under `base` is answered with their own
 * "not found" page, not the API's envelope.
 */
export interface Pages {
  /** The path the pages live under (`/dashboard`). */
  readonly base: string
  /** Every route of the pages, for the 404/405 table. */
  readonly routes: ReadonlyArray<RouteSpec>
  /** The page for a path under `base` that names nothing. */
  readonly notFound: HttpServerResponse.HttpServerResponse
}

const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  return end === -1 ? url : url.slice(0, end)
}

/**
 * Every path the service serves is made of unreserved characters and
 * percent-escapes. Anything else (`;`, `,`, `=`, `@`, ...) is refused before
 * routing: the router would otherwise cut the path at `;` and serve a
 * different operation (`DELETE /v1/webhooks/{id};/deliveries` deleting the webhook).
 */
const servablePath = /^(?:\/[A-Za-z0-9\-._~%]*)+$/

/**
 * The request body could not be read whole because it passed the limit (a
 * chunked body has no length to check first). The handler's body read may
 * surface as a failure or, through the API's decoding, as a defect.
 */
const isBodyTooLarge = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => {
    const error = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    return HttpServerError.isHttpServerError(error) && error.reason._tag === "RequestParseError" &&
      (error.reason.reason === "BodyTooLarge" || Predicate.isTagged(error.reason.cause, "MaxBytesError"))
  })

/**
 * The gate as global router middleware; `served` and the `pages`' routes list every route, so a
 * miss can be told apart as 404 (no such path) or 405 (path exists, other method).
 */
export const layer = (served: ReadonlyArray<RouteSpec>, pages: ReadonlyArray<Pages>) =>
  HttpRouter.middleware(
    Effect.gen(function*() {
      const credentials = yield* Credentials
      const config = yield* AppConfig
      const draining = yield* Draining
      const network = yield* NetworkDriver
      /**
       * On the test clock (a development setting) a live workspace is not served at all: real seats
       * live in real time. Its key answers 401, as a workspace that is not active here.
       */
      const servedHere = (admission: Admission) =>
        config.clock !== "test" || admission.principal === undefined
          ? Effect.succeed(true)
          : servesWorkspace(network, admission.principal.workspaceId)
      const liveOnTestClock = (headers: Record<string, string>) =>
        errorResponse(401, {
          message: "This server runs on the test clock (OUTREACH_CLOCK=test, a development setting) and serves no live workspace.",
          next: "Use this workspace's key on a server on the system clock, or a sandbox workspace's key here."
        }, headers)
      const stopping = errorResponse(503, {
        message: "The service is stopping.",
        next: "Retry in a few seconds: another server, or this one restarted, will answer."
      }, { "retry-after": "5", connection: "close" })
      const routes: ReadonlyArray<RoutePattern> = [...served, ...pages.flatMap((site) => site.routes)]
        .map(({ method, path }) => ({ method, pattern: toPattern(path) }))
      /** The "not found" page of the pages `path` is under, if it is under any. */
      const pageMiss = (path: string) =>
        pages.find((site) => path === site.base || path.startsWith(`${site.base}/`))?.notFound
      const maxBodySize = ByteSize.bytes(config.maxBodyBytes)

      const routeMiss = (request: HttpServerRequest.HttpServerRequest) => {
        const path = pathOf(request.url)
        const allowed = routes.filter((route) => route.pattern.test(path)).map((route) => route.method)
        if (allowed.includes(request.method)) {
          // The path has the shape of a route of this method, yet the router refused it: one of
          // its parameters is over the router's length limit or not decodable percent-encoding.
          // Under the pages (the dashboard) a person gets their page for a link that names nothing.
          return pageMiss(path) ?? errorResponse(400, {
            message: `A path parameter of ${path} cannot be read: it is longer than 100 characters or has malformed percent-encoding.`,
            next: "Send the id exactly as the service returned it; ids are UUIDs."
          })
        }
        if (allowed.length === 0) {
          return pageMiss(path) ?? errorResponse(404, {
            message: `There is no route ${request.method} ${path}.`,
            next: "Check the path against GET /openapi.json; every API path starts with /v1."
          })
        }
        const allow = [...new Set(allowed)].join(", ")
        return errorResponse(405, {
          message: `${path} does not accept ${request.method}.`,
          next: `Use one of: ${allow}.`
        }, { allow })
      }

      const tooLarge = errorResponse(413, {
        message: `The request body is larger than the limit of ${config.maxBodyBytes} bytes.`,
        next: "Send a smaller body."
      })

      const databaseDown = errorResponse(503, {
        message: "The service cannot reach its database right now.",
        next: "Retry in a few seconds; the service reconnects by itself. GET /healthz answers 200 again once it has."
      }, { "retry-after": "5" })

      const databaseBusy = errorResponse(503, {
        message: "A row this request needs is held by a change that has not finished; nothing was changed.",
        next: "Retry in a second or two."
      }, { "retry-after": "1" })

      const recover = (request: HttpServerRequest.HttpServerRequest, cause: Cause.Cause<unknown>) => {
        const failure = Cause.findErrorOption(cause)
        if (
          Option.isSome(failure) && HttpServerError.isHttpServerError(failure.value) &&
          failure.value.reason._tag === "RouteNotFound"
        ) {
          return Effect.succeed(routeMiss(request))
        }
        if (isBodyTooLarge(cause)) return Effect.succeed(tooLarge)
        if (isDatabaseUnreachable(cause)) {
          return Effect.logWarning("request failed: the database is out of reach", cause).pipe(
            Effect.as(databaseDown)
          )
        }
        if (isDatabaseBusy(cause)) {
          return Effect.logWarning("request failed: a statement met a lock or statement timeout", cause).pipe(
            Effect.as(databaseBusy)
          )
        }
        return Effect.logError("request failed unexpectedly", cause).pipe(
          Effect.as(errorResponse(500, {
            message: "The service failed unexpectedly; the failure has been logged.",
            next: "Retry later; if it persists, contact support with the time of the request."
          }))
        )
      }

      /** The handler's failures become envelopes here, so they too carry the rate-limit headers. */
      const serve = (
        request: HttpServerRequest.HttpServerRequest,
        httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>,
        admission: Admission,
        via: "bearer" | "cookie" | undefined
      ) => {
        // Both in one change of the request's context: each change sets the fiber's context and
        // registers its restoring on exit.
        const admitted = Effect.updateContext(httpEffect, (context: Context.Context<never>) =>
          Context.add(
            Context.add(context, Admitted, { resolved: true, principal: admission.principal, via }),
            HttpIncomingMessage.MaxBodySize,
            maxBodySize
          ))
        return Effect.catchCause(admitted, (cause) =>
          Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : recover(request, cause))
      }

      const gate = (
        request: HttpServerRequest.HttpServerRequest,
        path: string,
        httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>
      ) => {
        // A request without an Authorization header may carry the dashboard's session cookie.
        const bearer = bearerToken(request.headers.authorization)
        const cookie = bearer === undefined ? sessionTokenOf(request) : undefined
        const via = bearer !== undefined ? "bearer" as const : cookie !== undefined ? "cookie" as const : undefined
        return Effect.flatMap(
          credentials.admit({
            token: bearer ?? cookie,
            clientAddress: Option.getOrElse(request.remoteAddress, () => "unknown")
          }),
          (admission) => {
            const headers = rateLimitHeaders(admission.window)
            if (admission.window.exceeded) {
              return Effect.succeed(errorResponse(429, {
                message: "Too many requests: the limit is 600 a minute for each API key.",
                next: `Wait ${admission.window.resetSeconds} seconds before the next request; use ?wait= on job reads instead of tight polling.`
              }, headers))
            }
            if (request.headers.host === undefined) {
              return Effect.succeed(errorResponse(400, {
                message: "The request has no Host header.",
                next: "Send the Host header, as HTTP/1.1 requires."
              }, headers))
            }
            if (!servablePath.test(path)) {
              return Effect.succeed(errorResponse(404, {
                message: `There is no route ${request.method} ${path}: a path segment holds a reserved character.`,
                next: "Check the path against GET /openapi.json; ids are UUIDs and never contain `;`, `,` or `=`."
              }, headers))
            }
            const declaredLength = Number(request.headers["content-length"] ?? "0")
            if (declaredLength > config.maxBodyBytes) {
              return Effect.succeed(HttpServerResponse.setHeaders(tooLarge, headers))
            }
            return Effect.flatMap(servedHere(admission), (served) =>
              served
                ? Effect.map(serve(request, httpEffect, admission, via), (response) =>
                  HttpServerResponse.setHeaders(ensureEnvelope(response), headers))
                : Effect.succeed(liveOnTestClock(headers)))
          }
        )
      }

      /**
       * An answer given once the stop has begun closes its connection: an idle keep-alive
       * connection would otherwise hold the stop until the client drops it.
       */
      const closingWhenDraining = (response: HttpServerResponse.HttpServerResponse) =>
        draining.isDrainingUnsafe() ? HttpServerResponse.setHeader(response, "connection", "close") : response

      return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled>): Effect.Effect<
        HttpServerResponse.HttpServerResponse,
        Types.unhandled,
        HttpServerRequest.HttpServerRequest
      > =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const path = pathOf(request.url)
          if (passedThrough.has(path)) return httpEffect
          const answer = draining.isDrainingUnsafe()
            ? Effect.succeed(stopping)
            : ungated.has(path)
            ? Effect.map(httpEffect, ensureEnvelope)
            : draining.track(gate(request, path, httpEffect))
          return answer.pipe(
            Effect.map(closingWhenDraining),
            // A failure of the gate itself (the database is down), or of an ungated route (a
            // wrong method on /healthz), is answered in the envelope too.
            Effect.catchCause((cause) => Cause.hasInterruptsOnly(cause) ? Effect.failCause(cause) : recover(request, cause))
          )
        })
    }),
    { global: true }
  )
