/**
 * The e-mail provider (DECISIONS 8): sends one message, DKIM-signed with its domain's key, from the envelope
 * sender that brings its bounces back; what comes back (delivery reports, bounces, complaints) reaches the platform
 * as `EmailReport`s. Adapters: the simulator (DECISIONS 8.3, adapters/email/simulator.ts) and SMTP
 * (adapters/email/smtp.ts), selected by `EMAIL_PROVIDER`.
 */
import { Context, Data, type Effect } from "effect"

/** One message to send; every field already checked (no control characters in headers). */
export interface OutgoingEmail {
  /** The platform's id of the message (the envelope sender carries it: `b+<id>@<bounce domain>`). */
  readonly id: string
  /** `local@domain`, on a verified domain of the application. */
  readonly from: string
  /** One address. */
  readonly to: string
  readonly subject: string
  readonly text: string | null
  readonly html: string | null
  /** The envelope sender (`MAIL FROM`, `Return-Path`): `b+<id>@bounces.mail.svc.sa`. */
  readonly envelopeFrom: string
  /**
   * The domain's DKIM key: the selector (`svc`) and the private key, PKCS#8 PEM. Null for the platform's own mail
   * (a team invitation from `Chat.invitationFrom`): the mail server it is handed to signs for the platform's domain.
   */
  readonly dkim: { readonly domain: string; readonly selector: string; readonly privateKeyPem: string } | null
}

export interface EmailReceipt {
  /** The provider's id (the SMTP server's queue id, or the `Message-ID` sent). */
  readonly providerMessageId: string
}

/** The provider refused the message: `502 send_failed` with these fields, nothing kept. */
export class EmailRefused extends Data.TaggedError("EmailRefused")<{
  readonly providerCode: string
  readonly message: string
}> {}

/** The provider could not be reached: `503 email_unavailable`, nothing kept. */
export class EmailProviderUnavailable extends Data.TaggedError("EmailProviderUnavailable")<{
  readonly message: string
}> {}

/** What came back about a message: a delivery report, a bounce (DSN) or a complaint (ARF). */
export interface EmailReport {
  /** The platform's message id (read from the envelope sender the report came back to). */
  readonly messageId: string
  readonly kind: "delivered" | "bounced" | "failed" | "complained"
}

export class EmailProvider extends Context.Tag("ports/EmailProvider")<EmailProvider, {
  readonly send: (email: OutgoingEmail) => Effect.Effect<EmailReceipt, EmailRefused | EmailProviderUnavailable>
}>() {}

/**
 * Reads a message that came back to an envelope sender (`b+<id>@<bounce domain>`): a delivery status notification
 * (DSN) or a complaint (ARF) becomes a report on the message it names; anything else is none. Adapter:
 * adapters/email/bounces.ts (mailparser).
 */
export class EmailReturns extends Context.Tag("ports/EmailReturns")<EmailReturns, {
  /** `rcptTo`: the envelope recipient it arrived for, when the mail server gives it. */
  readonly read: (raw: string, rcptTo: string | undefined) => Effect.Effect<EmailReport | null>
}>() {}
