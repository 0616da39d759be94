/**
 * A stand-in for the API's authentication: every request is the same API key's, of
 * {@link callerWorkspaceId} (or the same principal's, {@link callerIs}). For tests of handlers and
 * the contract without the credentials' tables; the real gate has tests of its own.
 */
import { Effect, Layer } from "effect"
import { Authentication } from "../../src/api/Security.ts"
import type { AccessRole } from "../../src/domain/Permissions.ts"
import { CurrentPrincipal, type Principal } from "../../src/domain/Principal.ts"

/** The workspace every request is made in. */
export const callerWorkspaceId = "5e0a1c3d-2b4f-4a6e-8c9d-0f1e2d3c4b5a"

/** The key every request is made with. */
export const callerKeyId = "1d2c3b4a-5e6f-4789-8abc-def012345678"

/** Every request is `principal`'s (a signed-in person's, say, whose workspace a test made). */
export const callerIs = (principal: Principal) =>
  Layer.succeed(
    Authentication,
    Authentication.of({ bearer: (httpEffect) => Effect.provideService(httpEffect, CurrentPrincipal, principal) })
  )

/** Every request is the key {@link callerKeyId}'s, with `role`. */
export const callerAs = (role: AccessRole) =>
  callerIs({ kind: "key", workspaceId: callerWorkspaceId, keyId: callerKeyId, keyName: "test", role })

/** Every request is an owner key's. */
export const AnyCaller = callerAs("owner")
