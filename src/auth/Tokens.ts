/**
 * Credential values: API keys (`svc_` + 43 base64url characters, 256 random
 * bits), session tokens (`sess_` + the same) and an assistant's OAuth values
 * (`oat_` access tokens, `ort_` refresh tokens, `oac_` authorization codes).
 * Only SHA-256 hashes are stored.
 */
import { hash, randomBytes } from "node:crypto"
import { Effect } from "effect"

/** The API key prefix. */
export const keyPrefix = "svc_"
/** The session token prefix. */
export const sessionPrefix = "sess_"

const keyPattern = /^svc_[A-Za-z0-9_-]{43}$/

/** Whether a string has the shape of an API key value. */
export const isKeyValue = (value: string): boolean => keyPattern.test(value)

const randomToken = (prefix: string) => Effect.sync(() => prefix + randomBytes(32).toString("base64url"))

/** A new API key value. */
export const newKeyValue: Effect.Effect<string> = randomToken(keyPrefix)

/** A new session token. */
export const newSessionToken: Effect.Effect<string> = randomToken(sessionPrefix)

/** A new OAuth access token (an assistant's, for `/mcp`). */
export const newAccessToken: Effect.Effect<string> = randomToken("oat_")

/** A new OAuth refresh token. */
export const newRefreshToken: Effect.Effect<string> = randomToken("ort_")

/** A new OAuth authorization code. */
export const newAuthorizationCode: Effect.Effect<string> = randomToken("oac_")

/** The stored form of a credential: lowercase hex SHA-256 (one-shot: it runs on every request). */
export const hashCredential = (value: string): string => hash("sha256", value, "hex")

/** The display prefix kept with a key record: its first 12 characters. */
export const displayPrefix = (value: string): string => value.slice(0, 12)
