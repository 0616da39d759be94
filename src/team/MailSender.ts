/**
 * The port through which the service sends mail to people (invitations).
 * There is no mail server: the default implementation logs the message, and
 * the dashboard also shows the invitation link to the person who invited.
 */
import { Context, Effect, Layer } from "effect"

/** One message to one person. */
export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

export class MailSender extends Context.Service<MailSender, {
  readonly send: (mail: Mail) => Effect.Effect<void>
}>()("outreach/MailSender") {
  /** Writes each message to the log (subject and recipient; the body at debug level, it holds a link). */
  static readonly layerLog = Layer.succeed(
    MailSender,
    MailSender.of({
      send: (mail) =>
        Effect.logInfo("mail not sent (no mail server): logged instead").pipe(
          Effect.annotateLogs({ to: mail.to, subject: mail.subject }),
          Effect.andThen(Effect.logDebug(mail.text)),
          Effect.withSpan("MailSender.send")
        )
    })
  )
}
