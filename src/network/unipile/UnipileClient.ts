/**
 * The provider's client: `unipile-node-sdk`'s `UnipileClient` where the SDK covers the call, and
 * its own request sender (the same headers, base address and error handling) for the documented
 * REST calls it does not cover, each answer decoded with the driver's own schema. Every failure
 * becomes a `ProviderFailure` with the provider's status and error type (`errors/<name>`), or no
 * status when no answer came (refused connection, lost reply, time-out).
 */
import { Data, Effect, Schema } from "effect"
import { InvalidResponseTypeError, type RequestInput, UnipileClient, UnsuccessfulRequestError, untypedYetValidator } from "unipile-node-sdk"
import { reveal, type UnipileSettings } from "./Config.ts"

/** What went wrong with a call to the provider. */
export class ProviderFailure extends Data.TaggedError("ProviderFailure")<{
  /** The HTTP status of the provider's answer; null when none came. */
  readonly status: number | null
  /** The provider's error type without its `errors/` prefix (`cannot_resend_yet`...), or `no_answer`. */
  readonly type: string
  readonly detail: string
  /** The call, for messages and traces. */
  readonly call: string
}> {}

const ProblemBody = Schema.Struct({
  status: Schema.optionalKey(Schema.Number),
  type: Schema.optionalKey(Schema.String),
  detail: Schema.optionalKey(Schema.String),
  title: Schema.optionalKey(Schema.String)
})
const decodeProblem = Schema.decodeUnknownOption(ProblemBody)

const failureOf = (call: string) => (error: unknown): ProviderFailure => {
  if (error instanceof UnsuccessfulRequestError) {
    const body = decodeProblem(error.body)
    if (body._tag === "Some") {
      return new ProviderFailure({
        call,
        status: body.value.status ?? 500,
        type: (body.value.type ?? "errors/unexpected_error").replace(/^errors\//, ""),
        detail: body.value.detail ?? body.value.title ?? "The provider refused."
      })
    }
    return new ProviderFailure({ call, status: 500, type: "unexpected_error", detail: "The provider answered an error without a body." })
  }
  // An answer the SDK's validator refused is the provider's fault, not the network's refusal.
  if (error instanceof InvalidResponseTypeError) {
    return new ProviderFailure({ call, status: 502, type: "invalid_response", detail: error.message.split("\n")[0] })
  }
  return new ProviderFailure({ call, status: null, type: "no_answer", detail: error instanceof Error ? error.message : String(error) })
}

/** The client, and the two ways to call it. */
export const make = (settings: UnipileSettings) => {
  const sdk = new UnipileClient(settings.dsn, reveal(settings), {
    validateRequestPayload: true,
    validateRequestPayloadLevel: settings.validation
  })
  return {
    /** Calls the SDK. */
    call: <A>(name: string, run: (client: UnipileClient) => Promise<A>): Effect.Effect<A, ProviderFailure> =>
      Effect.tryPromise({ try: () => run(sdk), catch: failureOf(name) }).pipe(
        Effect.withSpan("Unipile.call", { attributes: { call: name } })
      ),
    /** Sends a documented REST call the SDK does not cover; its answer is decoded with `schema`. */
    rest: <S extends Schema.Decoder<unknown>>(name: string, request: RequestInput, schema: S): Effect.Effect<S["Type"], ProviderFailure> =>
      Effect.tryPromise({
        try: () => sdk.request.send<unknown>({ ...request, validator: untypedYetValidator }),
        catch: failureOf(name)
      }).pipe(
        Effect.flatMap((body) =>
          Schema.decodeUnknownEffect(schema)(body).pipe(
            Effect.mapError((issue) => new ProviderFailure({ call: name, status: 502, type: "invalid_response", detail: String(issue) }))
          )
        ),
        Effect.withSpan("Unipile.rest", { attributes: { call: name } })
      )
  }
}

/** The provider's client. */
export type Client = ReturnType<typeof make>

/** `client` with `before` run ahead of each of its calls (a seat's share of the provider's rate). */
export const paced = (client: Client, before: Effect.Effect<void>): Client => ({
  call: (name, run) => Effect.andThen(before, client.call(name, run)),
  rest: (name, request, schema) => Effect.andThen(before, client.rest(name, request, schema))
})
