import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import * as Cues from "../../src/triage/Cues.ts"
import { evaluationIn } from "../../src/triage/EvaluationSet.ts"
import { rng } from "../../src/sandbox/Random.ts"
import { replyTextIn } from "../../src/sandbox/ReplyTexts.ts"
import { Triage, triageClasses, TriageResult } from "../../src/triage/Triage.ts"

const isTriageResult = Schema.is(TriageResult)

layer(Triage.layerEmbedded)("Triage.classify", (it) => {
  it.effect("an auto-reply is out_of_office and the suggestion carries the return date", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify(
        "Automatic reply: Thank you for your message. I am out of the office until Tuesday 8 July and will have no access to email. For urgent requests contact desk@orrery.io."
      )
      assert.strictEqual(result.class, "out_of_office")
      assert.include(result.suggestedReply, "Tuesday 8 July")
      assert.isTrue(isTriageResult(result))
    }))

  it.effect("an informal away note still finds the date people come back", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify("Hi! I'm off until the 23rd, will get back to you after that.")
      assert.strictEqual(result.class, "out_of_office")
      assert.include(result.suggestedReply, "the 23rd")
    }))

  it.effect("a referral names the colleague in the suggestion", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify(
        "Thanks Mark, but this isn't my area. Please reach out to my colleague Henrik Aalto, he looks after our tooling budget."
      )
      assert.strictEqual(result.class, "referral")
      assert.include(result.suggestedReply, "Henrik Aalto")
      assert.include(result.suggestedReply, "reach out to Henrik")
    }))

  it.effect("an out-of-office that names a stand-in is still out_of_office", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify(
        "I'm out of the office until 2 June. In my absence please contact my colleague Marta Nowak."
      )
      assert.strictEqual(result.class, "out_of_office")
      assert.include(result.suggestedReply, "2 June")
    }))

  it.effect("a concrete time is a meeting and the suggestion confirms that slot", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify("Sure, let's talk. Wednesday at 3:30pm works, send me a link.")
      assert.strictEqual(result.class, "meeting")
      assert.include(result.suggestedReply, "Wednesday at 3:30pm")
    }))

  it.effect("a timing answer suggests checking back when they said", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify(
        "Not a priority for us at the moment, we're busy with a platform migration. Try me again in Q4."
      )
      assert.strictEqual(result.class, "not_now")
      assert.include(result.suggestedReply, "in Q4")
    }))

  it.effect("a clear no gets a polite close, not another pitch", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const result = yield* triage.classify("Not interested, please take me off your list.")
      assert.strictEqual(result.class, "not_interested")
      assert.include(result.suggestedReply, "won't follow up")
    }))

  it.effect("empty or whitespace-only text is other with full confidence", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      for (const text of ["", "   ", "\n\t  \n"]) {
        const result = yield* triage.classify(text)
        assert.strictEqual(result.class, "other")
        assert.strictEqual(result.confidence, 1)
        assert.isTrue(result.suggestedReply.length > 0)
      }
    }))

  it.effect("is deterministic: the same text twice, and a second loaded layer, give identical results", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const texts = (yield* evaluationIn("heldOut")).map((r) => r.text)
      const first = yield* Effect.forEach(texts, (t) => triage.classify(t))
      const second = yield* Effect.forEach(texts, (t) => triage.classify(t))
      const rebuilt = yield* Effect.gen(function*() {
        const refitted = yield* Triage
        assert.notStrictEqual(refitted, triage)
        return yield* Effect.forEach(texts, (t) => refitted.classify(t))
      }).pipe(Effect.provide(Layer.fresh(Triage.layerEmbedded)))
      assert.deepStrictEqual(second, first)
      assert.deepStrictEqual(rebuilt, first)
    }))

  it.effect("reads the sandbox's replies, plain and informal, as the sandbox meant them", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      for (const style of ["plain", "informal"] as const) {
        let agreed = 0
        let total = 0
        for (const triageClass of triageClasses) {
          for (let i = 0; i < 40; i++) {
            const text = replyTextIn(style, triageClass, rng("sandbox-triage", style, triageClass, i), {
              firstName: "Ana",
              writtenAt: Date.UTC(2026, 10, 20)
            })
            if ((yield* triage.classify(text)).class === triageClass) agreed++
            total++
          }
        }
        assert.isAtLeast(agreed / total, 0.9, style)
      }
    }))

  it.effect("classifies a reply well under a millisecond", () =>
    Effect.gen(function*() {
      const triage = yield* Triage
      const texts = (yield* evaluationIn("heldOut")).map((r) => r.text)
      yield* Effect.forEach(texts, (t) => triage.classify(t))
      const rounds = 5
      const started = performance.now()
      for (let round = 0; round < rounds; round++) yield* Effect.forEach(texts, (t) => triage.classify(t))
      const perReplyMs = (performance.now() - started) / (rounds * texts.length)
      console.log(`classify: ${(perReplyMs * 1000).toFixed(1)} µs per reply`)
      assert.isBelow(perReplyMs, 0.5)
    }))
})

describe("detail extraction", () => {
  it("finds return dates in the usual shapes", () => {
    assert.strictEqual(Cues.returnDate("I will be back on Monday, March 17th."), "Monday, March 17th")
    assert.strictEqual(Cues.returnDate("On holiday until 12.08. with no access"), "12.08")
    assert.strictEqual(Cues.returnDate("Away from 1 to 14 July, returning on the 15th of July"), "the 15th of July")
    assert.strictEqual(Cues.returnDate("OOO until Jan 8, back soon"), "Jan 8")
    assert.isUndefined(Cues.returnDate("Out of office, limited access to email."))
  })

  it("finds the referred colleague but not names in greetings or scheduling", () => {
    assert.strictEqual(Cues.referredName("You'd want to talk to Aiko Mori for this."), "Aiko Mori")
    assert.strictEqual(Cues.referredName("Our head of data, Ravi Kumar, handles it. I've cc'd Ravi Kumar."), "Ravi Kumar")
    assert.strictEqual(Cues.referredName("This sits with procurement. Decisions go through our CFO, Elena Petrova."), "Elena Petrova")
    assert.isUndefined(Cues.referredName("Hi Jonas, thanks, talk to you on Monday!"))
    assert.isFalse(Cues.isReferral("Sure. My assistant Kim handles my calendar, she'll send an invite."))
  })

  it("recognises meeting proposals only with a concrete time or booking link", () => {
    assert.isTrue(Cues.isMeetingProposal("Call me at 2 tomorrow"))
    assert.isTrue(Cues.isMeetingProposal("Here you go: calendly.com/sam-lee/intro"))
    assert.isFalse(Cues.isMeetingProposal("We're a team of 40 and budget is at 30% of last year"))
    assert.isFalse(Cues.isMeetingProposal("Let's revisit after our board meeting on the 20th"))
  })

  it("reads a request for times as a meeting and 'not checking messages' as an away note", () => {
    assert.isTrue(Cues.isMeetingProposal("Happy to talk. What's your availability later this week?"))
    assert.isTrue(Cues.isMeetingProposal("Sure, send me a few times and I'll pick one."))
    assert.isFalse(Cues.isMeetingProposal("Send me a few case studies first."))
    assert.isTrue(Cues.isAutoReply("Travelling with the family and not checking email, back soon."))
    assert.isFalse(Cues.isAutoReply("Still checking messages, just slow to answer."))
  })

  it("greets the sender by the name in their sign-off", () => {
    assert.strictEqual(Cues.signedName("Send me pricing please.\n\nCheers,\nAnna"), "Anna")
    assert.strictEqual(Cues.signedName("Sounds good. Best regards, Tomasz"), "Tomasz")
    assert.isUndefined(Cues.signedName("Thanks for the note, I will pass."))
  })

  it("phrases when to check back", () => {
    assert.strictEqual(Cues.followUpWhen("budgets are locked until January"), "in January")
    assert.strictEqual(Cues.followUpWhen("can't take on anything new until after summer"), "after summer")
    assert.strictEqual(Cues.followUpWhen("Let's reconnect next year."), "next year")
    assert.isUndefined(Cues.followUpWhen("maybe later"))
  })
})
