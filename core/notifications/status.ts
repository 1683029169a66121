/**
 * A chat-app message's status (DECISIONS 7.3, 17): `accepted` < `sent` < `delivered` < `read`, and `failed` from
 * any state before `read`. A network report moves it forward only, possibly skipping steps (only the event of
 * the state reached fires), while the message is followed: 48 hours from `created_at`.
 */
import { Notifications } from "../limits.ts"
import type { MessageError, MessageStatus, ReportStatus } from "./model.ts"

/** How long after `created_at` reports still count. */
/** DECISIONS 7.3's 48 hours, from the one limits table. */
export const followWindowMs = Notifications.followMs

export type MessageEvent = "message.sent" | "message.delivered" | "message.read" | "message.failed"

export type ReportOutcome =
  | "unchanged"
  | { readonly status: MessageStatus; readonly error: MessageError | null; readonly event: MessageEvent }

/** A `failed` report that gives no reason. */
export const noReasonGiven: MessageError = { code: "unknown", message: "No reason given." }

const rank: Record<MessageStatus, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 }

/** Whether nothing moves a message in `status` any more. */
export const isFinal = (status: MessageStatus): boolean => status === "read" || status === "failed"

/**
 * What a report does to the message at `now` (epoch ms). A report exactly 48 hours after `created_at` still
 * counts: "more than 48 h" is what the spec excludes, so the window is closed at its end.
 */
export const applyReport = (
  current: { readonly status: MessageStatus; readonly created_at: number },
  report: { readonly status: ReportStatus; readonly error: MessageError | null },
  now: number,
): ReportOutcome => {
  if (isFinal(current.status) || now - current.created_at > followWindowMs) return "unchanged"
  if (report.status === "failed") {
    return { status: "failed", error: report.error ?? noReasonGiven, event: "message.failed" }
  }
  if (rank[report.status] <= rank[current.status]) return "unchanged"
  return { status: report.status, error: null, event: `message.${report.status}` }
}
