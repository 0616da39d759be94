import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import {
  hashPassword,
  passwordLength,
  passwordParameters,
  passwordProblem,
  verifyPassword
} from "../../src/team/Password.ts"

describe("password hashing (scrypt)", () => {
  it.effect("stores the parameters with the hash and verifies the right password only", () =>
    Effect.gen(function*() {
      const stored = yield* hashPassword("correct horse battery")
      const parts = stored.split("$")
      assert.deepStrictEqual(parts.slice(0, 4), ["scrypt", "32768", "8", "1"])
      assert.strictEqual(Buffer.from(parts[4], "base64url").length, passwordParameters.saltBytes)
      assert.strictEqual(Buffer.from(parts[5], "base64url").length, passwordParameters.keyBytes)
      assert.isTrue(yield* verifyPassword("correct horse battery", stored))
      assert.isFalse(yield* verifyPassword("correct horse batterY", stored))
      assert.isFalse(yield* verifyPassword("", stored))
    }))

  it.effect("salts every hash: the same password hashes differently", () =>
    Effect.gen(function*() {
      const a = yield* hashPassword("the same password")
      const b = yield* hashPassword("the same password")
      assert.notStrictEqual(a, b)
      assert.isTrue(yield* verifyPassword("the same password", b))
    }))

  it.effect("verifies hashes made with other parameters (they can be raised later)", () =>
    Effect.gen(function*() {
      const stored = yield* hashPassword("older parameters")
      // Re-derive with N = 2^14 by hand through the stored form: a lower-cost hash still verifies.
      const [, , , , salt] = stored.split("$")
      const { scryptSync } = yield* Effect.promise(() => import("node:crypto"))
      const key = scryptSync("older parameters", Buffer.from(salt, "base64url"), 32, { N: 2 ** 14, r: 8, p: 1 })
      const older = ["scrypt", 2 ** 14, 8, 1, salt, key.toString("base64url")].join("$")
      assert.isTrue(yield* verifyPassword("older parameters", older))
      assert.isFalse(yield* verifyPassword("other", older))
    }))

  it.effect("a malformed or hostile stored value never matches and never throws", () =>
    Effect.gen(function*() {
      const stored = yield* hashPassword("a fine password")
      const [, , , , salt, key] = stored.split("$")
      for (
        const bad of [
          "",
          "plain",
          `bcrypt$32768$8$1$${salt}$${key}`,
          `scrypt$30000$8$1$${salt}$${key}`, // N not a power of two
          `scrypt$1048576$64$1$${salt}$${key}`, // r too large
          `scrypt$32768$8$1$${salt}$`,
          `scrypt$32768$8$1$${salt}$${key}!`
        ]
      ) {
        assert.isFalse(yield* verifyPassword("a fine password", bad), bad)
      }
    }))

  it("explains why a chosen password is refused", () => {
    assert.include(passwordProblem("short") ?? "", `at least ${passwordLength.min}`)
    assert.include(passwordProblem("x".repeat(passwordLength.max + 1)) ?? "", `at most ${passwordLength.max}`)
    assert.isUndefined(passwordProblem("twelve chars"))
  })
})
