/**
 * An `effect/ai` `LanguageModel` over any OpenAI-compatible chat-completions API
 * (OpenAI itself, and the servers that copy its API: vLLM, Ollama, llama.cpp,
 * LiteLLM, ...). No published provider package loads on effect 4.1, and reply
 * triage needs only one non-streaming request: text messages in, one answer
 * out, structured output through `response_format: json_schema`. Tools, files
 * and reasoning parts are refused rather than silently dropped.
 *
 * Every failure is an `AiError`: no answer in time or no connection is a
 * `NetworkError`, a non-2xx status the reason `AiError.reasonFromHttpStatus`
 * gives it, a body that is not a chat completion an `InvalidResponseError`.
 */
import { Duration, Effect, identity, Layer, Option, type Redacted, Schema, Stream } from "effect"
import { AiError, LanguageModel, OpenAiStructuredOutput, type Prompt, type Response } from "effect/ai"
import { HttpClient, type HttpClientError, HttpClientRequest, HttpClientResponse } from "effect/http"

export interface OpenAiCompatibleOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1`; requests go to `{url}/chat/completions`. */
  readonly url: string
  /** Sent as `Authorization: Bearer <key>`; servers on the local machine often need none. */
  readonly key: Option.Option<Redacted.Redacted<string>>
  /** The model name the API knows, e.g. `gpt-4o-mini`. */
  readonly model: string
  /** How long one request may take before it fails with a `NetworkError`. */
  readonly timeout: Duration.Input
}

/** The part of a chat completion this provider reads. */
const ChatCompletion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({
    message: Schema.Struct({ content: Schema.NullOr(Schema.String) }),
    finish_reason: Schema.optional(Schema.NullOr(Schema.String))
  })),
  usage: Schema.optional(Schema.Struct({
    prompt_tokens: Schema.optional(Schema.Int),
    completion_tokens: Schema.optional(Schema.Int)
  }))
})

const finishReasons: Record<string, Response.FinishReason> = {
  stop: "stop",
  length: "length",
  content_filter: "content-filter",
  tool_calls: "tool-calls"
}

const failWith = (reason: AiError.AiErrorReason) =>
  Effect.fail(AiError.make({ module: "OpenAiCompatible", method: "generateText", reason }))

const unsupported = (what: string) =>
  new AiError.InvalidUserInputError({ description: `the OpenAI-compatible provider does not support ${what}` })

interface ChatMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

const toChatMessage = (message: Prompt.Message): Effect.Effect<ChatMessage, AiError.AiError> => {
  if (message.role === "system") return Effect.succeed({ role: "system", content: message.content })
  if (message.role === "tool") return failWith(unsupported("tool messages"))
  const texts: Array<string> = []
  for (const part of message.content) {
    if (part.type !== "text") return failWith(unsupported(`${part.type} parts`))
    texts.push(part.text)
  }
  return Effect.succeed({ role: message.role, content: texts.join("") })
}

/** Plain text asks for no format: the API's default, and not every compatible server knows `{type: "text"}`. */
const responseFormat = (format: LanguageModel.ProviderOptions["responseFormat"]) =>
  format.type === "text"
    ? Effect.succeed(undefined)
    : Effect.try({
      try: () => ({
        type: "json_schema",
        json_schema: {
          name: format.objectName,
          schema: OpenAiStructuredOutput.toCodecOpenAI(format.schema).jsonSchema,
          strict: true
        }
      }),
      catch: (error) =>
        AiError.make({
          module: "OpenAiCompatible",
          method: "generateText",
          reason: new AiError.UnsupportedSchemaError({ description: String(error) })
        })
    })

const requestFailed = (error: HttpClientError.HttpClientError) =>
  failWith(
    error.reason._tag === "TransportError" || error.reason._tag === "EncodeError" ||
      error.reason._tag === "InvalidUrlError"
      ? new AiError.NetworkError({
        reason: error.reason._tag,
        method: error.request.method,
        url: error.request.url,
        description: error.message,
        cause: error
      })
      : new AiError.InvalidResponseError({ description: error.message })
  )

const statusFailed = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(Effect.orElseSucceed(response.text, () => ""), (body) =>
    failWith(AiError.reasonFromHttpStatus({
      status: response.status,
      http: { body },
      description: AiError.buildErrorDescription({
        status: response.status,
        message: undefined,
        method: response.request.method,
        url: response.request.url,
        body
      })
    })))

const toParts = (completion: typeof ChatCompletion.Type): Array<Response.PartEncoded> => {
  const [choice] = completion.choices
  const text = choice.message.content ?? ""
  return [
    ...(text.length > 0 ? [{ type: "text" as const, text }] : []),
    {
      type: "finish",
      reason: finishReasons[choice.finish_reason ?? ""] ?? "unknown",
      usage: {
        inputTokens: { total: completion.usage?.prompt_tokens },
        outputTokens: { total: completion.usage?.completion_tokens }
      }
    }
  ]
}

/** The whole answer as one text chunk: the API is asked for no stream. */
const toStreamParts = (parts: ReadonlyArray<Response.PartEncoded>): Array<Response.StreamPartEncoded> =>
  parts.flatMap((part): Array<Response.StreamPartEncoded> => {
    switch (part.type) {
      case "text":
        return [
          { type: "text-start", id: "0" },
          { type: "text-delta", id: "0", delta: part.text },
          { type: "text-end", id: "0" }
        ]
      case "finish":
        return [part]
      default:
        return []
    }
  })

/** The language model at `options.url`; needs an `HttpClient`. */
export const make = Effect.fnUntraced(function*(options: OpenAiCompatibleOptions) {
  const client = yield* HttpClient.HttpClient
  const endpoint = `${options.url.replace(/\/+$/, "")}/chat/completions`
  const timeout = Duration.fromInputUnsafe(options.timeout)
  const authorize = Option.match(options.key, {
    onNone: () => identity<HttpClientRequest.HttpClientRequest>,
    onSome: (key) => HttpClientRequest.bearerToken(key)
  })

  const generate = Effect.fn("OpenAiCompatible.generateText")(function*(provider: LanguageModel.ProviderOptions) {
    if (provider.tools.length > 0) return yield* failWith(unsupported("tools"))
    const messages = yield* Effect.forEach(provider.prompt.content, toChatMessage)
    const request = HttpClientRequest.post(endpoint).pipe(
      HttpClientRequest.acceptJson,
      HttpClientRequest.bodyJsonUnsafe({
        model: options.model,
        messages,
        response_format: yield* responseFormat(provider.responseFormat)
      }),
      authorize
    )
    const completion = yield* Effect.gen(function*() {
      const response = yield* client.execute(request)
      if (response.status < 200 || response.status >= 300) return yield* statusFailed(response)
      return yield* HttpClientResponse.schemaBodyJson(ChatCompletion)(response)
    }).pipe(
      Effect.catchTag("HttpClientError", requestFailed),
      Effect.catchTag("SchemaError", (error) => failWith(AiError.InvalidResponseError.fromSchemaError(error))),
      Effect.timeoutOrElse({
        duration: timeout,
        orElse: () =>
          failWith(
            new AiError.NetworkError({
              reason: "TransportError",
              method: "POST",
              url: endpoint,
              description: `no answer within ${Duration.format(timeout)}`
            })
          )
      })
    )
    return toParts(completion)
  })

  return yield* LanguageModel.make({
    generateText: generate,
    streamText: (provider) => Stream.unwrap(Effect.map(generate(provider), (parts) => Stream.fromIterable(toStreamParts(parts)))),
    codecTransformer: OpenAiStructuredOutput.toCodecOpenAI
  })
})

/** `make` as the application's `LanguageModel`. */
export const layer = (options: OpenAiCompatibleOptions): Layer.Layer<LanguageModel.LanguageModel, never, HttpClient.HttpClient> =>
  Layer.effect(LanguageModel.LanguageModel, make(options))
