/**
 * Mail that comes back (DECISIONS 8.3, suggested): the bounce mailbox's mail server hands each message that
 * arrived for `b+<id>@bounces.mail.svc.sa` to the console route `POST /console/v1/email/returns` (a pipe to
 * curl, or a relay's webhook), or the platform's own inbound SMTP listener receives it
 * (adapters/email/inbound-smtp.ts, `EMAIL_INBOUND_SMTP_PORT`) and hands it here with its `RCPT TO`. A DSN moves
 * the message to `delivered`, `bounced` or `failed`, a complaint (ARF) marks it `complained`, as a report of the
 * simulated provider does; anything else changes nothing.
 */
import { Effect, Option } from "effect"
import { EmailReturns } from "../../ports/email.ts"
import { Email } from "./service.ts"

export class EmailReturnsIntake extends Effect.Service<EmailReturnsIntake>()("core/EmailReturnsIntake", {
  effect: Effect.gen(function* () {
    const email = yield* Email
    const returns = yield* EmailReturns
    const take = (raw: string, rcptTo: string | undefined) =>
      Effect.gen(function* () {
        const report = yield* returns.read(raw, rcptTo)
        if (report === null) return { report: null, email: null }
        // A message the platform no longer holds (or never held) is reported and changes nothing.
        const moved = yield* Effect.option(email.report(report.messageId, report.kind))
        return { report: { id: report.messageId, kind: report.kind }, email: Option.getOrNull(moved) }
      })
    return { take } as const
  }),
}) {}
