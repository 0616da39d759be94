/**
 * Password hashing for people who sign in to the dashboard: `node:crypto`
 * scrypt, a memory-hard KDF. The parameters are stored with every hash, so
 * they can be raised later without invalidating older hashes.
 *
 * Parameters (docs/dashboard.md): N = 2^15, r = 8, p = 1 (32 MiB of memory
 * per hash), a 16-byte random salt, a 32-byte derived key. Stored form:
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Effect } from "effect"

/** The scrypt parameters new hashes use. */
export const passwordParameters = { N: 2 ** 15, r: 8, p: 1, saltBytes: 16, keyBytes: 32 }

/** The shortest and longest password accepted (longer inputs would only cost CPU). */
export const passwordLength = { min: 12, max: 256 }

const derive = (password: string, salt: Buffer, N: number, r: number, p: number, keyBytes: number) =>
  Effect.callback<Buffer, Error>((resume) => {
    // maxmem must exceed 128 * N * r bytes; twice that leaves room for the salt and key.
    scrypt(password, salt, keyBytes, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      resume(error === null ? Effect.succeed(key) : Effect.fail(error)))
  })

/** Hashes a password with fresh salt; the result is what is stored. */
export const hashPassword = Effect.fn("Password.hash")(function*(password: string) {
  const { N, r, p, saltBytes, keyBytes } = passwordParameters
  const salt = randomBytes(saltBytes)
  const key = yield* Effect.orDie(derive(password, salt, N, r, p, keyBytes))
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$")
})

const storedPattern = /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{8,})\$([A-Za-z0-9_-]{16,})$/

/**
 * Whether a password matches a stored hash, compared in constant time. A
 * malformed stored value (or parameters out of bounds) never matches.
 */
export const verifyPassword = Effect.fn("Password.verify")(function*(password: string, stored: string) {
  const match = storedPattern.exec(stored)
  if (match === null) return false
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return false
  const expected = Buffer.from(match[5], "base64url")
  const key = yield* derive(password, Buffer.from(match[4], "base64url"), N, r, p, expected.length).pipe(
    Effect.orElseSucceed(() => Buffer.alloc(0))
  )
  return key.length === expected.length && timingSafeEqual(key, expected)
})

/** Why a chosen password is refused, or undefined when it is acceptable. */
export const passwordProblem = (password: string): string | undefined =>
  password.length < passwordLength.min
    ? `A password needs at least ${passwordLength.min} characters.`
    : password.length > passwordLength.max
    ? `A password may have at most ${passwordLength.max} characters.`
    : undefined
