import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it, layer } from "@effect/vitest"
import { ConfigProvider, Context, type Duration, Effect, Exit, Fiber, Layer, Option, Redacted, Schema, Stream } from "effect"
import { LanguageModel } from "effect/ai"
import { FetchHttpClient } from "effect/http"
import { TestClock } from "effect/testing"
import * as App from "../../src/App.ts"
import { AppConfig } from "../../src/platform/AppConfig.ts"
import * as OpenAiCompatible from "../../src/triage/OpenAiCompatible.ts"
import { Triage } from "../../src/triage/Triage.ts"

/** One request the fake API received. */
interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** How the fake API answers: a status and a raw body, or never. */
type Answer = { readonly status: number; readonly body: string } | "hang"

const completion = (content: string) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 }
  })

const verdict = { class: "referral", suggestedReply: "Thanks, I'll write to Sam.", confidence: 0.8 }
const goodAnswer: Answer = { status: 200, body: completion(JSON.stringify(verdict)) }

/** A local OpenAI-compatible chat-completions server on a free port, closed with its scope. */
class FakeApi extends Context.Service<FakeApi, {
  readonly url: string
  readonly received: ReadonlyArray<Received>
  /** Forgets what was received and answers `answer` from now on. */
  readonly reset: (answer: Answer) => void
  /** Resolves when the next request has arrived. */
  readonly nextRequest: () => Promise<void>
  readonly close: () => void
}>()("test/FakeApi") {
  static readonly layer = Layer.effect(
    FakeApi,
    Effect.acquireRelease(
      Effect.callback<FakeApi["Service"]>((resume) => {
        const received: Array<Received> = []
        let answer: Answer = goodAnswer
        let waiting: Array<() => void> = []
        const server = createServer((req, res) => {
          const chunks: Array<Buffer> = []
          req.on("data", (chunk: Buffer) => chunks.push(chunk))
          req.on("end", () => {
            received.push({ path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") })
            for (const wake of waiting) wake()
            waiting = []
            if (answer === "hang") return
            res.writeHead(answer.status, { "content-type": "application/json" }).end(answer.body)
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const { port } = server.address() as AddressInfo
          resume(Effect.succeed(FakeApi.of({
            url: `http://127.0.0.1:${port}/v1`,
            received,
            reset: (next) => {
              received.length = 0
              answer = next
            },
            nextRequest: () => new Promise((wake) => waiting.push(wake)),
            close: () => {
              server.closeAllConnections()
              server.close()
            }
          })))
        })
      }),
      (api) => Effect.sync(api.close)
    )
  )
}

const modelAt = (url: string, options: { readonly timeout?: Duration.Input; readonly key?: string } = {}) =>
  OpenAiCompatible.layer({
    url,
    key: Option.map(Option.fromUndefinedOr(options.key), Redacted.make),
    model: "triage-small",
    timeout: options.timeout ?? "30 seconds"
  }).pipe(Layer.provide(FetchHttpClient.layer))

/** Triage by the fake API's model (keyed), built once: fitting the fallback classifier takes seconds. */
const triageByFakeApi = Layer.unwrap(Effect.gen(function*() {
  const api = yield* FakeApi
  return Triage.layerLanguageModel({ timeout: "5 seconds" }).pipe(Layer.provide(modelAt(api.url, { key: "sk-test" })))
})).pipe(Layer.provideMerge(FakeApi.layer))

const classify = (text: string) =>
  Effect.gen(function*() {
    return yield* (yield* Triage).classify(text)
  })

/** The provider's own error for one structured request. */
const providerError = (url: string, options: { readonly timeout?: Duration.Input } = {}) =>
  LanguageModel.generateObject({
    objectName: "verdict",
    schema: Schema.Struct({ class: Schema.String }),
    prompt: "Classify: hello"
  }).pipe(Effect.flip, Effect.provide(modelAt(url, options)))

const RequestBody = Schema.fromJsonString(Schema.Struct({
  model: Schema.String,
  messages: Schema.Array(Schema.Struct({ role: Schema.String, content: Schema.String })),
  response_format: Schema.optional(Schema.Struct({
    type: Schema.Literal("json_schema"),
    json_schema: Schema.Struct({
      name: Schema.String,
      strict: Schema.Boolean,
      schema: Schema.Struct({ properties: Schema.Record(Schema.String, Schema.Unknown) })
    })
  }))
}))
const requestBody = (received: Received | undefined) => Schema.decodeUnknownSync(RequestBody)(received?.body)

const autoReply = "I am out of the office until Monday 3 March with limited access to email."
const referral = "You should talk to Sam, she runs procurement."

layer(triageByFakeApi)("triage by an OpenAI-compatible API", (it) => {
  it.effect("sends the key, the model and the prompt with a JSON schema, and takes the model's answer", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.reset(goodAnswer)
      const result = yield* classify(referral)
      assert.deepStrictEqual(result, verdict)

      assert.strictEqual(api.received.length, 1)
      const [request] = api.received
      assert.strictEqual(request.path, "/v1/chat/completions")
      assert.strictEqual(request.headers.authorization, "Bearer sk-test")
      const body = requestBody(request)
      assert.strictEqual(body.model, "triage-small")
      assert.isTrue(body.messages.some((message) => message.role === "user" && message.content.includes(referral)))
      assert.strictEqual(body.response_format?.json_schema.name, "triage")
      assert.deepStrictEqual(Object.keys(body.response_format?.json_schema.schema.properties ?? {}).sort(), [
        "class",
        "confidence",
        "suggestedReply"
      ])
    }))

  it.effect("a 500, a body that is not a chat completion, or an answer outside the classes: the embedded classifier answers", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      const answers: ReadonlyArray<Answer> = [
        { status: 500, body: `{"error":{"message":"overloaded"}}` },
        { status: 200, body: "<html>not json</html>" },
        { status: 200, body: `{"choices":[]}` },
        { status: 200, body: completion(JSON.stringify({ ...verdict, class: "spam" })) }
      ]
      for (const answer of answers) {
        api.reset(answer)
        const result = yield* classify(autoReply)
        assert.strictEqual(result.class, "out_of_office", JSON.stringify(answer))
        assert.strictEqual(api.received.length, 1, "the model was asked")
      }
    }))

  it.effect("a slow answer: the embedded classifier answers after the triage timeout", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.reset("hang")
      const arrived = api.nextRequest()
      const fiber = yield* Effect.forkChild(classify(autoReply))
      yield* Effect.promise(() => arrived)
      yield* TestClock.adjust("6 seconds")
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.class, "out_of_office")
    }))

  it.effect("sends no Authorization header without a key", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.reset(goodAnswer)
      yield* LanguageModel.generateText({ prompt: "hello" }).pipe(Effect.provide(modelAt(api.url)))
      assert.strictEqual(api.received.length, 1)
      assert.isUndefined(api.received[0].headers.authorization)
      assert.isUndefined(requestBody(api.received[0]).response_format, "plain text asks for no JSON")
    }))

  it.effect("maps failures to effect/ai errors: status, malformed body, no answer in time", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      const reasonFor = Effect.fnUntraced(function*(answer: Answer) {
        api.reset(answer)
        return (yield* providerError(api.url)).reason._tag
      })
      assert.strictEqual(yield* reasonFor({ status: 500, body: "boom" }), "InternalProviderError")
      assert.strictEqual(yield* reasonFor({ status: 401, body: `{"error":{"message":"bad key"}}` }), "AuthenticationError")
      assert.strictEqual(yield* reasonFor({ status: 429, body: "slow down" }), "RateLimitError")
      assert.strictEqual(yield* reasonFor({ status: 200, body: "not json" }), "InvalidResponseError")
      assert.strictEqual(yield* reasonFor({ status: 200, body: `{"choices":[{"text":"legacy"}]}` }), "InvalidResponseError")
      assert.strictEqual(yield* reasonFor({ status: 200, body: completion("not an object") }), "StructuredOutputError")

      api.reset("hang")
      const arrived = api.nextRequest()
      const fiber = yield* Effect.forkChild(providerError(api.url, { timeout: "2 seconds" }))
      yield* Effect.promise(() => arrived)
      yield* TestClock.adjust("3 seconds")
      const timedOut = yield* Fiber.join(fiber)
      assert.strictEqual(timedOut.reason._tag, "NetworkError")
      assert.include(timedOut.message, "no answer within 2s")
    }))

  it.effect("refuses what it cannot send (files, tool results) without asking the API", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.reset(goodAnswer)
      const error = yield* LanguageModel.generateText({
        prompt: [{ role: "user", content: [{ type: "file", mediaType: "text/plain", data: "aGVsbG8=" }] }]
      }).pipe(Effect.flip, Effect.provide(modelAt(api.url)))
      assert.strictEqual(error.reason._tag, "InvalidUserInputError")
      assert.strictEqual(api.received.length, 0)
    }))

  it.effect("streams the whole answer as one text chunk", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.reset({ status: 200, body: completion("Hello there") })
      const parts = yield* LanguageModel.streamText({ prompt: "Say hello" }).pipe(
        Stream.runCollect,
        Effect.provide(modelAt(api.url))
      )
      const text = parts.flatMap((part) => part.type === "text-delta" ? [part.delta] : []).join("")
      assert.strictEqual(text, "Hello there")
      assert.isTrue(parts.some((part) => part.type === "finish" && part.reason === "stop"))
    }))
})

describe("the provider without a server", () => {
  it.effect("a closed port is a NetworkError", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.close()
      const error = yield* providerError(api.url)
      assert.strictEqual(error.reason._tag, "NetworkError")
    }).pipe(Effect.provide(FakeApi.layer)))
})

describe("triage chosen by configuration", () => {
  const classifyConfigured = (env: Record<string, string>) =>
    classify(autoReply).pipe(
      Effect.provide(
        App.triage.pipe(Layer.provide(AppConfig.layer), Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))
      )
    )

  it.effect("TRIAGE_MODEL_URL and friends: replies are triaged by that model", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      const result = yield* classifyConfigured({
        TRIAGE_MODEL_URL: api.url,
        TRIAGE_MODEL_KEY: "sk-config",
        TRIAGE_MODEL: "gpt-test",
        TRIAGE_TIMEOUT: "3 seconds"
      })
      // The embedded classifier would say out_of_office: the fake model's referral shows it answered.
      assert.deepStrictEqual(result, verdict)
      assert.strictEqual(api.received[0]?.headers.authorization, "Bearer sk-config")
      assert.strictEqual(requestBody(api.received[0]).model, "gpt-test")
    }).pipe(Effect.provide(FakeApi.layer)))

  it.effect("TRIAGE_TIMEOUT bounds the wait for the model", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      api.reset("hang")
      const arrived = api.nextRequest()
      const fiber = yield* Effect.forkChild(
        classifyConfigured({ TRIAGE_MODEL_URL: api.url, TRIAGE_MODEL: "gpt-test", TRIAGE_TIMEOUT: "3 seconds" })
      )
      yield* Effect.promise(() => arrived)
      yield* TestClock.adjust("3 seconds")
      assert.strictEqual((yield* Fiber.join(fiber)).class, "out_of_office")
    }).pipe(Effect.provide(FakeApi.layer)))

  it.effect("without TRIAGE_MODEL_URL the embedded classifier answers and no model is asked", () =>
    Effect.gen(function*() {
      const api = yield* FakeApi
      const result = yield* classifyConfigured({ TRIAGE_MODEL_KEY: "sk-config", TRIAGE_MODEL: "gpt-test" })
      assert.strictEqual(result.class, "out_of_office")
      assert.strictEqual(api.received.length, 0)
    }).pipe(Effect.provide(FakeApi.layer)))

  it.effect("TRIAGE_MODEL_URL without TRIAGE_MODEL, or not a URL, stops the start", () =>
    Effect.gen(function*() {
      const noModel = yield* Effect.exit(classifyConfigured({ TRIAGE_MODEL_URL: "http://127.0.0.1:1/v1" }))
      assert.isTrue(Exit.isFailure(noModel))
      const notUrl = yield* Effect.exit(classifyConfigured({ TRIAGE_MODEL_URL: "not a url", TRIAGE_MODEL: "m" }))
      assert.isTrue(Exit.isFailure(notUrl))
    }))
})
