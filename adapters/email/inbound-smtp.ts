/**
 * The inbound SMTP listener of the bounce domain (DECISIONS 8.3, suggested; issue 30): while
 * `EMAIL_INBOUND_SMTP_PORT` is set, an smtp-server listens on `HOST` at that port (0: any free one) for mail that
 * comes back to the envelope sender `b+<id>@bounces.mail.svc.sa`, and hands each message with its `RCPT TO` to
 * `EmailReturnsIntake`, the console route `POST /console/v1/email/returns`'s own service: a DSN moves the message
 * to `delivered`, `bounced` or `failed`, an ARF report marks it `complained`, through one code path.
 *
 * - `RCPT TO` off the bounce domain: `550 5.1.1`, at RCPT (the listener relays nothing).
 * - Over 1 MiB: `552` (SIZE is announced; a `MAIL FROM … SIZE=` above it is refused there, a longer DATA at its end).
 * - No AUTH (mail that comes back is anyone's to send); STARTTLS is offered with smtp-server's own certificate
 *   (opportunistic, as MTAs use it); no reverse DNS lookups.
 * - A message the intake cannot match (no report, or about no message held) is accepted (`250`) and logged at
 *   warn: refusing it would make the sending MTA bounce the bounce (docs/decisions.md, "Email: inbound SMTP").
 * - The intake failing (the store out of reach) answers `451 4.3.0`: the sending MTA keeps it and tries again.
 *
 * The server closes when the layer's scope does (the platform's `dispose`); connections still open are ended
 * after 2 s.
 */
import { Cause, Context, Effect, Exit, Layer, Runtime } from "effect"
import type { AddressInfo } from "node:net"
import { EmailReturnsIntake } from "../../core/email/returns.ts"
import { Email as Limits } from "../../core/limits.ts"

/** The largest message accepted (bytes): a DSN or an ARF report with the original's headers fits many times. */
export const inboundMaxBytes = 1024 * 1024

/** The listener, once it listens; `port` null when `EMAIL_INBOUND_SMTP_PORT` is unset. */
export class InboundSmtp extends Context.Tag("adapters/InboundSmtp")<InboundSmtp, {
  readonly port: number | null
}>() {}

export interface InboundSmtpOptions {
  readonly host: string
  /** 0: any free port. */
  readonly port: number
  readonly maxBytes?: number
  /** The name in the greeting (default `bounces.mail.svc.sa`). */
  readonly name?: string
}

const replyError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code })

/** Whether `address` is on the bounce domain (any case; a final dot dropped). */
export const onBounceDomain = (address: string): boolean => {
  const at = address.lastIndexOf("@")
  return at > 0 && address.slice(at + 1).toLowerCase().replace(/\.$/, "") === Limits.bounceDomain
}

const make = (options: InboundSmtpOptions) =>
  Effect.gen(function* () {
    const intake = yield* EmailReturnsIntake
    const runtime = yield* Effect.runtime<never>()
    const maxBytes = options.maxBytes ?? inboundMaxBytes

    /** One message, handed to the intake once per recipient it came for: a failure of any is the message's. */
    const take = (raw: string, rcptTo: ReadonlyArray<string>, mailFrom: string) =>
      Effect.forEach(rcptTo, (rcpt) =>
        intake.take(raw, rcpt).pipe(
          Effect.tap((taken) =>
            taken.report === null || taken.email === null
              ? Effect.logWarning("inbound SMTP: a message matched no e-mail; accepted and dropped").pipe(
                Effect.annotateLogs({
                  rcpt_to: rcpt,
                  mail_from: mailFrom,
                  bytes: raw.length,
                  report: taken.report === null ? null : taken.report.kind,
                  message_id: taken.report === null ? null : taken.report.id,
                }),
              )
              : Effect.logInfo("inbound SMTP: report taken").pipe(
                Effect.annotateLogs({ rcpt_to: rcpt, report: taken.report.kind, message_id: taken.report.id }),
              )
          ),
        ), { discard: true }).pipe(Effect.withSpan("InboundSmtp.message"))

    // Loaded only when the listener is asked for (EMAIL_INBOUND_SMTP_PORT): not on every start (issue 28).
    const { SMTPServer } = yield* Effect.promise(() => import("smtp-server"))
    const server = new SMTPServer({
      name: options.name ?? Limits.bounceDomain,
      banner: "bounce mailbox",
      size: maxBytes,
      authOptional: true,
      disabledCommands: ["AUTH"],
      disableReverseLookup: true,
      logger: false,
      closeTimeout: 2_000,
      onRcptTo: (address, _session, callback) =>
        onBounceDomain(address.address)
          ? callback()
          : callback(replyError(550, "5.1.1 no such mailbox here: this server takes mail for the bounce domain only")),
      onData: (stream, session, callback) => {
        const chunks: Array<Buffer> = []
        let bytes = 0
        stream.on("data", (chunk: Buffer) => {
          bytes += chunk.length
          // Past the limit nothing more is kept: smtp-server answers 552 at the end whatever this says.
          if (bytes <= maxBytes) chunks.push(chunk)
        })
        stream.on("end", () => {
          if (stream.sizeExceeded || bytes > maxBytes) return callback(replyError(552, "5.3.4 message too big"))
          const raw = Buffer.concat(chunks).toString("utf8")
          const mailFrom = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address
          Runtime.runCallback(runtime)(take(raw, session.envelope.rcptTo.map((r) => r.address), mailFrom), {
            onExit: (exit) => {
              if (Exit.isSuccess(exit)) return callback()
              Runtime.runFork(runtime)(
                Effect.logError("inbound SMTP: the intake failed; answered 451").pipe(
                  Effect.annotateLogs({ cause: Cause.pretty(exit.cause) }),
                ),
              )
              callback(replyError(451, "4.3.0 temporary failure, try again later"))
            },
          })
        })
      },
    })
    server.on("error", (error) => {
      Runtime.runFork(runtime)(
        Effect.logWarning("inbound SMTP: a connection failed").pipe(Effect.annotateLogs({ error: String(error) })),
      )
    })

    const port = yield* Effect.acquireRelease(
      Effect.async<number, Error>((resume) => {
        const failed = (error: Error) => resume(Effect.fail(error))
        server.server.once("error", failed)
        server.listen(options.port, options.host, () => {
          server.server.off("error", failed)
          resume(Effect.succeed((server.server.address() as AddressInfo).port))
        })
      }),
      () => Effect.async<void>((resume) => server.close(() => resume(Effect.void))),
    ).pipe(
      Effect.orDieWith((e) => new Error(`EMAIL_INBOUND_SMTP_PORT: cannot listen on ${options.port}: ${e.message}`)),
    )
    yield* Effect.logInfo("inbound SMTP listening").pipe(
      Effect.annotateLogs({ host: options.host, port, domain: Limits.bounceDomain, max_bytes: maxBytes }),
    )
    return InboundSmtp.of({ port })
  })

/** The listener on `options.port`, or, with none, nothing listening (`port: null`). */
export const inboundSmtpLayer = (
  options: InboundSmtpOptions | undefined,
): Layer.Layer<InboundSmtp, never, EmailReturnsIntake> =>
  options === undefined ? Layer.succeed(InboundSmtp, { port: null }) : Layer.scoped(InboundSmtp, make(options))
