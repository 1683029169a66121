import type { AccountId, ApplicationId, Halalas, Millis, SaudiMobile, VerificationId } from "../shared/brands.ts"
import type { KeyMode } from "../shared/key-mode.ts"

export type VerificationStatus = "pending" | "verified" | "failed" | "expired" | "canceled"
export const terminalStatuses: ReadonlySet<VerificationStatus> = new Set(["verified", "failed", "expired", "canceled"])

export interface Verification {
  readonly id: VerificationId
  readonly applicationId: ApplicationId
  readonly accountId: AccountId
  readonly to: SaudiMobile
  readonly channel: "sms"
  readonly reference: string | null
  readonly clientIp: string | null
  readonly mode: KeyMode
  readonly status: VerificationStatus
  readonly attempts: number
  /** Snapshot of the application's setting when the code was started. */
  readonly maxAttempts: number
  readonly resends: number
  /** Keyed hash of the current code; the code itself is never stored. */
  readonly codeHash: string
  readonly expiresAt: Millis
  readonly verifiedAt: Millis | null
  readonly createdAt: Millis
  readonly updatedAt: Millis
}

/** One SMS that went out (start or resend): what the rolling caps, the day's spend and the guard count. */
export interface VerifySend {
  readonly verificationId: VerificationId
  readonly applicationId: ApplicationId
  readonly to: SaudiMobile
  readonly clientIp: string | null
  readonly priceHalalas: Halalas
  readonly sentAt: Millis
}

export interface GuardSettings {
  readonly enabled: boolean
  readonly min_sends: number
  readonly min_verified_percent: number
}

export interface VerifySettings {
  readonly code_length: number
  readonly code_lifetime_minutes: number
  readonly max_attempts: number
  readonly hourly_cap_per_destination: number
  readonly max_per_ip_per_hour: number
  readonly daily_spend_cap_halalas: number | null
  readonly guard: GuardSettings
}
