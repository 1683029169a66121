import { afterAll, assert, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Fiber, Redacted } from "effect"
import { authenticate } from "mailauth"
import { simpleParser } from "mailparser"
import { createServer, type Server, type Socket } from "node:net"
import { smtpEmailProvider, type SmtpSettings, smtpSettingsFromEnv } from "../../adapters/email/smtp.ts"
import { DkimKeysNodeCrypto } from "../../adapters/secrets/dkim.ts"
import { recordsFor } from "../../core/email/records.ts"
import { envelopeFromOf } from "../../core/email/service.ts"
import type { DkimKeyPair } from "../../ports/dkim.ts"
import { DkimKeys } from "../../ports/dkim.ts"
import { EmailProvider, type OutgoingEmail } from "../../ports/email.ts"
import { closedPort, type SmtpPeer, startSmtpPeer } from "./smtp-peer.ts"

// The adapter sends to a real local SMTP server (smtp-server) over STARTTLS with a certificate made at test time;
// the DKIM signature is checked by mailauth against the record DECISIONS 8.2 has the domain publish.

const DOMAIN = "shop.example"
const ID = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"

let peer: SmtpPeer
let key: DkimKeyPair
let otherKey: DkimKeyPair

const makeKey = () =>
  Effect.runPromise(Effect.provide(DkimKeys.pipe(Effect.flatMap((k) => k.make)), DkimKeysNodeCrypto))

beforeAll(async () => {
  ;[peer, key, otherKey] = await Promise.all([startSmtpPeer(), makeKey(), makeKey()])
})
afterAll(async () => {
  await peer.close()
})

const settingsFor = (over: Partial<SmtpSettings> = {}): SmtpSettings => ({
  host: "127.0.0.1",
  port: peer.port,
  tlsRejectUnauthorized: false,
  heloName: "sender.test",
  connectionTimeoutMs: 2_000,
  greetingTimeoutMs: 2_000,
  socketTimeoutMs: 5_000,
  ...over,
})

const emailOf = (over: Partial<OutgoingEmail> = {}): OutgoingEmail => ({
  id: ID,
  from: `orders@${DOMAIN}`,
  to: "customer@example.net",
  subject: "طلبك رقم 42 في الطريق",
  text: "Your order is on its way.",
  html: "<p>Your order is on its way.</p>",
  envelopeFrom: envelopeFromOf(ID),
  dkim: { domain: DOMAIN, selector: "svc", privateKeyPem: key.privateKeyPem },
  ...over,
})

const send = (email: OutgoingEmail, over: Partial<SmtpSettings> = {}) =>
  Effect.flatMap(EmailProvider, (p) => p.send(email)).pipe(Effect.provide(smtpEmailProvider(settingsFor(over))))

/** A DNS that holds only the domain's `dkim` TXT record, as DECISIONS 8.2 words it, with this public key. */
const dnsWith = (publicKeyBase64: string) => async (name: string, rrtype: string) => {
  const dkim = recordsFor(DOMAIN, publicKeyBase64).find((r) => r.purpose === "dkim")!
  if (rrtype === "TXT" && name.toLowerCase() === dkim.name) return [[dkim.value]]
  throw Object.assign(new Error(`${name} ${rrtype}: no such record`), { code: "ENOTFOUND" })
}

const dkimOf = async (raw: Buffer, publicKeyBase64: string) => {
  const result = await authenticate(raw, {
    ip: "127.0.0.1",
    helo: "sender.test",
    sender: envelopeFromOf(ID),
    mta: "mx.example.net",
    resolver: dnsWith(publicKeyBase64),
    disableArc: true,
    disableDmarc: true,
    disableBimi: true,
  })
  return result.dkim.results
}

const lastReceived = () => peer.received[peer.received.length - 1]
const headerNames = (raw: Buffer) => {
  const head = raw.toString("utf8").split("\r\n\r\n")[0]
  return head.split("\r\n").filter((line) => !/^[ \t]/.test(line)).map((line) => line.slice(0, line.indexOf(":")))
}

describe("DECISIONS 8.3: the SMTP adapter sends over STARTTLS from the envelope sender `b+<id>@bounces.mail.svc.sa`", () => {
  it.live("the session is upgraded with STARTTLS, MAIL FROM is b+<id>@bounces.mail.svc.sa, RCPT is the one `to`", () =>
    Effect.gen(function* () {
      const before = peer.received.length
      const receipt = yield* send(emailOf())
      expect(peer.received.length).toBe(before + 1)
      const got = lastReceived()
      expect(got.secure).toBe(true)
      expect(got.mailFrom).toBe(`b+${ID}@bounces.mail.svc.sa`)
      expect(got.rcptTo).toEqual(["customer@example.net"])
      expect(receipt.providerMessageId).toBe(`<${ID}@${DOMAIN}>`)
    }))

  it.live("the message arrives with its from, to, subject, text, html and Message-ID <id@domain>", () =>
    Effect.gen(function* () {
      yield* send(emailOf())
      const parsed = yield* Effect.promise(() => simpleParser(lastReceived().raw))
      expect(parsed.from?.value).toEqual([{ address: `orders@${DOMAIN}`, name: "" }])
      expect(parsed.subject).toBe("طلبك رقم 42 في الطريق")
      expect(parsed.text?.trim()).toBe("Your order is on its way.")
      expect(parsed.html).toContain("<p>Your order is on its way.</p>")
      expect(parsed.messageId).toBe(`<${ID}@${DOMAIN}>`)
      expect(parsed.headers.get("to")).toMatchObject({ value: [{ address: "customer@example.net" }] })
    }))

  it.live("a text-only and an html-only message are each sent", () =>
    Effect.gen(function* () {
      yield* send(emailOf({ html: null }))
      expect((yield* Effect.promise(() => simpleParser(lastReceived().raw))).html).toBe(false)
      yield* send(emailOf({ text: null }))
      expect((yield* Effect.promise(() => simpleParser(lastReceived().raw))).html).toContain("<p>")
    }))
})

describe("DECISIONS 8.2: the message is DKIM-signed with its domain's key (`svc._domainkey.<domain>`)", () => {
  it.live("mailauth verifies the signature against the domain's `dkim` TXT record: pass, d=<domain>, s=svc", () =>
    Effect.gen(function* () {
      yield* send(emailOf())
      const results = yield* Effect.promise(() => dkimOf(lastReceived().raw, key.publicKeyBase64))
      expect(results).toHaveLength(1)
      expect(results[0].status.result).toBe("pass")
      expect(results[0].signingDomain).toBe(DOMAIN)
      expect(results[0].selector).toBe("svc")
    }))

  it.live("against another key the same message fails: the signature is the domain's own", () =>
    Effect.gen(function* () {
      yield* send(emailOf())
      const results = yield* Effect.promise(() => dkimOf(lastReceived().raw, otherKey.publicKeyBase64))
      expect(results[0].status.result).toBe("fail")
    }))
})

describe("TLS: STARTTLS is required and the certificate verified unless the settings say otherwise", () => {
  it.live("a server that offers no STARTTLS gets nothing when requireTLS (the default)", () =>
    Effect.gen(function* () {
      const plain = yield* Effect.promise(() => startSmtpPeer({ hideSTARTTLS: true, disabledCommands: ["STARTTLS"] }))
      yield* Effect.addFinalizer(() => Effect.promise(() => plain.close()))
      const error = yield* Effect.flip(send(emailOf(), { port: plain.port }))
      expect(error._tag).toBe("EmailProviderUnavailable")
      expect(plain.received).toHaveLength(0)
      yield* send(emailOf(), { port: plain.port, requireTLS: false })
      expect(plain.received.map((r) => r.secure)).toEqual([false])
    }).pipe(Effect.scoped))

  it.live("a self-signed certificate is refused when tlsRejectUnauthorized is true (the default)", () =>
    Effect.gen(function* () {
      const before = peer.received.length
      const error = yield* Effect.flip(send(emailOf(), { tlsRejectUnauthorized: undefined }))
      expect(error._tag).toBe("EmailProviderUnavailable")
      expect(peer.received.length).toBe(before)
    }))
})

describe("a 5xx reply is EmailRefused `smtp_<code>`; a 4xx reply, no connection or no answer is EmailProviderUnavailable", () => {
  const refusing = (refuse: SmtpPeer["refuse"], run: Effect.Effect<void, unknown>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => (peer.refuse = refuse)),
      () => run,
      () => Effect.sync(() => (peer.refuse = null)),
    )

  it.live("550 to RCPT TO → EmailRefused { providerCode: smtp_550 } with the server's reply", () =>
    refusing(
      { stage: "rcpt", code: 550, text: "5.1.1 No such user" },
      Effect.gen(function* () {
        const error = yield* Effect.flip(send(emailOf()))
        assert(error._tag === "EmailRefused")
        expect(error.providerCode).toBe("smtp_550")
        expect(error.message).toContain("No such user")
        expect(error.message).not.toMatch(/[\r\n]/)
      }),
    ))

  it.live("554 to DATA → smtp_554; 553 to MAIL FROM → smtp_553", () =>
    Effect.gen(function* () {
      yield* refusing(
        { stage: "data", code: 554, text: "5.7.1 Message rejected" },
        Effect.gen(function* () {
          const error = yield* Effect.flip(send(emailOf()))
          expect(error).toMatchObject({ _tag: "EmailRefused", providerCode: "smtp_554" })
        }),
      )
      yield* refusing(
        { stage: "mail", code: 553, text: "5.1.8 Sender refused" },
        Effect.gen(function* () {
          const error = yield* Effect.flip(send(emailOf()))
          expect(error).toMatchObject({ _tag: "EmailRefused", providerCode: "smtp_553" })
        }),
      )
    }))

  it.live("451 to RCPT TO (try later) → EmailProviderUnavailable", () =>
    refusing(
      { stage: "rcpt", code: 451, text: "4.3.0 Try again later" },
      Effect.gen(function* () {
        const error = yield* Effect.flip(send(emailOf()))
        expect(error._tag).toBe("EmailProviderUnavailable")
        expect(error.message).toContain("451")
      }),
    ))

  it.live("a closed port → EmailProviderUnavailable", () =>
    Effect.gen(function* () {
      const port = yield* Effect.promise(closedPort)
      const error = yield* Effect.flip(send(emailOf(), { port }))
      expect(error._tag).toBe("EmailProviderUnavailable")
      expect(error.message).toContain(`127.0.0.1:${port}`)
    }))

  it.live("a server that never greets → EmailProviderUnavailable after greetingTimeoutMs", () =>
    Effect.gen(function* () {
      const sockets = new Set<Socket>()
      const silent: Server = createServer((socket) => void sockets.add(socket))
      yield* Effect.promise(() => new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve())))
      yield* Effect.addFinalizer(() =>
        Effect.promise(() =>
          new Promise<void>((resolve) => {
            for (const s of sockets) s.destroy()
            silent.close(() => resolve())
          })
        )
      )
      const port = (silent.address() as { port: number }).port
      const started = Date.now()
      const error = yield* Effect.flip(send(emailOf(), { port, greetingTimeoutMs: 300 }))
      expect(error._tag).toBe("EmailProviderUnavailable")
      expect(Date.now() - started).toBeLessThan(5_000)
    }).pipe(Effect.scoped))

  it.live("an interrupted send lets go of its connection", () =>
    Effect.gen(function* () {
      const sockets: Array<Socket> = []
      const closed: Array<Socket> = []
      const silent: Server = createServer((socket) => {
        sockets.push(socket)
        socket.on("close", () => closed.push(socket))
      })
      yield* Effect.promise(() => new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", () => resolve())))
      yield* Effect.addFinalizer(() =>
        Effect.promise(() => new Promise<void>((resolve) => silent.close(() => resolve())))
      )
      const port = (silent.address() as { port: number }).port
      const fiber = yield* Effect.fork(send(emailOf(), { port, greetingTimeoutMs: 30_000 }))
      while (sockets.length === 0) yield* Effect.sleep("10 millis")
      yield* Fiber.interrupt(fiber)
      for (let i = 0; i < 200 && closed.length === 0; i++) yield* Effect.sleep("10 millis")
      expect(closed).toHaveLength(1)
    }).pipe(Effect.scoped))

  it.live("a refused login (535) is the platform's configuration, not the message's: EmailProviderUnavailable", () =>
    Effect.gen(function* () {
      const guarded = yield* Effect.promise(() =>
        startSmtpPeer({
          authOptional: false,
          onAuth: (_auth, _session, callback) => callback(new Error("Invalid username or password")),
        })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => guarded.close()))
      const error = yield* Effect.flip(send(emailOf(), { port: guarded.port, user: "platform", password: "wrong" }))
      expect(error._tag).toBe("EmailProviderUnavailable")
      expect(error.message).not.toContain("wrong")
      expect(guarded.received).toHaveLength(0)
    }).pipe(Effect.scoped))
})

describe("no header can be forged from a field", () => {
  it.live("a subject with \\r\\nBcc: is refused before any connection (invalid_header)", () =>
    Effect.gen(function* () {
      const connections = peer.connections()
      const error = yield* Effect.flip(send(emailOf({ subject: "Hello\r\nBcc: x@y.example" })))
      expect(error).toMatchObject({ _tag: "EmailRefused", providerCode: "invalid_header" })
      expect(peer.connections()).toBe(connections)
    }))

  it.live("so is a `to` or `from` with a line break", () =>
    Effect.gen(function* () {
      for (const over of [{ to: "a@example.net\nBcc: x@y.example" }, { from: `o@${DOMAIN}\r\nReply-To: x@y` }]) {
        const error = yield* Effect.flip(send(emailOf(over)))
        expect(error).toMatchObject({ _tag: "EmailRefused", providerCode: "invalid_header" })
      }
    }))

  it.live("the headers received are the message's own: one Subject, no Bcc, the DKIM signature first", () =>
    Effect.gen(function* () {
      yield* send(emailOf({ subject: "Hello Bcc: x@y.example" }))
      const raw = lastReceived().raw
      const names = headerNames(raw).map((n) => n.toLowerCase())
      expect(names[0]).toBe("dkim-signature")
      expect(names).not.toContain("bcc")
      expect(names.filter((n) => n === "subject")).toHaveLength(1)
      expect([...new Set(names)].sort()).toEqual(
        ["content-type", "date", "dkim-signature", "from", "message-id", "mime-version", "subject", "to"],
      )
      expect(lastReceived().rcptTo).toEqual(["customer@example.net"])
      const parsed = yield* Effect.promise(() => simpleParser(raw))
      expect(parsed.subject).toBe("Hello Bcc: x@y.example")
    }))
})

describe("settings from the environment: SMTP_HOST, SMTP_PORT, SMTP_USER, SMTP_PASSWORD, SMTP_TLS", () => {
  const read = (env: Record<string, string>) =>
    Effect.withConfigProvider(smtpSettingsFromEnv, ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("defaults: port 587, STARTTLS required, certificate verified, no AUTH", () =>
    Effect.gen(function* () {
      expect(yield* read({ SMTP_HOST: "smtp.example" })).toEqual({
        host: "smtp.example",
        port: 587,
        secure: false,
        requireTLS: true,
        tlsRejectUnauthorized: true,
      })
    }))

  it.effect("AUTH with a redacted password; implicit TLS; starttls-unverified", () =>
    Effect.gen(function* () {
      const s = yield* read({
        SMTP_HOST: "smtp.example",
        SMTP_PORT: "465",
        SMTP_USER: "platform",
        SMTP_PASSWORD: "secret",
        SMTP_TLS: "implicit",
      })
      expect(s).toMatchObject({ port: 465, secure: true, user: "platform" })
      assert(s.password !== undefined && Redacted.isRedacted(s.password))
      expect(Redacted.value(s.password)).toBe("secret")
      expect(yield* read({ SMTP_HOST: "h", SMTP_TLS: "starttls-unverified" })).toMatchObject({
        requireTLS: true,
        tlsRejectUnauthorized: false,
      })
    }))

  it.effect("no SMTP_HOST or an unknown SMTP_TLS is a configuration error", () =>
    Effect.gen(function* () {
      expect(String(yield* Effect.flip(read({})))).toContain("SMTP_HOST")
      expect(String(yield* Effect.flip(read({ SMTP_HOST: "h", SMTP_TLS: "none" })))).toContain("SMTP_TLS")
    }))
})
