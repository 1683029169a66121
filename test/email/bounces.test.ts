import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import nodemailer from "nodemailer"
import { readReport } from "../../adapters/email/bounces.ts"
import { useServer } from "../support/server.ts"
import { send, setupEmail } from "./harness.ts"
import { type SmtpPeer, startSmtpPeer } from "./smtp-peer.ts"

// Reports as receiving MTAs write them (Postfix's DSN, an ARF from a mailbox provider), read by the adapter; the
// last suite sends one over SMTP to a local smtp-server and reads what its onData received.

const ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"
const BOUNCE = `b+${ID}@bounces.mail.svc.sa`

const crlf = (lines: ReadonlyArray<string>) => lines.join("\r\n")

const original = [
  "Content-Type: text/rfc822-headers",
  "",
  `Return-Path: <${BOUNCE}>`,
  "From: orders@shop.example",
  "To: customer@example.net",
  "Subject: Your order",
  `Message-ID: <${ID}@shop.example>`,
  "",
]

/** A Postfix-style DSN to `to` about one recipient, with these per-recipient fields. */
const dsn = (recipient: ReadonlyArray<string>, to = BOUNCE) =>
  crlf([
    "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)",
    `To: ${to}`,
    "Subject: Undelivered Mail Returned to Sender",
    "Date: Fri, 27 Nov 2026 08:00:00 +0000",
    "Auto-Submitted: auto-replied",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="DSN.BOUNDARY"',
    "",
    "This is a MIME-encapsulated message.",
    "",
    "--DSN.BOUNDARY",
    "Content-Description: Notification",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "I'm sorry to have to inform you that your message could not be delivered.",
    "",
    "--DSN.BOUNDARY",
    "Content-Description: Delivery report",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "X-Postfix-Queue-ID: 4ABCD1234",
    "Arrival-Date: Fri, 27 Nov 2026 07:59:58 +0000",
    "",
    "Final-Recipient: rfc822; customer@example.net",
    "Original-Recipient: rfc822;customer@example.net",
    ...recipient,
    "",
    "--DSN.BOUNDARY",
    "Content-Description: Undelivered Message Headers",
    ...original,
    "--DSN.BOUNDARY--",
    "",
  ])

const arf = (feedbackType = "abuse", to = BOUNCE) =>
  crlf([
    "From: feedback@mailbox.example",
    `To: ${to}`,
    "Subject: FW: Your order",
    "Date: Fri, 27 Nov 2026 08:00:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="ARF.BOUNDARY"',
    "",
    "--ARF.BOUNDARY",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "This is an email abuse report for an email message received from IP 192.0.2.1.",
    "",
    "--ARF.BOUNDARY",
    "Content-Type: message/feedback-report",
    "",
    `Feedback-Type: ${feedbackType}`,
    "User-Agent: SomeGenerator/1.0",
    "Version: 1",
    "Original-Mail-From: <" + BOUNCE + ">",
    "Original-Rcpt-To: <customer@example.net>",
    "Source-IP: 192.0.2.1",
    "",
    "--ARF.BOUNDARY",
    ...original,
    "--ARF.BOUNDARY--",
    "",
  ])

const failed511 = [
  "Action: failed",
  "Status: 5.1.1",
  "Diagnostic-Code: smtp; 550 5.1.1 <customer@example.net>: no such user",
]

describe("a DSN (multipart/report; report-type=delivery-status) to b+<id>@bounces.mail.svc.sa", () => {
  it.effect("Action: failed, Status 5.1.1 (permanent) → bounced", () =>
    Effect.gen(function* () {
      expect(yield* readReport(dsn(failed511))).toEqual({ messageId: ID, kind: "bounced" })
    }))

  it.effect("Action: failed, Status 4.4.7 (gave up retrying) → failed", () =>
    Effect.gen(function* () {
      const report = dsn(["Action: failed", "Status: 4.4.7", "Diagnostic-Code: X-Postfix; delivery time expired"])
      expect(yield* readReport(report)).toEqual({ messageId: ID, kind: "failed" })
    }))

  it.effect("Action: delivered, Status 2.0.0 → delivered", () =>
    Effect.gen(function* () {
      const report = dsn(["Action: delivered", "Status: 2.0.0", "Diagnostic-Code: smtp; 250 2.0.0 OK"])
      expect(yield* readReport(report)).toEqual({ messageId: ID, kind: "delivered" })
    }))

  it.effect("Action: delayed or relayed is not final: no report", () =>
    Effect.gen(function* () {
      expect(yield* readReport(dsn(["Action: delayed", "Status: 4.4.1", "Will-Retry-Until: tomorrow"]))).toBeNull()
      expect(yield* readReport(dsn(["Action: relayed", "Status: 2.0.0"]))).toBeNull()
    }))

  it.effect("the fields are read case-blind, folded and with comments", () =>
    Effect.gen(function* () {
      const report = dsn(["ACTION: Failed (permanent)", "status: 5.7.1", "  (delivery not authorized)"])
      expect(yield* readReport(report)).toEqual({ messageId: ID, kind: "bounced" })
    }))

  it.effect("with the whole original returned as message/rfc822 (its own To and parts do not count)", () =>
    Effect.gen(function* () {
      const whole = dsn(failed511).replace(
        "Content-Type: text/rfc822-headers",
        crlf([
          "Content-Type: message/rfc822",
          "",
          `Return-Path: <${BOUNCE}>`,
          "To: b+0d8f6a52-6b1c-4f43-9a43-5d3c1b8d2a01@bounces.mail.svc.sa",
          'Content-Type: multipart/report; report-type=delivery-status; boundary="INNER"',
          "",
          "--INNER",
          "Content-Type: text/plain",
          "",
          "An earlier report, quoted.",
          "--INNER--",
        ]),
      )
      expect(yield* readReport(whole)).toEqual({ messageId: ID, kind: "bounced" })
    }))

  it.effect("as bytes, as received", () =>
    Effect.gen(function* () {
      expect(yield* readReport(new TextEncoder().encode(dsn(failed511)))).toEqual({ messageId: ID, kind: "bounced" })
    }))
})

describe("an ARF (multipart/report; report-type=feedback-report) → complained", () => {
  it.effect("Feedback-Type: abuse → complained", () =>
    Effect.gen(function* () {
      expect(yield* readReport(arf())).toEqual({ messageId: ID, kind: "complained" })
    }))

  it.effect("Feedback-Type: not-spam is no complaint", () =>
    Effect.gen(function* () {
      expect(yield* readReport(arf("not-spam"))).toBeNull()
    }))
})

describe("the message is named by the recipient address b+<uuid>@bounces.mail.svc.sa, else no report", () => {
  it.effect("the envelope RCPT TO names it when the headers do not", () =>
    Effect.gen(function* () {
      const report = dsn(failed511, "postmaster@shop.example")
      expect(yield* readReport(report)).toBeNull()
      expect(yield* readReport(report, BOUNCE)).toEqual({ messageId: ID, kind: "bounced" })
    }))

  it.effect("X-Original-To names it when To does not", () =>
    Effect.gen(function* () {
      const report = `X-Original-To: ${BOUNCE}\r\n${dsn(failed511, "bounces@mail.svc.sa")}`
      expect(yield* readReport(report)).toEqual({ messageId: ID, kind: "bounced" })
    }))

  it.effect("an id that is not a UUID, or another domain, is no report", () =>
    Effect.gen(function* () {
      expect(yield* readReport(dsn(failed511, "b+not-a-uuid@bounces.mail.svc.sa"))).toBeNull()
      expect(yield* readReport(dsn(failed511, "b+6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4@bounces.mail.svc.sa")))
        .toBeNull()
      expect(yield* readReport(dsn(failed511, `b+${ID}@bounces.elsewhere.example`))).toBeNull()
    }))

  it.effect("an upper-case id names the same message", () =>
    Effect.gen(function* () {
      expect(yield* readReport(dsn(failed511), `b+${ID.toUpperCase()}@BOUNCES.MAIL.SVC.SA`)).toEqual({
        messageId: ID,
        kind: "bounced",
      })
    }))
})

describe("a message that is not a report is no report", () => {
  it.effect("an autoreply in prose, to the bounce address", () =>
    Effect.gen(function* () {
      const reply = crlf([
        "From: customer@example.net",
        `To: ${BOUNCE}`,
        "Subject: Out of office",
        "Content-Type: text/plain",
        "",
        "I am away. Action: failed Status: 5.1.1",
        "",
      ])
      expect(yield* readReport(reply)).toBeNull()
    }))

  it.effect("a multipart/report without its delivery-status part, and bytes that are no message", () =>
    Effect.gen(function* () {
      const broken = dsn(failed511).replace("Content-Type: message/delivery-status", "Content-Type: text/plain")
      expect(yield* readReport(broken)).toBeNull()
      expect(yield* readReport(new Uint8Array([0, 1, 2, 255]))).toBeNull()
      expect(yield* readReport("")).toBeNull()
    }))
})

describe("end to end: a DSN sent over SMTP to the bounce mailbox is read from what onData received", () => {
  let mailbox: SmtpPeer
  beforeAll(async () => {
    mailbox = await startSmtpPeer()
  })
  afterAll(async () => {
    await mailbox.close()
  })

  it.live("MAIL FROM:<>, RCPT TO:<b+<id>@bounces.mail.svc.sa>, a 5.1.1 DSN → bounced", () =>
    Effect.gen(function* () {
      const transport = nodemailer.createTransport({
        host: "127.0.0.1",
        port: mailbox.port,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
      })
      yield* Effect.addFinalizer(() => Effect.sync(() => transport.close()))
      // The To header names someone else: the envelope's RCPT TO is what names the message.
      yield* Effect.promise(() =>
        transport.sendMail({ envelope: { from: "", to: [BOUNCE] }, raw: dsn(failed511, "postmaster@shop.example") })
      )
      const got = mailbox.received[0]
      expect(got.mailFrom).toBe("")
      expect(got.rcptTo).toEqual([BOUNCE])
      expect(yield* readReport(got.raw, got.rcptTo[0])).toEqual({ messageId: ID, kind: "bounced" })
    }).pipe(Effect.scoped))
})

describe("mail that came back, handed to POST /console/v1/email/returns, moves the message it names", () => {
  const s = useServer({})
  const returned = (raw: string, rcptTo?: string) =>
    s.call("POST", `/console/v1/email/returns${rcptTo === undefined ? "" : `?rcpt_to=${encodeURIComponent(rcptTo)}`}`, {
      key: s.consoleToken,
      rawBody: raw,
    })
  const sent = async () => {
    const { key, mail } = await setupEmail(s)
    const res = await send(s, key, mail)
    expect(res.status).toBe(200)
    return res.body.id as string
  }

  it("a DSN with 5.1.1 for b+<id>@…: that e-mail is bounced", async () => {
    const id = await sent()
    const res = await returned(dsn(failed511, `b+${id}@bounces.mail.svc.sa`), `b+${id}@bounces.mail.svc.sa`)
    expect(res.status).toBe(200)
    expect(res.body.data.report).toEqual({ id, kind: "bounced" })
    expect(res.body.data.email).toMatchObject({ id, status: "bounced", complained: false })
  })

  it("an ARF complaint, its id read from the To header alone: complained, the status kept", async () => {
    const id = await sent()
    const res = await returned(arf("abuse", `b+${id}@bounces.mail.svc.sa`))
    expect(res.body.data.report).toEqual({ id, kind: "complained" })
    expect(res.body.data.email).toMatchObject({ id, status: "sent", complained: true })
  })

  it("mail that is no report, or names no message held: report null or e-mail null, nothing moves", async () => {
    const plain = await returned(crlf(["From: someone@example.net", "Subject: hello", "", "Just a reply."]))
    expect(plain.body.data).toEqual({ report: null, email: null })
    const unknown = crypto.randomUUID()
    const res = await returned(dsn(failed511, `b+${unknown}@bounces.mail.svc.sa`))
    expect(res.body.data).toEqual({ report: { id: unknown, kind: "bounced" }, email: null })
  })

  it("without the console token: 401, nothing read", async () => {
    const res = await s.call("POST", "/console/v1/email/returns", { rawBody: dsn(failed511) })
    expect(res.status).toBe(401)
  })
})
