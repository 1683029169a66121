/**
 * A local stand-in for Unifonic's REST "Send message" API (`POST /rest/SMS/messages`), for tests.
 *
 * It follows https://docs.unifonic.com/reference/sms-api (request fields, success/error envelopes),
 * https://docs.unifonic.com/docs/understanding-reasons-of-sms-non-delivery (ER-xx codes) and
 * https://docs.unifonic.com/reference/http-status-codes (request-level HTTP statuses):
 *
 * - fields come form-encoded (query parameters are accepted too, as the OpenAPI lists them there);
 * - AppSid missing -> HTTP 402 "Missing parameter AppSid"; AppSid not the configured one -> HTTP 401
 *   "Authentication failed"; Recipient missing -> HTTP 422 "No recipient parameter specified"; Body missing or
 *   empty -> HTTP 421 "No message body specified". The docs give no body for these, so the stand-in answers
 *   with the title as plain text;
 * - Recipient not digits only (e.g. with `+`) -> `{ success: false, errorCode: "ER-02", message: "Invalid
 *   destination number" }`;
 * - otherwise the message is accepted, recorded, and answered with the documented success envelope,
 *   unless the test scripted something else for that Recipient (a refusal envelope, a bare HTTP status, or a
 *   hang that never answers).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"

/** The ER-xx refusals of https://docs.unifonic.com/docs/understanding-reasons-of-sms-non-delivery */
export const UnifonicErrors = {
  insufficientFunds: { errorCode: "ER-01", message: "No rate found or insufficient funds" },
  invalidDestination: { errorCode: "ER-02", message: "Invalid destination number" },
  destinationTooLong: { errorCode: "ER-03", message: "Invalid destination number (too long)" },
  /** The error example of https://docs.unifonic.com/reference/sms-api */
  destinationTooShort: { errorCode: "ER-04", message: "Dest num is too short" },
  noRoute: { errorCode: "ER-05", message: "No route found for the destination number" },
  invalidBody: { errorCode: "ER-06", message: "Invalid or empty message body" },
  filtered: { errorCode: "ER-07", message: "Message filtered" },
  invalidSenderId: { errorCode: "ER-08", message: "Invalid Sender ID" },
  duplicated: { errorCode: "ER-09", message: "Duplicated message" },
} as const

export type StandInScript =
  /** Answer with the refusal envelope `{ success: false, message, errorCode, data }`. */
  | {
    readonly kind: "refuse"
    readonly errorCode: string
    readonly message: string
    /** HTTP status of the envelope; 200 unless given. */
    readonly status?: number
    /** `data` of the envelope: `{}` (the documented example) unless given. */
    readonly data?: null | Record<string, never>
  }
  /** Answer with a bare HTTP status and a non-JSON body. */
  | { readonly kind: "http"; readonly status: number; readonly body?: string }
  /** Never answer (until the stand-in closes). */
  | { readonly kind: "hang" }

export interface StandInRequest {
  readonly method: string
  readonly path: string
  readonly contentType: string | undefined
  readonly accept: string | undefined
  /** All fields received, form body over query string. */
  readonly fields: Readonly<Record<string, string>>
}

export interface StandInMessage {
  readonly messageId: number
  readonly senderId: string
  readonly recipient: string
  readonly body: string
}

export interface UnifonicStandIn {
  /** e.g. `http://127.0.0.1:41234`; give it to the adapter as its base URL. */
  readonly baseUrl: string
  readonly appSid: string
  /** Every request that reached the stand-in, in order. */
  readonly requests: ReadonlyArray<StandInRequest>
  /** The messages it accepted, in order. */
  readonly messages: ReadonlyArray<StandInMessage>
  /** What to answer for this Recipient (digits, as sent) from now on. */
  readonly script: (recipient: string, script: StandInScript) => void
  readonly close: () => Promise<void>
}

export interface StandInOptions {
  /** The AppSid the stand-in accepts; defaults to `standin-app-sid`. */
  readonly appSid?: string
  /** The first MessageID it hands out; defaults to the documented example 42000348806924. */
  readonly firstMessageId?: number
  /** `success` of the success envelope: the docs show both `true` and `"true"`; defaults to `true`. */
  readonly successAs?: true | "true"
}

const json = (res: ServerResponse, status: number, payload: unknown): void => {
  const body = JSON.stringify(payload)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  })
  res.end(body)
}

const text = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")
const timeCreated = (d: Date): string =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
  `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`

export const startUnifonicStandIn = async (options: StandInOptions = {}): Promise<UnifonicStandIn> => {
  const appSid = options.appSid ?? "standin-app-sid"
  const successAs = options.successAs ?? true
  let nextMessageId = options.firstMessageId ?? 42000348806924
  const requests: Array<StandInRequest> = []
  const messages: Array<StandInMessage> = []
  const scripts = new Map<string, StandInScript>()
  const sockets = new Set<Socket>()

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://standin.local")
    const raw = await readBody(req)
    const fields: Record<string, string> = {}
    for (const [k, v] of url.searchParams) fields[k] = v
    const contentType = req.headers["content-type"]
    if (contentType?.startsWith("application/x-www-form-urlencoded")) {
      for (const [k, v] of new URLSearchParams(raw)) fields[k] = v
    }
    requests.push({ method: req.method ?? "", path: url.pathname, contentType, accept: req.headers["accept"], fields })

    if (url.pathname !== "/rest/SMS/messages") return text(res, 404, "Not Found")
    if (req.method !== "POST") return text(res, 405, "Method Not Allowed")

    const { AppSid, SenderID, Recipient, Body } = fields
    if (AppSid === undefined || AppSid === "") return text(res, 402, "Missing parameter AppSid")
    if (AppSid !== appSid) return text(res, 401, "Authentication failed")
    if (Recipient === undefined || Recipient === "") return text(res, 422, "No recipient parameter specified")
    if (Body === undefined || Body === "") return text(res, 421, "No message body specified")
    if (!/^\d+$/.test(Recipient)) {
      return json(res, 200, { success: false, ...UnifonicErrors.invalidDestination, data: null })
    }

    const script = scripts.get(Recipient)
    if (script?.kind === "hang") return // the socket stays open until close()
    if (script?.kind === "http") return text(res, script.status, script.body ?? "Internal Server Error")
    if (script?.kind === "refuse") {
      return json(res, script.status ?? 200, {
        success: false,
        message: script.message,
        errorCode: script.errorCode,
        data: script.data === undefined ? {} : script.data,
      })
    }

    const messageId = nextMessageId++
    messages.push({ messageId, senderId: SenderID ?? "", recipient: Recipient, body: Body })
    return json(res, 200, {
      success: successAs,
      message: "",
      errorCode: "ER-00",
      data: {
        MessageID: messageId,
        CorrelationID: fields["CorrelationID"] ?? "",
        Status: "Sent",
        NumberOfUnits: 1,
        Cost: 0.05,
        Balance: 100,
        Recipient: Recipient,
        TimeCreated: timeCreated(new Date()),
        CurrencyCode: "SAR",
      },
    })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) text(res, 500, "stand-in failure")
    })
  })
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    appSid,
    requests,
    messages,
    script: (recipient, script) => {
      scripts.set(recipient, script)
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** A local port nobody listens on (bound, then released), for "unreachable" tests. */
export const closedPort = async (): Promise<number> => {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
