/**
 * The chat network (DECISIONS 7): each application's connected number, its templates, template sends, session
 * messages (the auto-attendant's replies) and what the network sends back (status reports, customers' messages).
 * Adapters: the simulator (DECISIONS 7.4, adapters/chat/simulator.ts) and the WhatsApp Cloud API
 * (adapters/chat/cloud-api.ts), selected by `CHAT_PROVIDER`.
 */
import { Context, Data, type Effect, type Option } from "effect"
import type { MessageError, NetworkTemplate, ReportStatus, TemplateWrite } from "../core/notifications/model.ts"
import type { ApplicationId, SaudiMobile } from "../core/shared/brands.ts"

/** An application's number on the network. */
export interface ChatNumber {
  /** E.164, as the network shows it. */
  readonly number: string
  /** Whether the network reports it connected (a disconnected number sends nothing: `409 number_disconnected`). */
  readonly connected: boolean
}

/** One template message to send, its parameters already checked against the template. */
export interface TemplateSend {
  readonly application: ApplicationId
  /** The platform's message id (the network echoes it back where it can: the Cloud API's callback data). */
  readonly messageId: string
  readonly to: SaudiMobile
  /** The language of the template being sent, as the network holds it. */
  readonly template: NetworkTemplate
  /** Every placeholder's value by its key (`order_id`, `"1"`, `header`, `button_<index>`, `code`). */
  readonly params: Readonly<Record<string, string>>
  /** An image header's link; null for templates without one. */
  readonly headerImageLink: string | null
  /** The body with its placeholders filled (the simulator's log shows it). */
  readonly text: string
}

/** A choice to tap beneath a session message: a tap comes back as an inbound message whose `choiceId` is its id. */
export interface SessionChoice {
  readonly id: string
  readonly title: string
  readonly description: string | null
}

/**
 * A free-form message to a customer inside the network's customer-service window (the Cloud API's 24 hours after
 * the customer's last message): text, with the choices to tap beneath it (none: plain text). The auto-attendant's
 * greeting, its menus' levels and its answers are these.
 */
export interface SessionSend {
  readonly application: ApplicationId
  /** The platform's id for the message (the simulator's log row is it). */
  readonly messageId: string
  readonly to: SaudiMobile
  readonly text: string
  readonly choices: ReadonlyArray<SessionChoice>
  /** The label of the button that opens a list of choices (the Cloud API's list `action.button`, ≤ 20). */
  readonly listButton: string
  /** Who on the platform sends it (`attendant`): the simulator's log shows it where a template's name goes. */
  readonly source: string
  /** The language it is written in (the simulator's log shows it). */
  readonly lang: string
}

export interface ChatReceipt {
  /** The network's id for the message: its status reports name it. */
  readonly providerMessageId: string
}

/** The network refused the message or did not answer: `502 send_failed` with these fields, the fee refunded. */
export class ChatSendRefused extends Data.TaggedError("ChatSendRefused")<{
  readonly providerCode: string
  readonly message: string
}> {}

/** The network did not answer a read or write of templates (or of the number): `503 templates_unavailable`. */
export class ChatNetworkUnavailable extends Data.TaggedError("ChatNetworkUnavailable")<{
  readonly message: string
}> {}

/**
 * A template write that found the network holding otherwise than the caller read it (its list is cached up to 5
 * minutes): a create whose name and language already exist, or an edit of one that no longer does. Nothing was
 * written: a create never becomes an overwrite.
 */
export class ChatTemplateConflict extends Data.TaggedError("ChatTemplateConflict")<{
  readonly mode: "create" | "edit"
}> {}

/** A status report from the network, about a message it accepted. */
export interface NetworkReport {
  readonly providerMessageId: string
  readonly status: ReportStatus
  /** The failure's reason (`failed` only); null when the network gave none. */
  readonly error: MessageError | null
}

/** A customer's message to an application's number. */
export interface NetworkInbound {
  readonly application: ApplicationId
  readonly from: SaudiMobile
  readonly name: string | null
  readonly text: string | null
  /** The id of a tapped choice (an interactive reply), if the message is one. */
  readonly choiceId: string | null
  /** The network's own opt-out signal (an opt-out button, error 131050), besides STOP words in `text`. */
  readonly optOut: boolean
}

/** What a network webhook delivery carried, once its signature is verified. */
export interface NetworkCallbacks {
  readonly reports: ReadonlyArray<NetworkReport>
  readonly inbound: ReadonlyArray<NetworkInbound>
}

/** A webhook request as the network sent it (the raw body: its signature covers the bytes). */
export interface NetworkWebhookRequest {
  readonly method: string
  readonly query: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** How to answer the network's webhook request, and what it carried. */
export interface NetworkWebhookAnswer {
  readonly status: number
  /** Plain text (the subscription challenge) or empty. */
  readonly body: string
  readonly callbacks: NetworkCallbacks
}

export class ChatNetwork extends Context.Tag("ports/ChatNetwork")<ChatNetwork, {
  /** The application's number, none when none is attached. */
  readonly number: (application: ApplicationId) => Effect.Effect<Option.Option<ChatNumber>, ChatNetworkUnavailable>
  /**
   * Every template of the application's number, every language (a real adapter caches the list ≤ 5 minutes;
   * `fresh`: read from the network whatever the cache holds, and cache that: a store's templates refresh).
   */
  readonly templates: (
    application: ApplicationId,
    options?: { readonly fresh?: boolean },
  ) => Effect.Effect<ReadonlyArray<NetworkTemplate>, ChatNetworkUnavailable>
  /**
   * Submits a new template language (`create`) or an edit of one (`edit`): it is `pending` on the network
   * afterwards. The network's own list decides, not a cached one: a `create` of a language it holds, or an `edit`
   * of one it does not, writes nothing and fails with `ChatTemplateConflict`.
   */
  readonly writeTemplate: (
    application: ApplicationId,
    template: TemplateWrite,
    mode: "create" | "edit",
  ) => Effect.Effect<void, ChatNetworkUnavailable | ChatTemplateConflict>
  /** Deletes every language of the named template. */
  readonly deleteTemplate: (application: ApplicationId, name: string) => Effect.Effect<void, ChatNetworkUnavailable>
  readonly send: (message: TemplateSend) => Effect.Effect<ChatReceipt, ChatSendRefused>
  /** Sends a session message (text, or interactive choices): refusals as `send`'s. */
  readonly sendSession: (message: SessionSend) => Effect.Effect<ChatReceipt, ChatSendRefused>
  /**
   * The network's webhook (the Cloud API's: subscription challenge, `X-Hub-Signature-256`), when the adapter has
   * one: the platform serves it and applies what it carried. The simulator has none (its console routes report).
   */
  readonly webhook: Option.Option<(request: NetworkWebhookRequest) => Effect.Effect<NetworkWebhookAnswer>>
}>() {}
