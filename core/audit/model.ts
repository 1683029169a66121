/**
 * The account's record of what was done to it (DECISIONS 9.3): every connected-app write, and every
 * account-API write a person's token made (actor `member`). Replays add nothing: only a call that ran is
 * recorded.
 */
import type { AccountId, Millis } from "../shared/brands.ts"
import { isoMillis } from "../shared/riyadh.ts"

export interface AuditActor {
  readonly type: "app" | "member"
  /** The member id of a person; null for an app. */
  readonly id: string | null
  /** The app's `app_name`, or the person's e-mail (null if the token has none). */
  readonly name: string | null
}

export interface AuditEntry {
  readonly id: string
  readonly accountId: AccountId
  readonly at: Millis
  readonly actor: AuditActor
  readonly applicationId: string | null
  readonly action: string
  readonly details: unknown
}

export const auditJson = (e: AuditEntry) => ({
  id: e.id,
  at: isoMillis(e.at),
  actor: e.actor.type === "app" ? { type: e.actor.type, name: e.actor.name } : { ...e.actor },
  application_id: e.applicationId,
  action: e.action,
  details: e.details,
})
