import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import * as Models from "../../src/domain/NetworkModels.ts"
import { catalogue, companyFor } from "../../src/sandbox/Companies.ts"
import { chatIdOf } from "../../src/sandbox/Ids.ts"
import { getConversation, listChats } from "../../src/sandbox/SandboxInbox.ts"
import { receivedInvitations } from "../../src/sandbox/Invites.ts"
import { memberFrom, personAt } from "../../src/sandbox/SandboxPeople.ts"
import { postAt, postsOfCompany, postsOfPerson } from "../../src/sandbox/Posts.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { searchCompanies, searchPeople } from "../../src/sandbox/Search.ts"
import { ssiOf } from "../../src/sandbox/Ssi.ts"
import { profileViewers } from "../../src/sandbox/Viewers.ts"

const now = Date.UTC(2026, 10, 21, 9, 30)

const decodes = <S extends Schema.ConstraintDecoder<unknown>>(schema: S, value: unknown) => {
  // Round-trip through JSON: the driver's answers travel as JSON.
  const decoded = Schema.decodeUnknownSync(schema)(JSON.parse(JSON.stringify(value)))
  assert.deepStrictEqual(decoded, JSON.parse(JSON.stringify(value)))
}

describe("models", () => {
  it("decode every generated person", () => {
    for (let i = 0; i < 500; i++) decodes(Models.Person, personAt(memberFrom(rng("models", i)), { account: "m", now }))
  })

  it("decode companies, search pages and posts", () => {
    for (const company of catalogue) decodes(Models.Company, company)
    decodes(Models.Company, companyFor({ _tag: "CompanySlug", slug: "acme-robotics" }))
    decodes(Models.Company, companyFor({ _tag: "CompanyId", id: "42" }))
    decodes(Models.PeopleSearchPage, Result.getOrThrow(searchPeople({ keywords: "marketing" }, "m", { limit: 50 })))
    decodes(Models.CompanySearchPage, Result.getOrThrow(searchCompanies({ keywords: "cloud" }, { limit: 50 })))
    for (let i = 0; i < 50; i++) {
      const page = Result.getOrThrow(postsOfPerson(memberFrom(rng("models-posts", i)), now, { limit: 20 }))
      decodes(Models.PostPage, page)
    }
    decodes(Models.PostPage, Result.getOrThrow(postsOfCompany(catalogue[0], now, {})))
    decodes(Models.Post, postAt({ id: "7528731723694092345", authorSlug: null }, now))
  })

  it("decode chats, conversations, viewers, invitations and SSI", () => {
    const chats = Result.getOrThrow(listChats("m", now, { limit: 100 }))
    decodes(Models.ChatPage, chats)
    for (const chat of chats.items) decodes(Models.Conversation, Result.getOrThrow(getConversation("m", chat.id, now)))
    decodes(
      Models.Conversation,
      Result.getOrThrow(getConversation("m", chatIdOf(memberFrom(rng("x")).providerId), now))
    )
    decodes(Models.ProfileViewerPage, Result.getOrThrow(profileViewers("m", now, { limit: 100 })))
    decodes(Models.ReceivedInvitationPage, Result.getOrThrow(receivedInvitations("m", now, { limit: 100 })))
    for (let i = 0; i < 100; i++) decodes(Models.Ssi, ssiOf(`m-${i}`, now + i * 86_400_000))
  })

  it("refuse values that break the model", () => {
    const person = personAt(memberFrom(rng("models", 1)), { account: "m", now })
    assert.throws(() => Schema.decodeUnknownSync(Models.Person)({ ...person, connectionDegree: 4 }))
    assert.throws(() => Schema.decodeUnknownSync(Models.Ssi)({ ...ssiOf("m", now), score: 101 }))
    assert.throws(() =>
      Schema.decodeUnknownSync(Models.Person)({ ...person, experience: [{ ...person.experience[0], startDate: "2021-13" }] })
    )
  })

  it("carry descriptions and examples that decode", () => {
    const topLevel = [
      Models.Person,
      Models.PersonSummary,
      Models.Company,
      Models.CompanySummary,
      Models.Post,
      Models.PeopleSearchPage,
      Models.CompanySearchPage,
      Models.PostPage,
      Models.Message,
      Models.Chat,
      Models.ChatPage,
      Models.Conversation,
      Models.ProfileViewer,
      Models.ProfileViewerPage,
      Models.ReceivedInvitation,
      Models.ReceivedInvitationPage,
      Models.Ssi
    ]
    for (const schema of topLevel) {
      const annotations = schema.ast.annotations ?? {}
      assert.isString(annotations.description)
      const examples = annotations.examples
      assert.isTrue(Array.isArray(examples) && examples.length > 0, String(annotations.identifier))
      if (Array.isArray(examples)) for (const example of examples) decodes(schema, example)
    }
  })
})
