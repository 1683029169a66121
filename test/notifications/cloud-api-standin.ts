/**
 * A local stand-in for the WhatsApp Cloud API (Meta Graph API), for tests. It speaks what the adapter uses, as
 * documented by Meta (Cloud API reference, Business Management API message templates, webhooks):
 *
 * - every call needs `Authorization: Bearer <token>`, else the Graph envelope code 190 (HTTP 401);
 * - `GET /{phone-number-id}?fields=display_phone_number,status`;
 * - `GET /{waba-id}/message_templates` (`name` filter, `limit`, `after` cursor; `paging.cursors`, `paging.next`
 *   on all but the last page; the page size is small, to prove paging), `POST` to create (`PENDING`; an existing
 *   name and language: code 100, subcode 2388024), `POST /{template-id}` to edit (`PENDING` again),
 *   `DELETE /{waba-id}/message_templates?name=` (every language);
 * - `POST /{phone-number-id}/messages` with `messaging_product: "whatsapp"`, `type: "template"`: a template not
 *   held in that language is code 132001; the answer is `{ messaging_product, contacts, messages: [{ id }] }`;
 *   session messages, `type: "text"` or `"interactive"` (reply buttons, a list), checked against their limits;
 * - scripts per recipient (or per WABA / number for the other calls): a Graph error envelope, a bare HTTP status
 *   without one, or a hang;
 * - signed webhook deliveries (`X-Hub-Signature-256`) of statuses and inbound messages, as the adapter receives them.
 */
import { createHmac } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo, Socket } from "node:net"

export interface GraphErrorBody {
  readonly message: string
  readonly type: string
  readonly code: number
  readonly error_subcode?: number
  readonly error_data?: { readonly messaging_product: "whatsapp"; readonly details: string }
}

/** Error envelopes from the Cloud API's error-code reference. */
export const GraphErrors = {
  invalidToken: {
    message: "Invalid OAuth access token - Cannot parse access token",
    type: "OAuthException",
    code: 190,
  },
  reEngagement: {
    message: "(#131047) Re-engagement message",
    type: "OAuthException",
    code: 131047,
  },
  undeliverable: {
    message: "(#131026) Message Undeliverable",
    type: "OAuthException",
    code: 131026,
  },
  templateMissing: {
    message: "(#132001) Template name does not exist in the translation",
    type: "OAuthException",
    code: 132001,
  },
  userStoppedMarketing: {
    message: "(#131050) Unable to deliver the message. This recipient has chosen to stop receiving marketing messages",
    type: "OAuthException",
    code: 131050,
  },
  templateExists: {
    message: "Invalid parameter",
    type: "OAuthException",
    code: 100,
    error_subcode: 2388024,
  },
} as const satisfies Record<string, GraphErrorBody>

export type GraphScript =
  | { readonly kind: "refuse"; readonly error: GraphErrorBody; readonly status?: number }
  | { readonly kind: "http"; readonly status: number; readonly body?: string }
  | { readonly kind: "hang" }

export interface TemplateRow {
  readonly id: string
  readonly name: string
  readonly language: string
  readonly status: string
  readonly category: string
  readonly components: ReadonlyArray<Record<string, unknown>>
  readonly rejected_reason?: string
  readonly parameter_format?: string
}

export interface StandInRequest {
  readonly method: string
  readonly path: string
  readonly query: Readonly<Record<string, string>>
  readonly authorization: string | undefined
  readonly body: unknown
}

export interface StandInPhone {
  readonly display: string
  readonly status: string
  readonly wabaId: string
}

export interface SignedDelivery {
  readonly body: string
  readonly headers: Record<string, string>
}

export interface CloudApiStandIn {
  /** Give it to the adapter as its Graph URL (it ends in `/v21.0`). */
  readonly graphUrl: string
  readonly accessToken: string
  readonly appSecret: string
  readonly requests: ReadonlyArray<StandInRequest>
  /** The bodies of the messages it accepted, in order, with the id it gave each. */
  readonly messages: ReadonlyArray<{ readonly id: string; readonly body: Record<string, unknown> }>
  readonly phones: Map<string, StandInPhone>
  /** Templates held by WABA. */
  readonly templates: (wabaId: string) => Array<TemplateRow>
  readonly putTemplate: (wabaId: string, row: Omit<TemplateRow, "id"> & { readonly id?: string }) => TemplateRow
  /** What to answer for sends to this recipient (digits, as sent), or for calls naming this WABA or number id. */
  readonly script: (key: string, script: GraphScript | undefined) => void
  /** A delivery of these `value`s (one change each), signed with the app secret (or `secret`). */
  readonly delivery: (values: ReadonlyArray<Record<string, unknown>>, secret?: string) => SignedDelivery
  readonly close: () => Promise<void>
}

export interface StandInOptions {
  readonly accessToken?: string
  readonly appSecret?: string
  /** Rows per page of the template list (at most the caller's `limit`); defaults to 2. */
  readonly pageSize?: number
}

const json = (res: ServerResponse, status: number, payload: unknown): void => {
  const body = JSON.stringify(payload)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  })
  res.end(body)
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

const parse = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const length = (u: unknown): number => (typeof u === "string" ? [...u].length : -1)
const within = (u: unknown, max: number): boolean => length(u) >= 1 && length(u) <= max

/**
 * What is wrong with a session message (`type: text` or `interactive` button / list), by the Cloud API's limits:
 * text body ≤ 4096; interactive body ≤ 1024; 1-3 reply buttons, title ≤ 20, id ≤ 256, ids unique; a list's
 * button ≤ 20, 1-10 sections, 1-10 rows in all, row title ≤ 24, description ≤ 72, id ≤ 200, ids unique.
 */
export const sessionProblem = (body: Record<string, unknown>): string | undefined => {
  if (body["type"] === "text") {
    const text = isRecord(body["text"]) ? body["text"] : {}
    return within(text["body"], 4096) ? undefined : "text.body"
  }
  const i = isRecord(body["interactive"]) ? body["interactive"] : {}
  const text = isRecord(i["body"]) ? i["body"]["text"] : undefined
  if (!within(text, 1024)) return "interactive.body.text"
  const action = isRecord(i["action"]) ? i["action"] : {}
  const unique = (ids: ReadonlyArray<unknown>) => new Set(ids).size === ids.length
  if (i["type"] === "button") {
    const buttons = Array.isArray(action["buttons"]) ? action["buttons"].filter(isRecord) : []
    if (buttons.length < 1 || buttons.length > 3) return "action.buttons"
    const replies = buttons.map((b) => (b["type"] === "reply" && isRecord(b["reply"]) ? b["reply"] : {}))
    if (!replies.every((r) => within(r["id"], 256) && within(r["title"], 20))) return "action.buttons.reply"
    return unique(replies.map((r) => r["id"])) ? undefined : "action.buttons.reply.id"
  }
  if (i["type"] === "list") {
    if (!within(action["button"], 20)) return "action.button"
    const sections = Array.isArray(action["sections"]) ? action["sections"].filter(isRecord) : []
    if (sections.length < 1 || sections.length > 10) return "action.sections"
    if (sections.length > 1 && !sections.every((x) => within(x["title"], 24))) return "action.sections.title"
    const rows = sections.flatMap((x) => (Array.isArray(x["rows"]) ? x["rows"].filter(isRecord) : []))
    if (rows.length < 1 || rows.length > 10) return "action.sections.rows"
    const ok = rows.every((r) =>
      within(r["id"], 200) && within(r["title"], 24) && (r["description"] === undefined || within(r["description"], 72))
    )
    if (!ok) return "action.sections.rows"
    return unique(rows.map((r) => r["id"])) ? undefined : "action.sections.rows.id"
  }
  return "interactive.type"
}

export const startCloudApiStandIn = async (options: StandInOptions = {}): Promise<CloudApiStandIn> => {
  const accessToken = options.accessToken ?? "standin-access-token"
  const appSecret = options.appSecret ?? "standin-app-secret"
  const pageSize = options.pageSize ?? 2
  const requests: Array<StandInRequest> = []
  const messages: Array<{ id: string; body: Record<string, unknown> }> = []
  const phones = new Map<string, StandInPhone>()
  const wabas = new Map<string, Array<TemplateRow>>()
  const scripts = new Map<string, GraphScript>()
  const sockets = new Set<Socket>()
  let nextId = 1
  const fbtrace = () => `A${(nextId++).toString(36)}standin`

  const templatesOf = (wabaId: string): Array<TemplateRow> => {
    const held = wabas.get(wabaId) ?? []
    wabas.set(wabaId, held)
    return held
  }
  const graphError = (res: ServerResponse, status: number, error: GraphErrorBody) =>
    json(res, status, { error: { ...error, fbtrace_id: fbtrace() } })
  const play = (res: ServerResponse, script: GraphScript | undefined): boolean => {
    if (script === undefined) return false
    if (script.kind === "hang") return true // the socket stays open until close()
    if (script.kind === "http") {
      res.writeHead(script.status, { "content-type": "text/html" })
      res.end(script.body ?? "<html>Internal Server Error</html>")
      return true
    }
    graphError(res, script.status ?? 400, script.error)
    return true
  }
  const invalidParameter = (res: ServerResponse, message: string) =>
    graphError(res, 400, { message, type: "OAuthException", code: 100 })

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://standin.local")
    const raw = await readBody(req)
    const body = parse(raw)
    const query = Object.fromEntries(url.searchParams)
    const method = req.method ?? ""
    requests.push({ method, path: url.pathname, query, authorization: req.headers["authorization"], body })

    if (req.headers["authorization"] !== `Bearer ${accessToken}`) return graphError(res, 401, GraphErrors.invalidToken)
    const parts = url.pathname.replace(/^\/v\d+\.\d+\//, "").split("/").filter((p) => p !== "").map(
      decodeURIComponent,
    )

    // GET /{phone-number-id}
    if (parts.length === 1 && method === "GET" && phones.has(parts[0])) {
      if (play(res, scripts.get(parts[0]))) return
      const phone = phones.get(parts[0])!
      const fields = (query["fields"] ?? "display_phone_number").split(",")
      const row: Record<string, unknown> = { id: parts[0] }
      if (fields.includes("display_phone_number")) row["display_phone_number"] = phone.display
      if (fields.includes("status")) row["status"] = phone.status
      return json(res, 200, row)
    }

    // POST /{template-id}: edit
    if (parts.length === 1 && method === "POST") {
      for (const held of wabas.values()) {
        const index = held.findIndex((t) => t.id === parts[0])
        if (index < 0) continue
        if (!isRecord(body) || !Array.isArray(body["components"])) return invalidParameter(res, "Invalid parameter")
        held[index] = {
          ...held[index],
          components: body["components"],
          ...(typeof body["category"] === "string" ? { category: body["category"] } : {}),
          status: "PENDING",
          rejected_reason: "NONE",
        }
        return json(res, 200, { success: true })
      }
    }

    // /{waba-id}/message_templates
    if (parts.length === 2 && parts[1] === "message_templates") {
      const wabaId = parts[0]
      if (play(res, scripts.get(wabaId))) return
      const held = templatesOf(wabaId)
      if (method === "GET") {
        const filtered = held.filter((t) => query["name"] === undefined || t.name.includes(query["name"]))
        const size = Math.min(pageSize, Number(query["limit"] ?? "25"))
        const start = query["after"] === undefined ? 0 : Number(Buffer.from(query["after"], "base64url").toString())
        const page = filtered.slice(start, start + size)
        const fields = query["fields"]?.split(",")
        const data = page.map((t) =>
          fields === undefined ? t : Object.fromEntries(Object.entries(t).filter(([k]) => fields.includes(k)))
        )
        const cursor = (n: number) => Buffer.from(String(n)).toString("base64url")
        const more = start + size < filtered.length
        const next = new URL(url)
        next.searchParams.set("after", cursor(start + size))
        return json(res, 200, {
          data,
          paging: {
            cursors: { before: cursor(start), after: cursor(start + size) },
            ...(more ? { next: next.toString() } : {}),
          },
        })
      }
      if (method === "POST") {
        if (!isRecord(body)) return invalidParameter(res, "Invalid parameter")
        const { name, language, category, components } = body
        if (typeof name !== "string" || typeof language !== "string" || typeof category !== "string") {
          return invalidParameter(res, "Invalid parameter")
        }
        if (!["UTILITY", "MARKETING", "AUTHENTICATION"].includes(category) || !Array.isArray(components)) {
          return invalidParameter(res, "Invalid parameter")
        }
        if (held.some((t) => t.name === name && t.language === language)) {
          return graphError(res, 400, GraphErrors.templateExists)
        }
        const row = putTemplate(wabaId, { name, language, category, components, status: "PENDING" })
        return json(res, 200, { id: row.id, status: "PENDING", category })
      }
      if (method === "DELETE") {
        const name = query["name"]
        if (name === undefined || !held.some((t) => t.name === name)) {
          return graphError(res, 400, { message: "Message template not found", type: "OAuthException", code: 100 })
        }
        wabas.set(wabaId, held.filter((t) => t.name !== name))
        return json(res, 200, { success: true })
      }
    }

    // POST /{phone-number-id}/messages
    if (parts.length === 2 && parts[1] === "messages" && method === "POST") {
      const phone = phones.get(parts[0])
      if (phone === undefined) return invalidParameter(res, "Unsupported post request")
      if (!isRecord(body) || body["messaging_product"] !== "whatsapp") {
        return invalidParameter(res, "(#100) Invalid parameter")
      }
      const to = typeof body["to"] === "string" ? body["to"] : ""
      if (body["type"] === "text" || body["type"] === "interactive") {
        const problem = sessionProblem(body)
        if (problem !== undefined) return invalidParameter(res, `(#100) Invalid parameter: ${problem}`)
        if (play(res, scripts.get(to))) return
        const id = `wamid.HBgM${(nextId++).toString().padStart(6, "0")}`
        messages.push({ id, body })
        return json(res, 200, {
          messaging_product: "whatsapp",
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id }],
        })
      }
      if (body["type"] !== "template") return invalidParameter(res, "(#100) Invalid parameter")
      if (play(res, scripts.get(to))) return
      const template = isRecord(body["template"]) ? body["template"] : {}
      const language = isRecord(template["language"]) ? template["language"]["code"] : undefined
      const held = templatesOf(phone.wabaId).find((t) => t.name === template["name"] && t.language === language)
      if (held === undefined) return graphError(res, 404, GraphErrors.templateMissing)
      const id = `wamid.HBgM${(nextId++).toString().padStart(6, "0")}`
      messages.push({ id, body })
      return json(res, 200, {
        messaging_product: "whatsapp",
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id, message_status: "accepted" }],
      })
    }

    return graphError(res, 400, {
      message: "Unsupported request - method type: " + method.toLowerCase(),
      type: "GraphMethodException",
      code: 100,
      error_subcode: 33,
    })
  }

  const putTemplate = (wabaId: string, row: Omit<TemplateRow, "id"> & { readonly id?: string }): TemplateRow => {
    const held = templatesOf(wabaId)
    const full: TemplateRow = { ...row, id: row.id ?? String(900000 + nextId++) }
    const index = held.findIndex((t) => t.name === row.name && t.language === row.language)
    if (index >= 0) held[index] = full
    else held.push(full)
    return full
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, 500, {})
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
    graphUrl: `http://127.0.0.1:${port}/v21.0`,
    accessToken,
    appSecret,
    requests,
    messages,
    phones,
    templates: templatesOf,
    putTemplate,
    script: (key, script) => {
      if (script === undefined) scripts.delete(key)
      else scripts.set(key, script)
    },
    delivery: (values, secret = appSecret) => {
      const body = JSON.stringify({
        object: "whatsapp_business_account",
        entry: values.map((value, i) => ({
          id: `waba-${i}`,
          changes: [{ field: "messages", value: { messaging_product: "whatsapp", ...value } }],
        })),
      })
      const signature = createHmac("sha256", secret).update(body, "utf8").digest("hex")
      return { body, headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${signature}` } }
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

/** `metadata` of a change for this number. */
export const metadata = (phoneNumberId: string, display = "966112345678") => ({
  metadata: { display_phone_number: display, phone_number_id: phoneNumberId },
})
