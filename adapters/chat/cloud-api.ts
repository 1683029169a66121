/**
 * Chat-network adapter for the WhatsApp Cloud API (Meta Graph API), selected with `CHAT_PROVIDER=whatsapp_cloud`.
 *
 * - number: `GET /{phone-number-id}?fields=display_phone_number,status` (connected: `CONNECTED`), cached per
 *   application for at most 60 seconds of the Effect clock (the platform reads it before every send and template call).
 * - templates: `GET /{waba-id}/message_templates`, every page (`paging.next`, `after` cursor), cached per
 *   application for at most 5 minutes of the Effect clock; a write or delete here clears that application's copy.
 * - writeTemplate: `POST /{waba-id}/message_templates`, or `POST /{template-id}` when the name and language exist.
 * - deleteTemplate: `DELETE /{waba-id}/message_templates?name=` (every language).
 * - send: `POST /{phone-number-id}/messages`, `type: template` (adapters/chat/cloud-api-wire.ts builds the body).
 * - sendSession: the same, `type: text` or `type: interactive` (reply buttons or a list; cloud-api-wire.ts).
 * - webhook: the subscription challenge (`hub.mode`, `hub.verify_token`, `hub.challenge`) and deliveries signed
 *   `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body with the app secret>`.
 *
 * Refusals of a send: Graph error envelope → `ChatSendRefused { providerCode: String(error.code) }`; non-2xx
 * without one → `http_<status>`; no answer (transport failure, 10 s timeout) → `unreachable`. Any failure of the
 * other calls is `ChatNetworkUnavailable`. The access token and message texts are never logged or copied into errors.
 */
import { Notifications } from "../../core/limits.ts"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { createHmac, timingSafeEqual } from "node:crypto"
import { Clock, type ConfigError, Duration, Effect, Layer, Option, Redacted, Ref } from "effect"
import type { NetworkTemplate, TemplateWrite } from "../../core/notifications/model.ts"
import { ApplicationId } from "../../core/shared/brands.ts"
import {
  ChatNetwork,
  ChatNetworkUnavailable,
  type ChatNumber,
  type ChatReceipt,
  ChatSendRefused,
  ChatTemplateConflict,
  type NetworkWebhookAnswer,
  type NetworkWebhookRequest,
  type SessionSend,
  type TemplateSend,
} from "../../ports/chat-network.ts"
import {
  createBody,
  e164,
  graphError,
  isRecord,
  parseDelivery,
  parseJson,
  sendBody,
  sessionBody,
  templateFromRow,
  writeComponents,
} from "./cloud-api-wire.ts"

import { CLOUD_API_DEFAULT_GRAPH_URL, CloudApiConfigFromEnv } from "../config.ts"

export { CLOUD_API_DEFAULT_GRAPH_URL, CloudApiConfigFromEnv }
export const CLOUD_API_DEFAULT_TIMEOUT: Duration.DurationInput = Duration.seconds(10)
export const TEMPLATES_CACHE_TTL: Duration.Duration = Duration.millis(Notifications.templatesCacheMs)
export const NUMBER_CACHE_TTL: Duration.Duration = Duration.seconds(60)

/** One application's number on the Cloud API. */
export interface CloudApiNumber {
  readonly phoneNumberId: string
  readonly wabaId: string
}

export interface CloudApiConfig {
  readonly accessToken: string | Redacted.Redacted<string>
  /** The Meta app's secret: it signs webhook deliveries. */
  readonly appSecret: string | Redacted.Redacted<string>
  /** What the subscription challenge must carry as `hub.verify_token`. */
  readonly verifyToken: string | Redacted.Redacted<string>
  /** Defaults to `https://graph.facebook.com/v21.0`. */
  readonly graphUrl?: string
  /** Each platform application's number; an application absent here has none. */
  readonly numbers: Readonly<Record<string, CloudApiNumber>>
  /** How long one Graph call may take; defaults to 10 seconds. */
  readonly timeout?: Duration.DurationInput
}

const redacted = (s: string | Redacted.Redacted<string>) => Redacted.isRedacted(s) ? s : Redacted.make(s)

interface Answer {
  readonly status: number
  readonly json: unknown
}
type Failure = { readonly _tag: "Unreachable"; readonly message: string }

const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

const MAX_PAGES = 200

/** Builds the chat network from plain values; needs an `HttpClient` (see `layer` for a ready one). */
export const make = (config: CloudApiConfig): Effect.Effect<ChatNetwork["Type"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const token = redacted(config.accessToken)
    const appSecret = redacted(config.appSecret)
    const verifyToken = redacted(config.verifyToken)
    const base = (config.graphUrl ?? CLOUD_API_DEFAULT_GRAPH_URL).replace(/\/+$/, "")
    const timeout = Duration.decode(config.timeout ?? CLOUD_API_DEFAULT_TIMEOUT)
    const byPhoneNumberId = new Map(
      Object.entries(config.numbers).map(([app, n]) => [n.phoneNumberId, ApplicationId.make(app)]),
    )
    const cache = yield* Ref.make(
      new Map<string, { readonly at: number; readonly rows: ReadonlyArray<NetworkTemplate> }>(),
    )
    const numbers = yield* Ref.make(new Map<string, { readonly at: number; readonly number: ChatNumber }>())

    /** One Graph call: its status and JSON body, or why no answer came. */
    const graph = (
      method: "GET" | "POST" | "DELETE",
      path: string,
      options: { readonly query?: Record<string, string>; readonly body?: unknown } = {},
    ): Effect.Effect<Answer, Failure> => {
      const url = `${base}/${path}`
      const request = (method === "GET"
        ? HttpClientRequest.get(url)
        : method === "POST"
        ? HttpClientRequest.post(url)
        : HttpClientRequest.del(url)).pipe(
          HttpClientRequest.acceptJson,
          HttpClientRequest.bearerToken(Redacted.value(token)),
          HttpClientRequest.setUrlParams(options.query ?? {}),
          options.body === undefined
            ? (r) => r
            : HttpClientRequest.bodyUnsafeJson(options.body),
        )
      return client.execute(request).pipe(
        Effect.flatMap((response) =>
          Effect.map(response.text, (text) => ({ status: response.status, json: parseJson(text) }))
        ),
        Effect.mapError((error): Failure => ({
          _tag: "Unreachable",
          message: `WhatsApp Cloud API unreachable: ${error._tag}/${error.reason}`,
        })),
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: (): Failure => ({
            _tag: "Unreachable",
            message: `WhatsApp Cloud API gave no answer within ${Duration.format(timeout)}`,
          }),
        }),
      )
    }

    const unavailable = (what: string) => (answer: Answer): ChatNetworkUnavailable => {
      const error = graphError(answer.json)
      return new ChatNetworkUnavailable({
        message: error
          ? `WhatsApp Cloud API refused ${what} (${error.code}): ${error.message}`
          : `WhatsApp Cloud API answered HTTP ${answer.status} to ${what}`,
      })
    }
    /** A 2xx JSON answer, else `ChatNetworkUnavailable`. */
    const read = (what: string, call: Effect.Effect<Answer, Failure>) =>
      call.pipe(
        Effect.mapError((f) => new ChatNetworkUnavailable({ message: f.message })),
        Effect.flatMap((answer) =>
          answer.status >= 200 && answer.status < 300 && answer.json !== undefined
            ? Effect.succeed(answer.json)
            : Effect.fail(unavailable(what)(answer))
        ),
      )

    const numberOf = (application: string) =>
      Option.fromNullable(Object.hasOwn(config.numbers, application) ? config.numbers[application] : undefined)
    const requireNumber = (application: string) =>
      Option.match(numberOf(application), {
        onNone: () => Effect.fail(new ChatNetworkUnavailable({ message: "no WhatsApp number configured" })),
        onSome: Effect.succeed,
      })

    /** The number as the network shows it now; a read that fails is not kept. */
    const readNumber = (application: ApplicationId, n: CloudApiNumber) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const held = (yield* Ref.get(numbers)).get(application)
        if (held !== undefined && now - held.at < Duration.toMillis(NUMBER_CACHE_TTL)) return held.number
        const json = yield* read(
          "the number read",
          graph("GET", encodeURIComponent(n.phoneNumberId), { query: { fields: "display_phone_number,status" } }),
        )
        const row = isRecord(json) ? json : {}
        const display = typeof row["display_phone_number"] === "string" ? row["display_phone_number"] : ""
        const number: ChatNumber = { number: e164(display), connected: row["status"] === "CONNECTED" }
        yield* Ref.update(numbers, (m) => new Map(m).set(application, { at: now, number }))
        return number
      })

    const number = (application: ApplicationId) =>
      Option.match(numberOf(application), {
        onNone: () => Effect.succeed(Option.none<ChatNumber>()),
        onSome: (n) => Effect.map(readNumber(application, n), Option.some),
      }).pipe(Effect.withSpan("ChatNetwork.number", { attributes: { "chat.provider": "whatsapp_cloud" } }))

    /** Every row of the WABA's templates, following `paging.next` with the `after` cursor. */
    const rows = (wabaId: string, query: Record<string, string>) =>
      Effect.gen(function* () {
        const out: Array<Record<string, unknown>> = []
        let after: string | undefined
        for (let page = 0; page < MAX_PAGES; page++) {
          const json = yield* read(
            "the template list",
            graph("GET", `${encodeURIComponent(wabaId)}/message_templates`, {
              query: { limit: "100", ...query, ...(after !== undefined ? { after } : {}) },
            }),
          )
          const body = isRecord(json) ? json : {}
          if (Array.isArray(body["data"])) out.push(...body["data"].filter(isRecord))
          const paging = isRecord(body["paging"]) ? body["paging"] : {}
          const cursors = isRecord(paging["cursors"]) ? paging["cursors"] : {}
          if (typeof paging["next"] !== "string" || typeof cursors["after"] !== "string") return out
          after = cursors["after"]
        }
        return yield* Effect.fail(new ChatNetworkUnavailable({ message: "the template list has too many pages" }))
      })

    const templates = (application: ApplicationId, options?: { readonly fresh?: boolean }) =>
      Effect.gen(function* () {
        const n = Option.getOrUndefined(numberOf(application))
        if (n === undefined) return []
        const now = yield* Clock.currentTimeMillis
        const held = (yield* Ref.get(cache)).get(application)
        const cached = held !== undefined && now - held.at < Duration.toMillis(TEMPLATES_CACHE_TTL)
        if (cached && options?.fresh !== true) return held.rows
        const fetched = yield* rows(n.wabaId, {
          fields: "id,name,language,status,category,components,rejected_reason",
        })
        const list = fetched.map(templateFromRow).filter((t): t is NetworkTemplate => t !== null)
        yield* Ref.update(cache, (m) => new Map(m).set(application, { at: now, rows: list }))
        return list
      }).pipe(Effect.withSpan("ChatNetwork.templates", { attributes: { "chat.provider": "whatsapp_cloud" } }))

    const forget = (application: string) =>
      Ref.update(cache, (m) => {
        const next = new Map(m)
        next.delete(application)
        return next
      })

    const writeTemplate = (application: ApplicationId, template: TemplateWrite, mode: "create" | "edit") =>
      Effect.gen(function* () {
        const n = yield* requireNumber(application)
        // Read afresh, not from the cache: a stale list must not turn a create into an overwrite.
        const existing = (yield* rows(n.wabaId, { name: template.name, fields: "id,name,language" }))
          .find((row) => row["name"] === template.name && row["language"] === template.lang)
        const held = existing !== undefined && typeof existing["id"] === "string"
        if (held !== (mode === "edit")) return yield* new ChatTemplateConflict({ mode })
        if (held) {
          yield* read(
            "the template edit",
            // An edit gives the components only: name, language and category stay as the network holds them.
            graph("POST", encodeURIComponent(existing!["id"] as string), {
              body: { components: writeComponents(template) },
            }),
          )
        } else {
          yield* read(
            "the template creation",
            graph("POST", `${encodeURIComponent(n.wabaId)}/message_templates`, { body: createBody(template) }),
          )
        }
      }).pipe(
        Effect.ensuring(forget(application)),
        Effect.asVoid,
        Effect.withSpan("ChatNetwork.writeTemplate", { attributes: { "chat.provider": "whatsapp_cloud" } }),
      )

    const deleteTemplate = (application: ApplicationId, name: string) =>
      Effect.gen(function* () {
        const n = yield* requireNumber(application)
        yield* read(
          "the template deletion",
          graph("DELETE", `${encodeURIComponent(n.wabaId)}/message_templates`, { query: { name } }),
        )
      }).pipe(
        Effect.ensuring(forget(application)),
        Effect.withSpan("ChatNetwork.deleteTemplate", { attributes: { "chat.provider": "whatsapp_cloud" } }),
      )

    /** One `POST /{phone-number-id}/messages`: the network's id for the message, or its refusal. */
    const post = (application: ApplicationId, body: unknown): Effect.Effect<ChatReceipt, ChatSendRefused> =>
      Effect.gen(function* () {
        const n = Option.getOrUndefined(numberOf(application))
        if (n === undefined) {
          return yield* new ChatSendRefused({ providerCode: "no_number", message: "no WhatsApp number configured" })
        }
        const answer = yield* graph("POST", `${encodeURIComponent(n.phoneNumberId)}/messages`, { body }).pipe(
          Effect.mapError((f) => new ChatSendRefused({ providerCode: "unreachable", message: f.message })),
        )
        const error = graphError(answer.json)
        if (error !== undefined) return yield* new ChatSendRefused({ providerCode: error.code, message: error.message })
        if (answer.status < 200 || answer.status >= 300) {
          return yield* new ChatSendRefused({
            providerCode: `http_${answer.status}`,
            message: `WhatsApp Cloud API answered HTTP ${answer.status}`,
          })
        }
        const messages = isRecord(answer.json) && Array.isArray(answer.json["messages"]) ? answer.json["messages"] : []
        const id = isRecord(messages[0]) ? messages[0]["id"] : undefined
        if (typeof id !== "string" || id === "") {
          return yield* new ChatSendRefused({
            providerCode: "bad_response",
            message: "WhatsApp Cloud API accepted the message without an id",
          })
        }
        return { providerMessageId: id }
      })

    const send = (message: TemplateSend): Effect.Effect<ChatReceipt, ChatSendRefused> =>
      post(message.application, sendBody(message)).pipe(
        Effect.withSpan("ChatNetwork.send", { attributes: { "chat.provider": "whatsapp_cloud" } }),
      )

    const sendSession = (message: SessionSend): Effect.Effect<ChatReceipt, ChatSendRefused> =>
      post(message.application, sessionBody(message)).pipe(
        Effect.withSpan("ChatNetwork.sendSession", { attributes: { "chat.provider": "whatsapp_cloud" } }),
      )

    const none = { reports: [], inbound: [] }
    const webhook = (request: NetworkWebhookRequest): Effect.Effect<NetworkWebhookAnswer> =>
      Effect.sync((): NetworkWebhookAnswer => {
        if (request.method === "GET") {
          const ok = request.query["hub.mode"] === "subscribe" &&
            sameSecret(request.query["hub.verify_token"] ?? "", Redacted.value(verifyToken))
          return ok
            ? { status: 200, body: request.query["hub.challenge"] ?? "", callbacks: none }
            : { status: 403, body: "", callbacks: none }
        }
        if (request.method !== "POST") return { status: 405, body: "", callbacks: none }
        const header = Object.entries(request.headers)
          .find(([name]) => name.toLowerCase() === "x-hub-signature-256")?.[1] ?? ""
        const expected = `sha256=${
          createHmac("sha256", Redacted.value(appSecret)).update(request.body, "utf8").digest("hex")
        }`
        if (!sameSecret(header.toLowerCase(), expected)) return { status: 401, body: "", callbacks: none }
        const json = parseJson(request.body)
        if (!isRecord(json)) return { status: 400, body: "", callbacks: none }
        return { status: 200, body: "", callbacks: parseDelivery(json, (id) => byPhoneNumberId.get(id)) }
      })

    return ChatNetwork.of({
      number,
      templates,
      writeTemplate,
      deleteTemplate,
      send,
      sendSession,
      webhook: Option.some(webhook),
    })
  })

/** The chat network from plain values, on the platform `fetch` (Node, Deno, Bun). */
export const layer = (config: CloudApiConfig): Layer.Layer<ChatNetwork> =>
  Layer.effect(ChatNetwork, make(config)).pipe(Layer.provide(FetchHttpClient.layer))

/** Production layer (`CHAT_PROVIDER=whatsapp_cloud`): reads the environment, 10-second timeout per call. */
export const ChatNetworkCloudApi: Layer.Layer<ChatNetwork, ConfigError.ConfigError> = Layer.unwrapEffect(
  Effect.map(CloudApiConfigFromEnv, layer),
)
