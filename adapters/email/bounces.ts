/**
 * What comes back to the envelope sender `b+<id>@bounces.mail.svc.sa` (DECISIONS 8.3, suggested), read into an
 * `EmailReport` with mailparser: the platform's inbound bounce mailbox hands each message here with the address
 * it was received for (`RCPT TO`).
 *
 * - A DSN (RFC 3464: `multipart/report; report-type=delivery-status`), its first recipient with an `Action`:
 *   - `failed` with a permanent `Status` 5.x.x (or none) → `bounced`: the address will never take it;
 *   - `failed` with a transient `Status` 4.x.x → `failed`: the receiving side gave up retrying (4.4.7 expired);
 *   - `delivered` → `delivered`;
 *   - `delayed`, `relayed`, `expanded` → nothing: not final, a later report settles the message.
 * - A feedback report (RFC 5965 ARF: `multipart/report; report-type=feedback-report`) → `complained`, unless its
 *   `Feedback-Type` is `not-spam`.
 * - Anything else (an autoreply, a bounce in prose only) → nothing.
 *
 * The message is named by the recipient address `b+<uuid>@bounces.mail.svc.sa`: the first that is one of the
 * envelope's `RCPT TO` (when given) and the `X-Original-To`, `Delivered-To`, `Original-Recipient` and `To` headers;
 * anything else (no such address, an id that is not a UUID) → nothing. The returned original's headers are not
 * read: they are the sender's words, the recipient address is where the report came to.
 */
import { Effect, Layer } from "effect"
import { messageIdOfEnvelope } from "../../core/email/service.ts"
import { type EmailReport, EmailReturns } from "../../ports/email.ts"

type Kind = EmailReport["kind"]

/** A DSN's or ARF's field blocks: `Name: value` lines (folded lines joined), blocks apart by an empty line. */
export const fieldBlocks = (text: string): ReadonlyArray<ReadonlyMap<string, string>> =>
  text.replace(/\r\n/g, "\n").split(/\n[ \t]*\n/).map((block) => {
    const fields = new Map<string, string>()
    for (const line of block.replace(/\n[ \t]+/g, " ").split("\n")) {
      const colon = line.indexOf(":")
      if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
    }
    return fields
  }).filter((fields) => fields.size > 0)

/** What one DSN recipient block says of the message, or null when it is not final. */
export const kindOfDsn = (text: string): Kind | null => {
  const recipient = fieldBlocks(text).find((fields) => fields.has("action"))
  if (recipient === undefined) return null
  const action = (recipient.get("action") ?? "").split(/[\s(]/)[0].toLowerCase()
  const status = /^([245])\.\d{1,3}\.\d{1,3}/.exec(recipient.get("status") ?? "")?.[1]
  if (action === "delivered") return "delivered"
  if (action === "failed") return status === "4" ? "failed" : "bounced"
  return null
}

/** Every address a header holds, whatever shape mailparser gave it (text, address list, list of lists). */
const addressesIn = (value: unknown): ReadonlyArray<string> => {
  if (typeof value === "string") return value.match(/[^\s<>;,:"']+@[^\s<>;,"']+/g) ?? []
  if (Array.isArray(value)) return value.flatMap(addressesIn)
  if (typeof value === "object" && value !== null) {
    const v = value as { readonly address?: unknown; readonly value?: unknown; readonly group?: unknown }
    return [...addressesIn(v.address), ...addressesIn(v.value), ...addressesIn(v.group)]
  }
  return []
}

const idHeaders = ["x-original-to", "delivered-to", "original-recipient", "to"] as const

const kindOf = (
  reportType: string,
  parts: ReadonlyArray<{ readonly contentType: string; readonly content: Buffer }>,
): Kind | null => {
  const part = (...types: ReadonlyArray<string>) => parts.find((p) => types.includes(p.contentType.toLowerCase()))
  if (reportType === "delivery-status") {
    const status = part("message/delivery-status", "message/global-delivery-status")
    return status === undefined ? null : kindOfDsn(status.content.toString("utf8"))
  }
  if (reportType === "feedback-report") {
    const feedback = part("message/feedback-report")
    const type = feedback === undefined
      ? undefined
      : fieldBlocks(feedback.content.toString("utf8"))[0]?.get("feedback-type")?.toLowerCase()
    return type === "not-spam" ? null : "complained"
  }
  return null
}

/**
 * mailparser, loaded the first time a message is read: importing it (and its character-set tables) took about 190 ms of
 * every start, for a route most deployments never call (issue 28).
 */
const mailparser = () => import("mailparser")

/**
 * The report a message that came back says, or null (not a report, not final, not about one of our messages).
 * `raw` is the message as received (RFC 5322); `rcptTo` the address it was received for, when known.
 */
export const readReport = (raw: Uint8Array | string, rcptTo?: string): Effect.Effect<EmailReport | null> =>
  Effect.tryPromise(async () =>
    (await mailparser()).simpleParser(
      typeof raw === "string" ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength),
      {
        keepDeliveryStatus: true,
        skipHtmlToText: true,
        skipTextToHtml: true,
        skipImageLinks: true,
      },
    )
  ).pipe(
    Effect.map((mail): EmailReport | null => {
      const candidates = [
        ...(rcptTo !== undefined ? [rcptTo] : []),
        ...idHeaders.flatMap((name) => addressesIn(mail.headers.get(name))),
      ]
      const messageId = candidates.map(messageIdOfEnvelope).find((id) => id !== undefined)
      if (messageId === undefined) return null
      const type = mail.headers.get("content-type") as
        | { readonly value?: string; readonly params?: Record<string, string> }
        | undefined
      if (type?.value?.toLowerCase() !== "multipart/report") return null
      const kind = kindOf((type.params?.["report-type"] ?? "").toLowerCase(), mail.attachments)
      return kind === null ? null : { messageId, kind }
    }),
    Effect.orElseSucceed(() => null),
    Effect.withSpan("EmailBounces.read"),
  )

/** The returned-mail reader of ports/email.ts over `readReport`. */
export const EmailReturnsMailparser = Layer.succeed(EmailReturns, { read: (raw, rcptTo) => readReport(raw, rcptTo) })
