/**
 * Hands the request gate's work to the API's authentication middleware, so a
 * credential is resolved once per request.
 */
import { Context } from "effect"
import type { Principal } from "../domain/Principal.ts"

/** What the gate found for this request; `resolved: false` when no gate ran (embedded use). */
export interface Admitted {
  readonly resolved: boolean
  readonly principal: Principal | undefined
  /**
   * Where the credential came from: an `Authorization` header, or the dashboard's session
   * cookie (ambient: a change made with it needs the CSRF token too).
   */
  readonly via?: "bearer" | "cookie" | undefined
}

export const Admitted = Context.Reference<Admitted>("outreach/http/Admitted", {
  defaultValue: () => ({ resolved: false, principal: undefined })
})
