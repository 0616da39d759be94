/**
 * Why the dashboard refuses a person's request. Each carries a message
 * written for the person; the pages show it as it is.
 */
import { Data } from "effect"

/** Wrong email, password or code; `attemptsLeft` before the email is locked. */
export class SignInRefused extends Data.TaggedError("SignInRefused")<{
  readonly message: string
}> {}

/** Too many wrong attempts: the email is locked until `until` (ISO 8601). */
export class LockedOut extends Data.TaggedError("LockedOut")<{
  readonly until: string
}> {
  override get message() {
    return `Too many wrong attempts: signing in with this email is locked until ${this.until.slice(11, 16)} UTC.`
  }
}

/** The two-factor step of a sign-in is unknown or took too long. */
export class ChallengeExpired extends Data.TaggedError("ChallengeExpired")<{}> {
  override get message() {
    return "This sign-in took too long or was already used. Start again with your email and password."
  }
}

/** A team rule forbids the change (the last owner, a role the actor may not give, an email already in use). */
export class TeamRefused extends Data.TaggedError("TeamRefused")<{
  readonly message: string
}> {}

/** The invitation link cannot be used. */
export class InvitationUnusable extends Data.TaggedError("InvitationUnusable")<{
  readonly reason: "unknown" | "expired" | "used" | "revoked"
}> {
  override get message() {
    switch (this.reason) {
      case "expired":
        return "This invitation has expired. Ask the person who invited you for a new link."
      case "used":
        return "This invitation was already used. Sign in with the email and password you chose."
      case "revoked":
        return "This invitation was withdrawn. Ask the person who invited you for a new link."
      default:
        return "This invitation link is not valid. Check that you copied the whole link."
    }
  }
}

/** The password reset link cannot be used. */
export class ResetUnusable extends Data.TaggedError("ResetUnusable")<{
  readonly reason: "unknown" | "expired" | "used"
}> {
  override get message() {
    switch (this.reason) {
      case "expired":
        return "This password reset link has expired. Ask the owner who made it for a new one."
      case "used":
        return "This password reset link was already used (or a newer one was made). Sign in with your new password, or ask an owner for a new link."
      default:
        return "This password reset link is not valid. Check that you copied the whole link."
    }
  }
}

/** A two-factor setting could not be changed (a wrong code, nothing being set up). */
export class TwoFactorRefused extends Data.TaggedError("TwoFactorRefused")<{
  readonly message: string
}> {}

/** A chosen password or name is not acceptable. */
export class InputRefused extends Data.TaggedError("InputRefused")<{
  readonly message: string
}> {}
