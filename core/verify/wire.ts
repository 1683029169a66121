/** The verification object of the spec's Resources table, as the API and the events show it. */
import { isoMillis } from "../shared/riyadh.ts"
import type { Verification } from "./model.ts"

export const verificationJson = (v: Verification) => ({
  id: v.id,
  status: v.status,
  application_id: v.applicationId,
  reference: v.reference,
  channel: v.channel,
  to: v.to,
  mode: v.mode,
  attempts: v.attempts,
  expires_at: isoMillis(v.expiresAt),
  verified_at: v.verifiedAt === null ? null : isoMillis(v.verifiedAt),
  created_at: isoMillis(v.createdAt),
})
