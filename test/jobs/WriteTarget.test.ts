/**
 * What an approval shows of a write and how an edited text replaces it, read from each command's catalogue entry.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { MESSAGE_MAX, NOTE_MAX } from "../../src/domain/CommandInputs.ts"
import { commandNames, commands } from "../../src/domain/Commands.ts"
import { hasText, targetOf, textLimitOf, textOf, textOptional, withText } from "../../src/jobs/WriteTarget.ts"

describe("a write's text", () => {
  it("is read from and replaced in the field its command names, within its limit", () => {
    const invite = { person: "https://www.linkedin.com/in/ada", note: "Hello Ada" }
    assert.strictEqual(textOf("connect", invite), "Hello Ada")
    assert.strictEqual(textLimitOf("connect"), NOTE_MAX)
    assert.isTrue(textOptional("connect"))
    const edited = withText("connect", invite, "Hi Ada")
    assert.deepStrictEqual(edited, { person: "https://www.linkedin.com/in/ada", note: "Hi Ada" })
    assert.isTrue(Schema.is(commands.connect.input)(edited))
    const message = { chatId: "chat-1", text: "See you" }
    assert.strictEqual(textOf("send_message", message), "See you")
    assert.strictEqual(textLimitOf("send_message"), MESSAGE_MAX)
    assert.isFalse(textOptional("send_message"))
    assert.strictEqual(targetOf(message), "chat-1")
  })

  it("is absent for a command that sends none, and for a name the catalogue does not know", () => {
    for (const kind of [...commandNames, "not_a_command"]) {
      // One rule: a command with no text has nothing to replace.
      assert.strictEqual(withText(kind, {}, "x") === undefined, !hasText(kind), kind)
    }
    for (const kind of ["react", "accept_invite", "ssi", "not_a_command"]) {
      assert.isFalse(hasText(kind))
      assert.isNull(textOf(kind, { text: "not sent" }))
      assert.isUndefined(textLimitOf(kind))
      assert.isFalse(textOptional(kind))
    }
  })
})
