/** The scopes Notifications adds (spec: API keys). */
import { scopes } from "../shared/scope.ts"

export const notificationsScopes = scopes([
  { scope: "notifications:read", includes: [], description: "Read templates and messages." },
  { scope: "notifications:send", includes: ["notifications:read"], description: "Send template messages." },
  {
    scope: "notifications:templates",
    includes: ["notifications:read"],
    connectedApp: true,
    description: "Write templates (a connected app's key, once the client approved).",
  },
])
