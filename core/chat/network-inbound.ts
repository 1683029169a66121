/**
 * The chat network's webhook (the Cloud API's: its subscription challenge and signed deliveries of status reports
 * and customers' messages). Notifications applies the reports and the consent words; each customer's message, a
 * text or an interactive reply (`button_reply` / `list_reply`, whose id is the choice's), then steps the customer's
 * conversation with the auto-attendant as the simulator's inbound route does (DECISIONS 9.3). Served here, after
 * both products in the list; `404 not_found` with a network that has none (the simulator).
 */
import { Effect, Either, Schema } from "effect"
import type { NetworkWebhookRequest } from "../../ports/chat-network.ts"
import { NotFound } from "../errors.ts"
import { Notifications } from "../notifications/service.ts"
import { operation, type RawInput } from "../pipeline/operation.ts"
import { untracedStacks } from "../shared/tracing.ts"
import { Conversations } from "./conversations.ts"

export class ChatNetworkInbound extends Effect.Service<ChatNetworkInbound>()("core/ChatNetworkInbound", {
  effect: Effect.gen(function* () {
    const notifications = yield* Notifications
    const conversations = yield* Conversations

    const webhook = Effect.fn("ChatNetworkInbound.webhook", untracedStacks)(function* (request: NetworkWebhookRequest) {
      const answer = yield* notifications.webhook(request)
      // A customer's message: not the network's own opt-out report about a send (no text, no choice).
      const messages = answer.callbacks.inbound.filter((m) => m.text !== null || m.choiceId !== null)
      yield* Effect.forEach(messages, (m) =>
        conversations.inbound({
          application: m.application,
          from: m.from,
          name: m.name,
          text: m.text,
          choiceId: m.choiceId,
        }), { discard: true })
      return answer
    })

    return { webhook } as const
  }),
}) {}

/** The request as the network's webhook handler takes it (ports/chat-network.ts). */
const webhookRequest = (method: string) => (raw: RawInput) =>
  Either.right({
    method,
    query: Object.fromEntries(raw.query),
    headers: { "x-hub-signature-256": raw.header?.("x-hub-signature-256") ?? "" },
    body: raw.text ?? "",
  })

const utf8 = new TextEncoder()
const plain = (answer: { readonly status: number; readonly body: string }) => ({
  status: answer.status,
  headers: { "content-type": "text/plain; charset=utf-8" },
  body: utf8.encode(answer.body),
})

/**
 * The chat network's webhook (the Cloud API's: its subscription challenge and signed deliveries of status
 * reports and customers' messages); `404 not_found` with a network that has none (the simulator).
 */
export const chatNetworkWebhookOperations = (["GET", "POST"] as const).map((method) =>
  operation({
    name: method === "GET" ? "chatmsg.network.webhook.verify" : "chatmsg.network.webhook.deliver",
    summary: method === "GET"
      ? "The chat network's subscription challenge (`hub.mode`, `hub.verify_token`, `hub.challenge`)."
      : "The chat network's signed deliveries (`X-Hub-Signature-256`): status reports and customers' messages.",
    method,
    path: "/v1/chatmsg/network/webhook",
    caller: { _tag: "Public" },
    parameters: [],
    body: undefined,
    decode: webhookRequest(method),
    output: Schema.Unknown,
    produces: ["text/plain"],
    errors: [NotFound],
    idempotent: false,
    service: ChatNetworkInbound,
    run: (n, _, request) => Effect.map(n.webhook(request), plain),
  })
)
