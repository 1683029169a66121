/**
 * The lifecycle of a partner's client application (DECISIONS 13, 16, 18), as a pure function of (state, move,
 * now): the next state and the `service.*` events to fire, or the refusal. The use cases load the
 * application, call `decide`, and persist the state and the events in one transaction.
 *
 *   provision                          → pending                      (no event)
 *   console approve   pending, rejected → active                      approved       (active: no move)
 *   console reject    pending          → rejected                     rejected       (rejected: 409; approval withdrawn)
 *   name/website      active, rejected → pending                      review_requested (pending: no move)
 *   logo set/removed  rejected         → pending                      review_requested (active, pending: no move)
 *   appeal            rejected, appealable → pending                  review_requested (else 409 not_appealable)
 *   disable; resume   active; suspended → suspended; active           suspended; resumed (already so: no move)
 *   archive; restore  not archived; archived → archived; the state before   archived; restored
 *   guard pause; unpause  paused false; true → flipped                paused; unpaused (already so: no move)
 *   edit (external_id, settings, unchanged brand values)               no move in every state, never refused
 *
 * Brand changes on `suspended` or `archived`, and every other move from a state the table does not name,
 * are `409 invalid_state`. A move that changes nothing fires nothing.
 *
 * On a rejection that is not appealable, a brand change and a logo set or removed are refused as an appeal
 * is (`409 not_appealable`, DECISIONS 18). A rejection withdraws the approval (`approvedAt` null): only a
 * `pending` that came from `active` sends; one that came from `rejected` waits for the console's approval.
 */
import { Either } from "effect"
import type { Millis } from "../shared/brands.ts"

export const lifecycleStatuses = ["pending", "active", "rejected", "suspended", "archived"] as const
export type LifecycleStatus = (typeof lifecycleStatuses)[number]

/** `reason_code` of a rejection; the first four may be appealed. */
export const appealableReasons = [
  "website_unreachable",
  "brand_mismatch",
  "logo_unsuitable",
  "incomplete_information",
] as const
export const finalReasons = ["prohibited_business", "impersonation", "duplicate_application"] as const
export const reasonCodes = [...appealableReasons, ...finalReasons] as const
export type ReasonCode = (typeof reasonCodes)[number]
export const isAppealable = (reason: ReasonCode): boolean =>
  (appealableReasons as ReadonlyArray<string>).includes(reason)

/** What the lifecycle reads and writes of an application. */
export interface Lifecycle {
  readonly status: LifecycleStatus
  readonly paused: boolean
  /**
   * When the brand in effect was approved; null before the first approval and after a rejection. A `pending`
   * application with it set came from `active` and keeps sending while re-reviewed (DECISIONS 13, 18).
   */
  readonly approvedAt: Millis | null
  readonly reasonCode: ReasonCode | null
  readonly appealable: boolean
  /** The state an archived application returns to when restored. */
  readonly statusBeforeArchive: LifecycleStatus | null
}

/** What a review is asked for (`changed` of `service.review_requested`). */
export type ReviewChange = "name" | "website" | "logo" | "appeal"

export type Move =
  | { readonly _tag: "Approve" }
  | { readonly _tag: "Reject"; readonly reasonCode: ReasonCode }
  /** A name or website change; `changed` lists what actually changed (empty: unchanged values). */
  | { readonly _tag: "ChangeBrand"; readonly changed: ReadonlyArray<"name" | "website"> }
  /** A logo set or removed. */
  | { readonly _tag: "ChangeLogo" }
  | { readonly _tag: "Appeal" }
  | { readonly _tag: "Disable" }
  | { readonly _tag: "Resume" }
  | { readonly _tag: "Archive" }
  | { readonly _tag: "Restore" }
  | { readonly _tag: "Pause" }
  | { readonly _tag: "Unpause" }
  /** An edit that is no move (an `external_id`, Verify settings, brand values unchanged): never refused. */
  | { readonly _tag: "Edit" }

export type ServiceEventName =
  | "service.approved"
  | "service.rejected"
  | "service.suspended"
  | "service.resumed"
  | "service.paused"
  | "service.unpaused"
  | "service.review_requested"
  | "service.archived"
  | "service.restored"

/** An event to fire: its name, and the extras of its `data` beyond the application's fields. */
export interface LifecycleEvent {
  readonly event: ServiceEventName
  readonly previousStatus: LifecycleStatus
  readonly extra: Readonly<Record<string, unknown>>
}

export interface Decision {
  readonly next: Lifecycle
  readonly events: ReadonlyArray<LifecycleEvent>
}

export type Refusal =
  | { readonly _tag: "InvalidState"; readonly status: LifecycleStatus }
  | { readonly _tag: "NotAppealable"; readonly status: LifecycleStatus }

/** A freshly provisioned application. */
export const provisioned: Lifecycle = {
  status: "pending",
  paused: false,
  approvedAt: null,
  reasonCode: null,
  appealable: false,
  statusBeforeArchive: null,
}

/** Whether codes go out (DECISIONS 13, 18): `active`, or `pending` under re-review of an approved brand. */
export const sends = (l: Lifecycle): boolean =>
  l.status === "active" || (l.status === "pending" && l.approvedAt !== null)

const unchanged = (l: Lifecycle): Either.Either<Decision, Refusal> => Either.right({ next: l, events: [] })
const invalid = (l: Lifecycle): Either.Either<Decision, Refusal> =>
  Either.left({ _tag: "InvalidState", status: l.status })
const notAppealable = (l: Lifecycle): Either.Either<Decision, Refusal> =>
  Either.left({ _tag: "NotAppealable", status: l.status })
/** Rejected for a reason that may not be appealed: nothing the partner changes reopens the review. */
const finallyRejected = (l: Lifecycle) => l.status === "rejected" && !l.appealable

const moved = (
  from: Lifecycle,
  next: Lifecycle,
  event: ServiceEventName,
  extra: Record<string, unknown> = {},
): Either.Either<Decision, Refusal> => Either.right({ next, events: [{ event, previousStatus: from.status, extra }] })

const toReview = (l: Lifecycle, changed: ReadonlyArray<ReviewChange>) =>
  moved(l, { ...l, status: "pending", reasonCode: null, appealable: false }, "service.review_requested", {
    changed: [...changed],
  })

export const decide = (l: Lifecycle, move: Move, now: Millis): Either.Either<Decision, Refusal> => {
  switch (move._tag) {
    case "Approve":
      if (l.status === "active") return unchanged(l)
      if (l.status !== "pending" && l.status !== "rejected") return invalid(l)
      return moved(l, {
        ...l,
        status: "active",
        approvedAt: l.approvedAt ?? now,
        reasonCode: null,
        appealable: false,
      }, "service.approved")
    case "Reject": {
      if (l.status !== "pending") return invalid(l)
      const appealable = isAppealable(move.reasonCode)
      const next: Lifecycle = { ...l, status: "rejected", approvedAt: null, reasonCode: move.reasonCode, appealable }
      return moved(l, next, "service.rejected", {
        reason_code: move.reasonCode,
        appealable,
      })
    }
    case "ChangeBrand":
      if (l.status === "suspended" || l.status === "archived") return invalid(l)
      if (move.changed.length === 0 || l.status === "pending") return unchanged(l)
      if (finallyRejected(l)) return notAppealable(l)
      return toReview(l, move.changed)
    case "ChangeLogo":
      if (l.status === "suspended" || l.status === "archived") return invalid(l)
      if (l.status !== "rejected") return unchanged(l)
      if (finallyRejected(l)) return notAppealable(l)
      return toReview(l, ["logo"])
    case "Appeal":
      if (l.status !== "rejected" || !l.appealable) return notAppealable(l)
      return toReview(l, ["appeal"])
    case "Disable":
      if (l.status === "suspended") return unchanged(l)
      if (l.status !== "active") return invalid(l)
      return moved(l, { ...l, status: "suspended" }, "service.suspended")
    case "Resume":
      if (l.status === "active") return unchanged(l)
      if (l.status !== "suspended") return invalid(l)
      return moved(l, { ...l, status: "active" }, "service.resumed")
    case "Archive":
      if (l.status === "archived") return unchanged(l)
      return moved(l, { ...l, status: "archived", statusBeforeArchive: l.status }, "service.archived")
    case "Restore":
      if (l.status !== "archived") return invalid(l)
      return moved(
        l,
        { ...l, status: l.statusBeforeArchive ?? "pending", statusBeforeArchive: null },
        "service.restored",
      )
    case "Pause":
      if (l.paused) return unchanged(l)
      return moved(l, { ...l, paused: true }, "service.paused", { paused: true })
    case "Unpause":
      if (!l.paused) return unchanged(l)
      return moved(l, { ...l, paused: false }, "service.unpaused", { paused: false })
    case "Edit":
      return unchanged(l)
  }
}
