/**
 * The e-mail provider over SMTP (DECISIONS 8.3, suggested), with nodemailer: STARTTLS (required unless told
 * otherwise), optional AUTH, each message DKIM-signed with its domain's key (`d=<domain>`, `s=svc`), sent from the
 * envelope sender `b+<id>@bounces.mail.svc.sa` (which brings its DSNs back, adapters/email/bounces.ts) with the
 * Message-ID `<id@domain>`.
 *
 * A 5xx reply to the message (MAIL FROM, RCPT TO, DATA) is `EmailRefused { providerCode: "smtp_<code>" }`; a 4xx
 * reply, a refused STARTTLS or AUTH, a refused or timed-out connection or a failed TLS handshake is
 * `EmailProviderUnavailable` (nothing the sender's message can fix). The password and message texts are never
 * copied into errors.
 *
 * Environment (proposed; adapters/config.ts reads `EMAIL_PROVIDER=smtp`, `smtpSettingsFromEnv` the rest):
 * - `SMTP_HOST` (required), `SMTP_PORT` (default 587)
 * - `SMTP_USER`, `SMTP_PASSWORD`: AUTH, when the user is set
 * - `SMTP_TLS`: `starttls` (default: STARTTLS required, certificate verified), `implicit` (TLS from the first byte,
 *   port 465), `starttls-unverified` (STARTTLS required, any certificate: local relays and tests only)
 */
import { Config, Effect, Layer, Option, Redacted } from "effect"
import {
  EmailProvider,
  EmailProviderUnavailable,
  type EmailReceipt,
  EmailRefused,
  type OutgoingEmail,
} from "../../ports/email.ts"

export interface SmtpSettings {
  readonly host: string
  readonly port: number
  /** TLS from the first byte (port 465); otherwise the connection is upgraded with STARTTLS. */
  readonly secure?: boolean
  /** Refuse to send when the server does not offer STARTTLS (default true). */
  readonly requireTLS?: boolean
  /** AUTH with these, when `user` is set. */
  readonly user?: string
  readonly password?: string | Redacted.Redacted<string>
  /** Verify the server's certificate (default true); false only for local relays and tests (self-signed). */
  readonly tlsRejectUnauthorized?: boolean
  /** The name sent with EHLO (default: the machine's name, as nodemailer finds it). */
  readonly heloName?: string
  /** Milliseconds to open the connection (default 10 000), to receive the greeting (10 000), of silence (30 000). */
  readonly connectionTimeoutMs?: number
  readonly greetingTimeoutMs?: number
  readonly socketTimeoutMs?: number
}

/** What nodemailer's errors carry (`code`: ECONNECTION, ETIMEDOUT, ETLS, EAUTH, EENVELOPE, EMESSAGE, …). */
interface SmtpError {
  readonly code?: string
  readonly responseCode?: number
  readonly response?: string
  readonly message?: string
}

// C0 controls and DEL: a CR or LF in a header field could start a header of its own (checked upstream as well).
// deno-lint-ignore no-control-regex
const controls = /[\u0000-\u001f\u007f]/
// deno-lint-ignore no-control-regex
const controlRuns = /[\u0000-\u001f\u007f]+/g

/** Errors about the message's envelope (MAIL FROM, RCPT TO) and its data (DATA); the rest is about the session. */
const messageCodes = new Set(["EENVELOPE", "EMESSAGE"])

/**
 * What a failed send becomes: a 5xx reply to MAIL FROM, RCPT TO or DATA is the message's refusal; a 5xx to the
 * session's own steps (greeting, EHLO, STARTTLS, AUTH) and everything else is unavailability.
 */
const failureOf = (
  error: unknown,
  where: string,
): EmailRefused | EmailProviderUnavailable => {
  const e = (typeof error === "object" && error !== null ? error : {}) as SmtpError
  const code = typeof e.responseCode === "number" ? e.responseCode : undefined
  const reply = typeof e.response === "string" ? e.response.replace(controlRuns, " ").trim().slice(0, 300) : undefined
  if (code !== undefined && code >= 500 && code < 600 && messageCodes.has(e.code ?? "")) {
    return new EmailRefused({ providerCode: `smtp_${code}`, message: reply ?? `SMTP server answered ${code}` })
  }
  const why = code !== undefined ? `answered ${reply ?? code}` : `failed (${e.code ?? "unknown"})`
  return new EmailProviderUnavailable({ message: `SMTP server ${where} ${why}` })
}

const make = (settings: SmtpSettings) =>
  Effect.acquireRelease(
    // nodemailer is loaded when an SMTP provider is made (EMAIL_PROVIDER=smtp), not on every start (issue 28).
    Effect.map(Effect.promise(() => import("nodemailer")), ({ default: nodemailer }) => {
      const password = settings.password === undefined
        ? ""
        : Redacted.isRedacted(settings.password)
        ? Redacted.value(settings.password)
        : settings.password
      return nodemailer.createTransport({
        host: settings.host,
        port: settings.port,
        secure: settings.secure ?? false,
        requireTLS: settings.secure ? false : settings.requireTLS ?? true,
        ...(settings.user !== undefined && settings.user !== ""
          ? { auth: { user: settings.user, pass: password } }
          : {}),
        tls: { rejectUnauthorized: settings.tlsRejectUnauthorized ?? true, minVersion: "TLSv1.2" },
        ...(settings.heloName !== undefined ? { name: settings.heloName } : {}),
        connectionTimeout: settings.connectionTimeoutMs ?? 10_000,
        greetingTimeout: settings.greetingTimeoutMs ?? 10_000,
        socketTimeout: settings.socketTimeoutMs ?? 30_000,
        disableFileAccess: true,
        disableUrlAccess: true,
      })
    }),
    (transport) => Effect.sync(() => transport.close()),
  ).pipe(Effect.map((transport) => {
    const where = `${settings.host}:${settings.port}`
    const send = (email: OutgoingEmail): Effect.Effect<EmailReceipt, EmailRefused | EmailProviderUnavailable> =>
      Effect.suspend(() => {
        const field = (["from", "to", "subject", "envelopeFrom"] as const).find((f) => controls.test(email[f]))
        if (field !== undefined) {
          return Effect.fail(
            new EmailRefused({ providerCode: "invalid_header", message: `${field} holds a control character` }),
          )
        }
        return Effect.async<EmailReceipt, EmailRefused | EmailProviderUnavailable>((resume) => {
          const abort = new AbortController()
          transport.sendMail({
            from: email.from,
            to: email.to,
            subject: email.subject,
            ...(email.text !== null ? { text: email.text } : {}),
            ...(email.html !== null ? { html: email.html } : {}),
            ...(email.text === null && email.html === null ? { text: "" } : {}),
            envelope: { from: email.envelopeFrom, to: [email.to] },
            messageId: `<${email.id}@${email.dkim?.domain ?? email.from.slice(email.from.lastIndexOf("@") + 1)}>`,
            ...(email.dkim === null ? {} : {
              dkim: {
                domainName: email.dkim.domain,
                keySelector: email.dkim.selector,
                privateKey: email.dkim.privateKeyPem,
              },
            }),
            disableFileAccess: true,
            disableUrlAccess: true,
            signal: abort.signal,
          }).then(
            (info) => resume(Effect.succeed({ providerMessageId: info.messageId })),
            (error: unknown) => resume(Effect.fail(failureOf(error, where))),
          )
          return Effect.sync(() => abort.abort())
        })
      }).pipe(Effect.withSpan("EmailProvider.send", { attributes: { "email.provider": "smtp" } }))
    return EmailProvider.of({ send })
  }))

/** The e-mail provider over SMTP; its connection settings are plain values (see `smtpSettingsFromEnv`). */
export const smtpEmailProvider = (settings: SmtpSettings): Layer.Layer<EmailProvider> =>
  Layer.scoped(EmailProvider, make(settings))

const tlsModes = {
  starttls: { secure: false, requireTLS: true, tlsRejectUnauthorized: true },
  implicit: { secure: true, requireTLS: false, tlsRejectUnauthorized: true },
  "starttls-unverified": { secure: false, requireTLS: true, tlsRejectUnauthorized: false },
} as const

/** `SMTP_HOST`, `SMTP_PORT`, `SMTP_USER`, `SMTP_PASSWORD`, `SMTP_TLS` (see the head of this file). */
export const smtpSettingsFromEnv: Config.Config<SmtpSettings> = Config.all({
  host: Config.nonEmptyString("SMTP_HOST"),
  port: Config.withDefault(Config.port("SMTP_PORT"), 587),
  user: Config.option(Config.string("SMTP_USER")),
  password: Config.option(Config.redacted("SMTP_PASSWORD")),
  tls: Config.withDefault(Config.literal("starttls", "implicit", "starttls-unverified")("SMTP_TLS"), "starttls"),
}).pipe(Config.map(({ host, port, user, password, tls }): SmtpSettings => ({
  host,
  port,
  ...tlsModes[tls],
  ...Option.match(Option.filter(user, (u) => u !== ""), {
    onNone: () => ({}),
    onSome: (u) => ({ user: u, ...Option.match(password, { onNone: () => ({}), onSome: (p) => ({ password: p }) }) }),
  }),
})))
