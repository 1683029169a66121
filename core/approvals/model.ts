/**
 * Approvals of account-API operations (DECISIONS 11): a person asks, the account's owner decides in the
 * console, the same request sent again runs once.
 */
import { Approvals } from "../limits.ts"
import type { AccountId, Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"

/** As stored. `expired` is not stored: it is read from `expiresAt` (24 h after creation, approved or not). */
export type StoredApprovalStatus = "pending" | "approved" | "denied" | "used"
export type ApprovalStatus = StoredApprovalStatus | "expired"

/** The request an approval is bound to, as routed: path, query and body as JSON values (`body` null for reads). */
export interface ApprovalInput {
  readonly path: Readonly<Record<string, string>>
  readonly query: Readonly<Record<string, string>>
  readonly body: unknown
}

export interface Approval {
  readonly id: string
  readonly accountId: AccountId
  readonly operation: string
  readonly input: ApprovalInput
  /** `canonical(input)`: what a resend must match (key order ignored). */
  readonly inputKey: string
  /** The `Idempotency-Key` it was asked under, if any. */
  readonly idempotencyKey: string | null
  /** The person who asked (the token's member id). */
  readonly requestedBy: string | null
  readonly status: StoredApprovalStatus
  readonly createdAt: Millis
  readonly expiresAt: Millis
  readonly decidedAt: Millis | null
  readonly note: string | null
}

/** The status as answered at `now`: a pending or approved approval past its expiry is `expired`. */
export const statusAt = (a: Approval, now: Millis): ApprovalStatus =>
  (a.status === "pending" || a.status === "approved") && now >= a.expiresAt ? "expired" : a.status

/** JSON with object keys sorted at every level: the same input written in any key order is one text. */
export const canonical = (value: unknown): string =>
  JSON.stringify(
    value,
    (_key, v) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]))
        : v,
  )

/**
 * Whether an approval asked under `asked` may run a resend under `sent` (DECISIONS 16): one asked under K runs
 * when resent with K or with none; one asked with none runs when resent with any key or none.
 */
export const keysMatch = (asked: string | null, sent: string | null): boolean =>
  asked === null || sent === null || asked === sent

export const newApproval = (
  fields: Omit<Approval, "status" | "expiresAt" | "decidedAt" | "note" | "inputKey">,
): Approval => ({
  ...fields,
  inputKey: canonical(fields.input),
  status: "pending",
  expiresAt: fields.createdAt + Approvals.ttlMs,
  decidedAt: null,
  note: null,
})

/** The approval as `approvals.show` and the console answer it. */
export const approvalJson = (a: Approval, now: Millis) => ({
  id: a.id,
  status: statusAt(a, now),
  operation: a.operation,
  input: a.input,
  created_at: isoMillis(a.createdAt),
  expires_at: isoMillis(a.expiresAt),
  decided_at: a.decidedAt === null ? null : isoMillis(a.decidedAt),
  note: a.note,
})
