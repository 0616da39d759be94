/**
 * The stdio entry for desktop assistants (`npm run mcp`): a bridge between
 * the assistant's standard input and output and the running service's
 * `POST /mcp`, built from the official SDK's two transports. The assistant
 * talks to the same service, database and Governor as every other caller,
 * with the same API key rules: no second process owns the data.
 *
 * It survives the service: the assistant opened one MCP session with its
 * `initialize`, and the bridge keeps that promise across the service's
 * sessions. When the service answers 404 (it restarted, or dropped the
 * session) or cannot be reached (stopped, starting: connection refused,
 * 502/503/504), the bridge drops its session, opens a new one by replaying the
 * assistant's `initialize` (its answer kept from the assistant, who already
 * has one), and sends the message again, retrying on a schedule for up to two
 * minutes. Only failures that come before the service handled the message
 * are retried, so a write is never sent twice; any other refusal (401, 429)
 * answers the assistant's request with the service's message.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Config, Data, Deferred, Effect, Option, Predicate, Queue, Redacted, Ref, Schedule, Semaphore } from "effect"

/** Where the bridge connects, and with which key. */
export const BridgeConfig = Config.all({
  url: Config.String("OUTREACH_URL").pipe(Config.withDefault("http://127.0.0.1:8080")),
  apiKey: Config.Redacted("OUTREACH_API_KEY")
})

/** The service cannot take the message now (stopped, starting, or its session is gone); it handled nothing. */
class Unavailable extends Data.TaggedError("Unavailable")<{ readonly reason: string }> {}

/** The service refused the message for good (a revoked key, the rate limit...). */
class Refused extends Data.TaggedError("Refused")<{ readonly reason: string }> {}

/** How long, and how often, the bridge tries again while the service is unavailable: 100 ms doubling to 2 s, for 2 minutes. */
export const reconnectSchedule = Schedule.min([Schedule.exponential("100 millis"), Schedule.spaced("2 seconds")]).pipe(
  Schedule.upTo({ duration: "2 minutes" })
)

const messageOf = (error: unknown) => error instanceof Error ? error.message : String(error)

/** Whether a failed send is one the service never handled, so sending again is safe. */
const classify = (error: unknown): Unavailable | Refused => {
  if (error instanceof StreamableHTTPError) {
    return error.code === 404 || error.code === 502 || error.code === 503 || error.code === 504
      ? new Unavailable({ reason: error.message })
      : new Refused({ reason: error.message })
  }
  // `fetch` failed before any answer: nothing listens (the service is stopped or restarting).
  const cause = error instanceof Error ? error.cause : undefined
  return Predicate.hasProperty(cause, "code") && cause.code === "ECONNREFUSED"
    ? new Unavailable({ reason: "the service is not listening" })
    : new Refused({ reason: messageOf(error) })
}

const requestId = (message: JSONRPCMessage): string | number | undefined =>
  "method" in message && "id" in message ? message.id : undefined

const responseId = (message: JSONRPCMessage): string | number | undefined =>
  !("method" in message) && "id" in message ? message.id : undefined

const isInitialize = (message: JSONRPCMessage) => "method" in message && message.method === "initialize"

const protocolVersionOf = (message: JSONRPCMessage): string | undefined =>
  "result" in message && typeof message.result["protocolVersion"] === "string" ? message.result["protocolVersion"] : undefined

/** Runs the bridge until standard input closes. */
export const run = Effect.scoped(Effect.gen(function*() {
  const { apiKey, url } = yield* BridgeConfig
  const endpoint = new URL("/mcp", url)
  const stdio = new StdioServerTransport()
  const log = (line: string) => Effect.sync(() => process.stderr.write(`outreach mcp: ${line}\n`))

  /** The assistant's `initialize`, replayed to open each later session. */
  const initialize = yield* Ref.make(Option.none<JSONRPCMessage>())
  /** The open session's transport, if any. */
  const current = yield* Ref.make(Option.none<StreamableHTTPClientTransport>())
  /** Answers to the bridge's own replayed `initialize`, by request id. */
  const replays = new Map<string, Deferred.Deferred<JSONRPCMessage>>()
  const opening = yield* Semaphore.make(1)
  let replayCount = 0

  const toAssistant = (message: JSONRPCMessage) => Effect.promise(() => stdio.send(message).catch(() => undefined))

  const send = (transport: StreamableHTTPClientTransport, message: JSONRPCMessage) =>
    Effect.tryPromise({ try: () => transport.send(message), catch: classify })

  /** A transport to the service, its answers going to the assistant (or to a replay waiting for them). */
  const connect = Effect.promise(async () => {
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${Redacted.value(apiKey)}` } }
    })
    transport.onmessage = (message) => {
      const id = responseId(message)
      const replay = id === undefined ? undefined : replays.get(String(id))
      if (replay !== undefined) return Deferred.doneUnsafe(replay, Effect.succeed(message))
      // What `initialize` agreed is sent on every later request, as the transport requires.
      const version = protocolVersionOf(message)
      if (version !== undefined) transport.setProtocolVersion(version)
      void stdio.send(message).catch(() => undefined)
    }
    transport.onerror = (error) => process.stderr.write(`outreach mcp: ${error.message}\n`)
    await transport.start()
    return transport
  })

  /** Opens a session by replaying the assistant's `initialize`, and says the client is initialized. */
  const reopen = (transport: StreamableHTTPClientTransport, first: JSONRPCMessage) =>
    Effect.gen(function*() {
      if (!("method" in first) || !("id" in first)) return
      const id = `outreach-bridge-${++replayCount}`
      const answered = yield* Deferred.make<JSONRPCMessage>()
      replays.set(id, answered)
      yield* send(transport, { ...first, id })
      const answer = yield* Deferred.await(answered).pipe(
        Effect.timeoutOrElse({ duration: "30 seconds", orElse: () => Effect.fail(new Unavailable({ reason: "no answer to initialize" })) }),
        Effect.ensuring(Effect.sync(() => replays.delete(id)))
      )
      if ("error" in answer) return yield* new Refused({ reason: answer.error.message })
      const version = protocolVersionOf(answer)
      if (version !== undefined) transport.setProtocolVersion(version)
      yield* send(transport, { jsonrpc: "2.0", method: "notifications/initialized" })
      yield* log(`opened a new session with ${endpoint.href}`)
    })

  /** The open session, or a new one (opened with the replayed `initialize` unless `message` is the assistant's own). */
  const session = (message: JSONRPCMessage) =>
    opening.withPermits(1)(Effect.gen(function*() {
      const open = yield* Ref.get(current)
      if (Option.isSome(open)) return open.value
      const transport = yield* connect
      const first = yield* Ref.get(initialize)
      if (Option.isSome(first) && !isInitialize(message)) {
        yield* reopen(transport, first.value).pipe(
          Effect.tapError(() => Effect.promise(() => transport.close()))
        )
      }
      yield* Ref.set(current, Option.some(transport))
      return transport
    }))

  /** Forgets a session the service no longer has (unless another attempt already replaced it). */
  const drop = (transport: StreamableHTTPClientTransport) =>
    Effect.gen(function*() {
      const dropped = yield* Ref.modify(current, (open) =>
        Option.isSome(open) && open.value === transport ? [true, Option.none()] : [false, open])
      if (dropped) yield* Effect.promise(() => transport.close().catch(() => undefined))
    })

  const deliver = (message: JSONRPCMessage) =>
    Effect.gen(function*() {
      if (isInitialize(message)) {
        yield* Ref.set(initialize, Option.some(message))
        const open = yield* Ref.get(current)
        if (Option.isSome(open)) yield* drop(open.value)
      }
      const transport = yield* session(message)
      yield* send(transport, message).pipe(Effect.tapError(() => drop(transport)))
    }).pipe(
      Effect.tapError((error) => error._tag === "Unavailable" ? log(`${error.reason}; trying again`) : Effect.void),
      Effect.retry({ schedule: reconnectSchedule, while: (error) => error._tag === "Unavailable" }),
      Effect.catch((error) => {
        const id = requestId(message)
        const reason = `The service at ${endpoint.href} refused the request: ${error.reason}`
        // The assistant gets an answer to its request instead of waiting forever.
        return Effect.andThen(
          log(reason),
          id === undefined ? Effect.void : toAssistant({ jsonrpc: "2.0", id, error: { code: -32000, message: reason } })
        )
      })
    )

  // In the assistant's order: `initialize` and notifications (quick) one after the other, so
  // `notifications/initialized` never overtakes its `initialize`; requests each on their own,
  // so a long-poll does not hold the others up.
  const inbox = yield* Queue.unbounded<JSONRPCMessage>()
  yield* Queue.take(inbox).pipe(
    Effect.flatMap((message) => requestId(message) === undefined || isInitialize(message) ? deliver(message) : Effect.forkChild(deliver(message))),
    Effect.forever,
    Effect.forkScoped
  )

  yield* Effect.callback<void>((resume) => {
    stdio.onmessage = (message) => void Queue.offerUnsafe(inbox, message)
    stdio.onclose = () => resume(Effect.void)
    // The assistant closed its end (it quit, or stopped the server): the bridge ends with it.
    process.stdin.once("end", () => resume(Effect.void))
    void stdio.start()
    return Effect.flatMap(Ref.get(current), (open) =>
      Effect.promise(() => Promise.all([Option.getOrUndefined(open)?.close(), stdio.close()])))
  })
}))
