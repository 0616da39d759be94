/**
 * Two-factor codes for people: TOTP (RFC 6238: SHA-1, 6 digits, 30-second
 * steps, one step of drift either way) through the `otpauth` package, and
 * one-time recovery codes. Time comes from Effect's Clock; a code is matched
 * to its time step so the caller can refuse a step used before (replay).
 */
import { randomBytes } from "node:crypto"
import { Effect } from "effect"
import { Secret, TOTP } from "otpauth"
import { hashCredential } from "../auth/Tokens.ts"

/** The issuer shown in authenticator apps. */
export const issuer = "Outreach Service"

/** How many recovery codes a person gets when two-factor is set up. */
export const recoveryCodeCount = 10

const totpFor = (secretBase32: string, label: string) =>
  new TOTP({ issuer, label, secret: Secret.fromBase32(secretBase32), algorithm: "SHA1", digits: 6, period: 30 })

/** A fresh TOTP secret (160 random bits, base32 as authenticator apps expect). */
export const newTotpSecret: Effect.Effect<string> = Effect.sync(() => new Secret({ size: 20 }).base32)

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export const totpUri = (secretBase32: string, email: string): string => totpFor(secretBase32, email).toString()

/**
 * The time step a 6-digit code belongs to, within one step of `timestamp` (real time: the person's
 * authenticator app knows no other), or undefined when the code is wrong. Anything but six digits is wrong.
 */
export const totpStep = (secretBase32: string, code: string, timestamp: number): number | undefined => {
  const token = code.replace(/\s/g, "")
  if (!/^\d{6}$/.test(token)) return undefined
  const totp = totpFor(secretBase32, "")
  const delta = totp.validate({ token, timestamp, window: 1 })
  return delta === null ? undefined : totp.counter({ timestamp }) + delta
}

/** The code for a given time (for tests and for showing a set-up check). */
export const totpCodeAt = (secretBase32: string, timestamp: number): string =>
  totpFor(secretBase32, "").generate({ timestamp })

/** New recovery codes, `xxxxx-xxxxx` of base32 letters (50 random bits each): shown once. */
export const newRecoveryCodes: Effect.Effect<ReadonlyArray<string>> = Effect.sync(() =>
  Array.from({ length: recoveryCodeCount }, () => {
    const letters = new Secret({ buffer: randomBytes(7).buffer }).base32.toLowerCase().slice(0, 10)
    return `${letters.slice(0, 5)}-${letters.slice(5)}`
  })
)

/** The stored form of a recovery code: SHA-256 of its normalised text (case, spaces and dashes ignored). */
export const recoveryCodeHash = (code: string): string => hashCredential(code.toLowerCase().replace(/[\s-]/g, ""))
