/** Email's model (DECISIONS 8): account access, sender domains with their DNS records, messages and statuses. */
import type { AccountId, ApplicationId, Millis } from "../shared/brands.ts"

export const accessStatuses = ["none", "pending", "granted", "denied"] as const
export type AccessStatus = typeof accessStatuses[number]

export interface EmailAccess {
  readonly accountId: AccountId
  readonly status: AccessStatus
  readonly requestedAt: Millis | null
  readonly decidedAt: Millis | null
}

export const domainStatuses = ["pending", "verified", "failed"] as const
export type DomainStatus = typeof domainStatuses[number]

export type RecordPurpose = "spf" | "dkim" | "return_path"

/** One DNS record a sender domain must publish, and whether the last check found it. */
export interface DomainRecord {
  readonly purpose: RecordPurpose
  readonly type: "TXT" | "CNAME"
  readonly name: string
  readonly value: string
  readonly verified: boolean
}

export interface SenderDomain {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly domain: string
  readonly status: DomainStatus
  readonly records: ReadonlyArray<DomainRecord>
  /** The DKIM private key (PKCS#8 PEM), sealed with the platform's secret: never answered, never logged. */
  readonly dkimPrivateKeySealed: string
  /** When it fails unless verified (restarted by adding it again once failed). */
  readonly pendingUntil: Millis
  readonly verifiedAt: Millis | null
  /** The last DNS check (the next is 10 minutes of platform time later while pending). */
  readonly checkedAt: Millis
  readonly createdAt: Millis
}

export const emailStatuses = ["sent", "delivered", "bounced", "failed"] as const
export type EmailStatus = typeof emailStatuses[number]

export interface EmailMessage {
  readonly id: string
  readonly applicationId: ApplicationId
  readonly accountId: AccountId
  readonly from: string
  readonly to: string
  readonly subject: string
  readonly reference: string | null
  readonly status: EmailStatus
  readonly complained: boolean
  readonly test: boolean
  readonly domainId: string
  readonly domain: string
  readonly providerMessageId: string | null
  readonly createdAt: Millis
  readonly updatedAt: Millis
}

/** The list's `status` filter: a status, `undelivered` (bounced or failed), or `complained`. */
export const listStatuses = ["delivered", "sent", "undelivered", "complained", "bounced", "failed"] as const
export type ListStatus = typeof listStatuses[number]
