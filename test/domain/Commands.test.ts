import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  catalogue,
  categoryOfJob,
  commandNames,
  CommandNameSchema,
  commands,
  isCommandName,
  readCommands,
  writeCommands
} from "../../src/domain/Commands.ts"

type Decoder = Schema.ConstraintDecoder<unknown>

const examplesOf = (schema: Schema.Top): ReadonlyArray<unknown> => {
  const examples = Schema.resolveAnnotations(schema)?.examples
  return Array.isArray(examples) ? examples : []
}

// Every input and result is plain JSON (no transformations), so the schema decodes its JSON form as it is.
const decodes = (schema: Decoder, value: unknown): boolean =>
  Schema.decodeUnknownExit(schema)(JSON.parse(JSON.stringify(value)))._tag === "Success"

describe("the command catalogue", () => {
  it("lists the spec's 11 reads and 10 writes, each with its limit category", () => {
    assert.deepStrictEqual([...readCommands], [
      "get_profile",
      "get_company",
      "search_people",
      "search_companies",
      "get_posts",
      "get_post",
      "list_chats",
      "get_conversation",
      "list_invites",
      "profile_viewers",
      "ssi"
    ])
    assert.deepStrictEqual([...writeCommands], [
      "connect",
      "withdraw_invite",
      "send_message",
      "accept_invite",
      "decline_invite",
      "endorse",
      "save_lead",
      "react",
      "comment",
      "create_post"
    ])
    assert.deepStrictEqual([...CommandNameSchema.literals], [...commandNames])
    for (const entry of catalogue) {
      assert.strictEqual(commands[entry.name], entry)
      assert.strictEqual(categoryOfJob(entry.name, {}), entry.category)
      assert.isAbove(entry.description.length, 10)
    }
    assert.strictEqual(commands.connect.category, "invites")
    assert.strictEqual(commands.search_people.category, "search_rows")
    assert.strictEqual(commands.accept_invite.category, null)
    assert.isTrue(isCommandName("react"))
    assert.isFalse(isCommandName("toString"))
  })

  it("names the text each write sends: a field of its input, with the network's limit; reads send none", () => {
    const withText = catalogue.filter((entry) => entry.text !== null).map((entry) => entry.name)
    assert.deepStrictEqual(withText, ["connect", "send_message", "comment", "create_post"])
    for (const entry of catalogue) {
      if (entry.text === null) continue
      const field = entry.text.field
      // Every example input of a command that sends text carries it in that field, within the limit.
      const examples = examplesOf(entry.input).filter((example) => typeof example === "object" && example !== null && field in example)
      assert.isNotEmpty(examples, entry.name)
      assert.isAbove(entry.text.max, 0)
    }
    assert.isTrue(commands.connect.text?.optional)
    assert.isFalse(commands.create_post.text?.optional)
    assert.strictEqual(commands.send_message.inMailCategory, "inmails")
    assert.strictEqual(categoryOfJob("not_a_command", { inmail: true }), null)
  })

  it("documents every input and result with a description and examples that decode", () => {
    for (const entry of catalogue) {
      for (const schema of [entry.input, entry.result]) {
        const annotations = Schema.resolveAnnotations(schema)
        assert.isString(annotations?.description, `${entry.name} ${String(annotations?.identifier)}`)
        const examples = examplesOf(schema)
        assert.isAbove(examples.length, 0, `${entry.name}: no examples`)
        for (const example of examples) assert.isTrue(decodes(schema, example), `${entry.name}: ${JSON.stringify(example)}`)
      }
    }
  })

  it("bounds text to the network's lengths", () => {
    const person = "https://www.linkedin.com/in/maria-garcia-3a9f02c1b"
    const post = "urn:li:activity:7528731723694092345"
    const cases: ReadonlyArray<readonly [Decoder, (text: string) => unknown, number]> = [
      [commands.connect.input, (note) => ({ person, note }), 300],
      [commands.send_message.input, (text) => ({ person, text }), 8000],
      [commands.comment.input, (text) => ({ post, text }), 1250],
      [commands.create_post.input, (text) => ({ text }), 3000]
    ]
    for (const [schema, make, max] of cases) {
      assert.isTrue(decodes(schema, make("x".repeat(max))), `${max} fits`)
      assert.isFalse(decodes(schema, make("x".repeat(max + 1))), `${max + 1} is too long`)
    }
    assert.isFalse(decodes(commands.send_message.input, { person, text: "  \n " }), "blank message")
    assert.isTrue(decodes(commands.connect.input, { person }), "no note")
  })

  it("refuses inputs an integrator could get wrong", () => {
    const person = "maria-garcia-3a9f02c1b"
    const refused: ReadonlyArray<readonly [Decoder, unknown]> = [
      [commands.get_profile.input, {}],
      [commands.get_profile.input, { person: "" }],
      [commands.get_posts.input, {}],
      [commands.get_posts.input, { person, company: "acme" }],
      [commands.search_people.input, { limit: 0 }],
      [commands.search_people.input, { limit: 101 }],
      [commands.search_people.input, { connectionDegree: [4] }],
      [commands.list_chats.input, { limit: 2.5 }],
      [commands.send_message.input, { text: "hi" }],
      [commands.send_message.input, { person, chatId: "2-abc", text: "hi" }],
      [commands.withdraw_invite.input, {}],
      [commands.withdraw_invite.input, { invitationId: "x", person }],
      [commands.react.input, { post: "urn:li:activity:7528731723694092345", reaction: "angry" }],
      [commands.create_post.input, { text: "hello", visibility: "friends" }],
      [commands.endorse.input, { person }]
    ]
    for (const [schema, value] of refused) assert.isFalse(decodes(schema, value), JSON.stringify(value))
    assert.isTrue(decodes(commands.get_posts.input, { company: "acme", limit: 5 }))
  })
})
