/**
 * Every error of the API says its envelope's words as its own: `message` is the envelope's
 * message (what a log, a stack trace or a caller of the typed client sees), `type` its type.
 */
import { assert, describe, it } from "@effect/vitest"
import { Predicate, Schema } from "effect"
import * as Errors from "../../src/api/Errors.ts"

describe("API errors", () => {
  it("each one's message and type are its envelope's, and the envelope it encodes to is only ok and error", () => {
    const classes = Object.values(Errors)
    assert.isAtLeast(classes.length, 15)
    for (const ErrorClass of classes) {
      const error = new ErrorClass({ error: { message: `words of ${ErrorClass.name}`, next: "what to do" } })
      assert.strictEqual(error.message, `words of ${ErrorClass.name}`, ErrorClass.name)
      assert.isTrue(Predicate.hasProperty(error, "type") && error.type === error.error.type, ErrorClass.name)
      assert.isTrue(error instanceof Error)
      const encoded = Schema.encodeSync(ErrorClass)(error)
      assert.deepStrictEqual(Object.keys(encoded).sort(), ["error", "ok"], ErrorClass.name)
    }
  })
})
