import type { AccountId, ApplicationId, Millis } from "../shared/brands.ts"

export type AccountStatus = "active" | "banned" | "suspended"

export interface Account {
  readonly id: AccountId
  readonly name: string
  readonly sandboxOnly: boolean
  readonly partner: boolean
  readonly status: AccountStatus
  readonly createdAt: Millis
}

/** `pending` until approved; a partner may disable, suspend or archive its client applications. */
export type ApplicationStatus = "pending" | "active" | "rejected" | "suspended" | "disabled" | "archived"

export interface Application {
  readonly id: ApplicationId
  readonly accountId: AccountId
  readonly name: string
  readonly status: ApplicationStatus
  readonly externalId: string | null
  /** Set by the protection guard; lifted by the account API's unpause. */
  readonly paused: boolean
  /** When the pause was last lifted: the guard counts only the sends after it. */
  readonly unpausedAt: Millis | null
  /**
   * When it was first approved. A `pending` application approved before (under re-review after a brand
   * change) keeps sending with live and partner keys (DECISIONS 13).
   */
  readonly approvedAt: Millis | null
  readonly createdAt: Millis
}
