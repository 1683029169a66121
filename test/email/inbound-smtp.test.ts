/**
 * Issue 30: the inbound SMTP listener of the bounce domain (`EMAIL_INBOUND_SMTP_PORT`, adapters/email/inbound-smtp.ts).
 * End to end on each store: a message sent through the real SMTP adapter to a local SMTP peer (test/email/smtp-peer.ts)
 * leaves from `b+<id>@bounces.mail.svc.sa`; a DSN and an ARF report sent over SMTP to the listener for that address
 * move it (read back through the API); a recipient off the bounce domain is refused at RCPT (550), an oversize
 * message with 552; with the setting unset nothing listens.
 */
import { Effect } from "effect"
import { connect, Server as NetServer } from "node:net"
import nodemailer from "nodemailer"
import { afterAll, describe, expect, it } from "vitest"
import { inboundMaxBytes, InboundSmtp } from "../../adapters/email/inbound-smtp.ts"
import type { Settings } from "../../adapters/config.ts"
import { startServer, type TestServer, usePostgresServer, useServer } from "../support/server.ts"
import { send, setupEmail } from "./harness.ts"
import { startSmtpPeer } from "./smtp-peer.ts"

// The platform's SMTP provider sends to this peer (STARTTLS with a certificate made at test time).
const peer = await startSmtpPeer()
process.env.SMTP_HOST = "127.0.0.1"
process.env.SMTP_PORT = String(peer.port)
process.env.SMTP_TLS = "starttls-unverified"
afterAll(() => peer.close())

const crlf = (lines: ReadonlyArray<string>) => lines.join("\r\n")

const dsn = (to: string, action: string, status: string) =>
  crlf([
    "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)",
    "To: postmaster@shop.example",
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="DSN.B"',
    "",
    "--DSN.B",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "Your message could not be delivered.",
    "",
    "--DSN.B",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; mx.example.net",
    "",
    "Final-Recipient: rfc822; customer@example.net",
    `Action: ${action}`,
    `Status: ${status}`,
    "",
    "--DSN.B",
    "Content-Type: text/rfc822-headers",
    "",
    `Return-Path: <${to}>`,
    "From: receipts@shop.example",
    "",
    "--DSN.B--",
    "",
  ])

const arf = (to: string) =>
  crlf([
    "From: feedback@mailbox.example",
    "To: abuse-desk@mailbox.example",
    "Subject: FW: Your receipt",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="ARF.B"',
    "",
    "--ARF.B",
    "Content-Type: text/plain; charset=us-ascii",
    "",
    "This is an abuse report.",
    "",
    "--ARF.B",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: SomeGenerator/1.0",
    "Version: 1",
    `Original-Mail-From: <${to}>`,
    "",
    "--ARF.B",
    "Content-Type: text/rfc822-headers",
    "",
    `Return-Path: <${to}>`,
    "",
    "--ARF.B--",
    "",
  ])

const inboundPort = async (
  s: TestServer,
): Promise<number | null> => (await s.platform.runtime.runPromise(Effect.map(InboundSmtp, (l) => l.port)))

interface Delivery {
  readonly ok: boolean
  readonly responseCode?: number
  readonly code?: string
  readonly response?: string
}

/** Sends `raw` over SMTP to the listener, as a receiving MTA returns mail: `MAIL FROM:<>`, RCPT TO `to`. */
const deliver = async (port: number, to: string, raw: string): Promise<Delivery> => {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    tls: { rejectUnauthorized: false },
    connectionTimeout: 5_000,
    greetingTimeout: 5_000,
    socketTimeout: 10_000,
  })
  try {
    await transport.sendMail({ envelope: { from: "", to: [to] }, raw })
    return { ok: true }
  } catch (e) {
    const error = e as { responseCode?: number; code?: string; response?: string }
    return { ok: false, responseCode: error.responseCode, code: error.code, response: error.response }
  } finally {
    transport.close()
  }
}

const inbound: Partial<Settings> = {
  emailProvider: "smtp",
  dnsProvider: "simulator",
  host: "127.0.0.1",
  emailInboundSmtpPort: 0,
}

const rules = (s: TestServer) => {
  /** An e-mail sent through the SMTP adapter to the peer: its id and the envelope sender the peer saw. */
  const sent = async () => {
    const { key, mail } = await setupEmail(s)
    const res = await send(s, key, mail)
    expect(res.status).toBe(200)
    const id = res.body.id as string
    const got = peer.received.find((r) => r.raw.toString("utf8").includes(`<${id}@`))
    expect(got?.mailFrom).toBe(`b+${id}@bounces.mail.svc.sa`)
    return { id, key, envelopeFrom: got!.mailFrom }
  }
  const read = async (key: string, id: string) => (await s.call("GET", `/v1/email/messages/${id}`, { key })).body

  describe("a DSN sent over SMTP to the message's envelope sender moves it (one intake with the console route)", () => {
    it("Action: failed, Status: 5.1.1 to b+<id>@bounces.mail.svc.sa: 250, the e-mail reads `bounced`", async () => {
      const { id, key, envelopeFrom } = await sent()
      expect(await read(key, id)).toMatchObject({ id, status: "sent" })
      const port = (await inboundPort(s))!
      expect(await deliver(port, envelopeFrom, dsn(envelopeFrom, "failed", "5.1.1"))).toEqual({ ok: true })
      expect(await read(key, id)).toMatchObject({ id, status: "bounced", complained: false })
    })

    it("Action: failed, Status: 4.4.7 (gave up): the e-mail reads `failed`", async () => {
      const { id, key, envelopeFrom } = await sent()
      expect(await deliver((await inboundPort(s))!, envelopeFrom, dsn(envelopeFrom, "failed", "4.4.7"))).toEqual({
        ok: true,
      })
      expect(await read(key, id)).toMatchObject({ id, status: "failed" })
    })
  })

  describe("an ARF report sent over SMTP to the envelope sender marks it complained", () => {
    it("Feedback-Type: abuse: 250, `complained: true`, the status kept", async () => {
      const { id, key, envelopeFrom } = await sent()
      expect(await deliver((await inboundPort(s))!, envelopeFrom, arf(envelopeFrom))).toEqual({ ok: true })
      expect(await read(key, id)).toMatchObject({ id, status: "sent", complained: true })
    })
  })

  describe("mail the intake cannot match is accepted (never a bounce loop) and moves nothing", () => {
    it("a DSN for an id the platform never sent, and an autoreply in prose: both 250", async () => {
      const port = (await inboundPort(s))!
      const unknown = `b+${crypto.randomUUID()}@bounces.mail.svc.sa`
      expect(await deliver(port, unknown, dsn(unknown, "failed", "5.1.1"))).toEqual({ ok: true })
      const { id, key, envelopeFrom } = await sent()
      const prose = crlf(["From: customer@example.net", "Subject: Out of office", "", "I am away.", ""])
      expect(await deliver(port, envelopeFrom, prose)).toEqual({ ok: true })
      expect(await read(key, id)).toMatchObject({ id, status: "sent", complained: false })
    })
  })

  describe("a recipient off the bounce domain is refused at RCPT with 550", () => {
    it("RCPT TO:<b+<id>@shop.example> and <postmaster@example.net>: 550, nothing moves", async () => {
      const { id, key } = await sent()
      const port = (await inboundPort(s))!
      for (const to of [`b+${id}@shop.example`, "postmaster@example.net", `b+${id}@bounces.mail.svc.sa.evil.example`]) {
        const refused = await deliver(port, to, dsn(to, "failed", "5.1.1"))
        expect(refused, to).toMatchObject({ ok: false, responseCode: 550, code: "EENVELOPE" })
      }
      expect(await read(key, id)).toMatchObject({ id, status: "sent" })
    })
  })

  describe(`a message over ${inboundMaxBytes} bytes (1 MiB) is refused with 552`, () => {
    it("a DSN padded past 1 MiB: 552, the e-mail not moved", async () => {
      const { id, key, envelopeFrom } = await sent()
      const padding = Array.from({ length: Math.ceil(inboundMaxBytes / 77) + 10 }, () => "x".repeat(76)).join("\r\n")
      const big = dsn(envelopeFrom, "failed", "5.1.1").replace("Your message could not be delivered.", padding)
      expect(big.length).toBeGreaterThan(inboundMaxBytes)
      expect(await deliver((await inboundPort(s))!, envelopeFrom, big)).toMatchObject({ ok: false, responseCode: 552 })
      expect(await read(key, id)).toMatchObject({ id, status: "sent" })
    })

    it("a DATA past 1 MiB without SIZE (a raw session): 552 at its end, the session goes on", async () => {
      const { id, key, envelopeFrom } = await sent()
      const port = (await inboundPort(s))!
      const padding = Array.from({ length: Math.ceil(inboundMaxBytes / 77) + 10 }, () => "x".repeat(76)).join("\r\n")
      const replies = await rawSession(port, [
        "EHLO mx.example.net",
        "MAIL FROM:<>",
        `RCPT TO:<${envelopeFrom}>`,
        "DATA",
        dsn(envelopeFrom, "failed", "5.1.1").replace("Your message could not be delivered.", padding) + "\r\n.",
        "NOOP",
        "QUIT",
      ])
      expect(replies.map((r) => r.slice(0, 3))).toEqual(["220", "250", "250", "250", "354", "552", "250", "221"])
      expect(await read(key, id)).toMatchObject({ id, status: "sent" })
    })
  })
}

/** A plain SMTP session: each command sent once the previous reply (its last line) arrived; answers every reply. */
const rawSession = (port: number, commands: ReadonlyArray<string>): Promise<Array<string>> =>
  new Promise((resolve, reject) => {
    const replies: Array<string> = []
    let buffer = ""
    let next = 0
    const socket = connect(port, "127.0.0.1")
    socket.setTimeout(10_000, () => socket.destroy(new Error(`timed out after ${JSON.stringify(replies)}`)))
    socket.on("error", reject)
    socket.on("close", () => resolve(replies))
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8")
      let end: number
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (line[3] === "-") continue
        replies.push(line)
        if (next < commands.length) socket.write(commands[next++] + "\r\n")
      }
    })
  })

describe("EMAIL_INBOUND_SMTP_PORT=0 on the memory store", () => {
  const s = useServer(inbound)
  rules(s)
})

describe("EMAIL_INBOUND_SMTP_PORT=0 on PGlite", () => {
  const s = useServer({ ...inbound, store: "sql", pgliteDir: "memory://" })
  rules(s)
})

const databaseUrl = process.env.DATABASE_URL
describe.runIf(databaseUrl !== undefined)("EMAIL_INBOUND_SMTP_PORT=0 on PostgreSQL (DATABASE_URL)", () => {
  const s = usePostgresServer(databaseUrl ?? "", inbound)
  rules(s)
})

/**
 * The listening TCP servers of this process (node:net's servers among its active handles), and how many listen now
 * that were not in `before`: servers of earlier tests that are still closing do not count.
 */
const servers = (): Set<unknown> =>
  new Set(
    (process as unknown as { _getActiveHandles: () => Array<unknown> })._getActiveHandles()
      .filter((h) => h instanceof NetServer && h.listening),
  )
const opened = (before: Set<unknown>): number => [...servers()].filter((s) => !before.has(s)).length

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(false)
    })
    socket.once("error", () => resolve(true))
  })

describe("EMAIL_INBOUND_SMTP_PORT unset (the default): nothing listens", () => {
  it("the setting is off by default; the platform opens its HTTP socket and no other", async () => {
    const before = servers()
    const off = await startServer({ emailProvider: "smtp", dnsProvider: "simulator" })
    try {
      expect(off.settings.emailInboundSmtpPort).toBeUndefined()
      expect(await inboundPort(off)).toBeNull()
      expect(opened(before)).toBe(1)
    } finally {
      await off.close()
    }
    const between = servers()
    const on = await startServer(inbound)
    try {
      expect(await inboundPort(on)).toBeGreaterThan(0)
      expect(opened(between)).toBe(2)
    } finally {
      await on.close()
    }
  })

  it("set, it listens until the platform stops: then the port refuses connections", async () => {
    const on = await startServer(inbound)
    const port = (await inboundPort(on))!
    expect(port).toBeGreaterThan(0)
    expect(await refused(port)).toBe(false)
    await on.close()
    expect(await refused(port)).toBe(true)
  })
})
