/**
 * A local SMTP server (smtp-server) for the SMTP adapter's tests: STARTTLS with a certificate made at test time
 * (openssl, when the machine has it; smtp-server's bundled self-signed one otherwise), every message kept with its
 * envelope and whether the session was upgraded; `refuse` answers MAIL FROM, RCPT TO or DATA with a code.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SMTPServer, type SMTPServerOptions } from "smtp-server"

export interface Received {
  readonly mailFrom: string
  readonly rcptTo: ReadonlyArray<string>
  /** Whether the session was on TLS when the message came (after STARTTLS). */
  readonly secure: boolean
  readonly raw: Buffer
}

export interface SmtpPeer {
  readonly port: number
  readonly received: Array<Received>
  /** Sessions opened (a refused send before connecting opens none). */
  readonly connections: () => number
  refuse: { readonly stage: "mail" | "rcpt" | "data"; readonly code: number; readonly text: string } | null
  readonly close: () => Promise<void>
}

/** A certificate for `localhost`, made with openssl in a temporary directory; undefined when openssl is missing. */
export const selfSignedCert = (): { readonly key: Buffer; readonly cert: Buffer } | undefined => {
  const dir = mkdtempSync(join(tmpdir(), "smtp-cert-"))
  try {
    execFileSync("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ], { stdio: "ignore" })
    return { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }
  } catch {
    return undefined
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const replyError = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code })

export const startSmtpPeer = async (options: Partial<SMTPServerOptions> = {}): Promise<SmtpPeer> => {
  const received: Array<Received> = []
  let connections = 0
  const cert = selfSignedCert()
  const peer: { refuse: SmtpPeer["refuse"] } = { refuse: null }
  const server = new SMTPServer({
    ...(cert ?? {}),
    authOptional: true,
    logger: false,
    onConnect: (_session, callback) => {
      connections++
      callback()
    },
    onMailFrom: (_address, _session, callback) =>
      peer.refuse?.stage === "mail" ? callback(replyError(peer.refuse.code, peer.refuse.text)) : callback(),
    onRcptTo: (_address, _session, callback) =>
      peer.refuse?.stage === "rcpt" ? callback(replyError(peer.refuse.code, peer.refuse.text)) : callback(),
    onData: (stream, session, callback) => {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        if (peer.refuse?.stage === "data") return callback(replyError(peer.refuse.code, peer.refuse.text))
        received.push({
          mailFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          raw: Buffer.concat(chunks),
        })
        callback()
      })
    },
    ...options,
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const port = (server.server.address() as AddressInfo).port
  return Object.assign(peer, {
    port,
    received,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}

/** A port nothing listens on (opened, read, closed). */
export const closedPort = async (): Promise<number> => {
  const { createServer } = await import("node:net")
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", () => resolve()))
  const port = (s.address() as AddressInfo).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}
