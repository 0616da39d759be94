/**
 * The people's side of the service wired together: sign-in with its lockout
 * and sessions, two-factor settings, password reset links, and the team with its mail sender (the
 * logging one; an embedder provides its own to `layerNoMailSender`). Needs a
 * migrated `SqlClient` and `AppConfig`.
 */
import { Layer } from "effect"
import { Lockout } from "./Lockout.ts"
import { MailSender } from "./MailSender.ts"
import { OwnAccount } from "./OwnAccount.ts"
import { PasswordResets } from "./PasswordResets.ts"
import { Sessions } from "./Sessions.ts"
import { SignIn } from "./SignIn.ts"
import { Team } from "./Team.ts"
import { TwoFactorSettings } from "./TwoFactorSettings.ts"

/** Everything but the mail sender (provide a `MailSender`). */
export const layerNoMailSender = Layer.mergeAll(SignIn.layer, Team.layer, Sessions.layer, Lockout.layer, TwoFactorSettings.layer, OwnAccount.layer, PasswordResets.layer)

/** With the logging mail sender. */
export const layer = layerNoMailSender.pipe(Layer.provideMerge(MailSender.layerLog))
