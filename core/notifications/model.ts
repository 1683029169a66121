/**
 * Notifications' model (DECISIONS 7): templates as the chat network holds them, one language at a time, and the
 * chat-app message with its statuses. Plain data shared by the core, the chat-network port and its adapters.
 */

export const templateCategories = ["utility", "marketing", "authentication"] as const
export type TemplateCategory = typeof templateCategories[number]

export const templateStatuses = ["pending", "approved", "rejected", "paused", "disabled"] as const
export type TemplateStatus = typeof templateStatuses[number]

export const mediaHeaderTypes = ["image", "video", "document"] as const
export type MediaHeaderType = typeof mediaHeaderTypes[number]

/** A template's header as written: text (up to one placeholder, keyed `header`) or a media kind. */
export type TemplateHeader =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: MediaHeaderType }

/**
 * A button as the network holds it. Write types are `quick_reply`, `url`, `phone_number`, `copy_code`, `otp`;
 * a network copy may also hold `flow` and `catalog` (the simulator's copies, DECISIONS 7.4).
 */
export interface TemplateButton {
  readonly type: string
  readonly text: string
  /** A URL button's address; a placeholder in it (`https://x.sa/track/{{1}}`) is the `button_<index>` parameter. */
  readonly url?: string | undefined
  readonly phone?: string | undefined
}

/** One language of one template, as the chat network holds it (the simulator's copy, the Cloud API's row). */
export interface NetworkTemplate {
  readonly name: string
  readonly lang: string
  readonly category: TemplateCategory
  readonly status: TemplateStatus
  /** Why it is rejected, paused or disabled; null otherwise. */
  readonly reason: string | null
  readonly body: string
  readonly header: TemplateHeader | null
  readonly footer: string | null
  readonly buttons: ReadonlyArray<TemplateButton>
}

/** What a template write (`POST`/`PUT /v1/chatmsg/templates`) gives the network: it arrives `pending`. */
export interface TemplateWrite {
  readonly name: string
  readonly lang: string
  readonly category: TemplateCategory
  readonly body: string
  readonly header: TemplateHeader | null
  readonly footer: string | null
  readonly buttons: ReadonlyArray<TemplateButton>
}

export const messageStatuses = ["accepted", "sent", "delivered", "read", "failed"] as const
export type MessageStatus = typeof messageStatuses[number]

/** The statuses a network report may carry (`accepted` is the platform's own first state). */
export const reportStatuses = ["sent", "delivered", "read", "failed"] as const
export type ReportStatus = typeof reportStatuses[number]

export interface MessageError {
  readonly code: string
  readonly message: string
}
