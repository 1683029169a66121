/** Verify's events (spec Section 6): to the application's webhook, and the partner's when it subscribed. */
import { events } from "../shared/event.ts"
import { VerificationOutput } from "./operations.ts"

const note =
  "`data` is the verification; a partner account's copy (DECISIONS 13) adds `external_id` (the client application's, or null)."

export const verifyEvents = events([
  { name: "verification.verified", summary: `A code was checked right. ${note}`, data: VerificationOutput },
  { name: "verification.failed", summary: `The attempts ran out. ${note}`, data: VerificationOutput },
  { name: "verification.expired", summary: `The code expired unchecked. ${note}`, data: VerificationOutput },
])
