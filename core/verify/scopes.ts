/** The scopes Verify adds (spec: API keys). */
import { scopes } from "../shared/scope.ts"

export const verifyScopes = scopes([
  { scope: "verify:check", includes: [], description: "Read and check verifications." },
  { scope: "verify:send", includes: ["verify:check"], description: "Start, resend and cancel verifications." },
])
