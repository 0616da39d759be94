import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Stream } from "effect"
import { LanguageModel } from "effect/ai"
import { TestClock } from "effect/testing"
import { Triage } from "../../src/triage/Triage.ts"

/** A language model that answers every request with `answer` (or never, or fails). */
const fakeModel = (answer: Effect.Effect<string>) =>
  Layer.effect(
    LanguageModel.LanguageModel,
    LanguageModel.make({
      generateText: () => Effect.map(answer, (text) => [{ type: "text" as const, text }]),
      streamText: () => Stream.empty
    })
  )

const classify = (model: Layer.Layer<LanguageModel.LanguageModel>, text: string) =>
  Effect.gen(function*() {
    return yield* (yield* Triage).classify(text)
  }).pipe(Effect.provide(Triage.layerLanguageModel({ timeout: "5 seconds" }).pipe(Layer.provide(model))))

const autoReply = "I am out of the office until Monday 3 March with limited access to email."

describe("triage by a language model", () => {
  it.effect("takes the model's class, suggested answer and confidence", () =>
    Effect.gen(function*() {
      const result = yield* classify(
        fakeModel(Effect.succeed(JSON.stringify({ class: "referral", suggestedReply: "Thanks, I'll write to Sam.", confidence: 0.8 }))),
        "You should talk to Sam, she runs procurement."
      )
      assert.deepStrictEqual(result, { class: "referral", suggestedReply: "Thanks, I'll write to Sam.", confidence: 0.8 })
    }))

  it.effect("falls back to the embedded classifier when the model fails or answers outside the classes", () =>
    Effect.gen(function*() {
      const failing = yield* classify(fakeModel(Effect.die(new Error("provider down"))), autoReply)
      assert.strictEqual(failing.class, "out_of_office")
      const offList = yield* classify(
        fakeModel(Effect.succeed(JSON.stringify({ class: "spam", suggestedReply: "-", confidence: 1 }))),
        autoReply
      )
      assert.strictEqual(offList.class, "out_of_office")
    }))

  it.effect("falls back when the model takes longer than the timeout", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.forkChild(classify(fakeModel(Effect.never), autoReply))
      yield* TestClock.adjust("6 seconds")
      const result = yield* Fiber.join(fiber)
      assert.strictEqual(result.class, "out_of_office")
    }))
})
