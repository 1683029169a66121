/** The scopes Email adds (spec: API keys). */
import { scopes } from "../shared/scope.ts"

export const emailScopes = scopes([
  { scope: "email:read", includes: [], description: "Read sender domains and messages." },
  { scope: "email:send", includes: ["email:read"], description: "Send e-mail." },
])
