import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeCount,
  recoveryCodeHash,
  totpCodeAt,
  totpStep,
  totpUri
} from "../../src/team/TwoFactor.ts"

// RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" in base32.
const rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

describe("TOTP two-factor codes", () => {
  it("matches the RFC 6238 test vectors (last six digits)", () => {
    assert.strictEqual(totpCodeAt(rfcSecret, 59_000), "287082")
    assert.strictEqual(totpCodeAt(rfcSecret, 1_111_111_109_000), "081804")
    assert.strictEqual(totpCodeAt(rfcSecret, 1_234_567_890_000), "005924")
  })

  it("accepts the current code and one step of drift around the time it is given", () => {
    const secret = Effect.runSync(newTotpSecret)
    const at = 1_700_000_010_000
    const step = Math.floor(at / 30_000)
    assert.strictEqual(totpStep(secret, totpCodeAt(secret, at), at), step)
    assert.strictEqual(totpStep(secret, totpCodeAt(secret, at - 30_000), at), step - 1)
    assert.strictEqual(totpStep(secret, totpCodeAt(secret, at + 30_000), at), step + 1)
    // Two steps away is refused.
    assert.isUndefined(totpStep(secret, totpCodeAt(secret, at - 60_000), at))
    // Spaces inside a typed code are ignored.
    const code = totpCodeAt(secret, at)
    assert.strictEqual(totpStep(secret, `${code.slice(0, 3)} ${code.slice(3)}`, at), step)
  })

  it.effect("refuses anything but six digits", () =>
    Effect.gen(function*() {
      const secret = yield* newTotpSecret
      for (const bad of ["", "12345", "1234567", "abcdef", "12345x", "<script>"]) {
        assert.isUndefined(totpStep(secret, bad, Date.now()), bad)
      }
    }))

  it.effect("the URI names the issuer and the person for the authenticator app", () =>
    Effect.gen(function*() {
      const secret = yield* newTotpSecret
      assert.match(secret, /^[A-Z2-7]{32}$/)
      const uri = totpUri(secret, "ada@acme.test")
      assert.match(uri, /^otpauth:\/\/totp\//)
      assert.include(uri, `secret=${secret}`)
      assert.include(uri, "issuer=Outreach%20Service")
      assert.include(uri, "ada%40acme.test")
    }))
})

describe("recovery codes", () => {
  it.effect("are distinct, readable, and hash the same however they are typed", () =>
    Effect.gen(function*() {
      const codes = yield* newRecoveryCodes
      assert.strictEqual(codes.length, recoveryCodeCount)
      assert.strictEqual(new Set(codes).size, recoveryCodeCount)
      for (const code of codes) assert.match(code, /^[a-z2-7]{5}-[a-z2-7]{5}$/)
      const first = codes[0]
      assert.strictEqual(recoveryCodeHash(first.toUpperCase().replace("-", " ")), recoveryCodeHash(first))
      assert.notStrictEqual(recoveryCodeHash(codes[1]), recoveryCodeHash(first))
    }))
})
