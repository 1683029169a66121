/** The scopes Chat adds (spec: API keys). */
import { scopes } from "../shared/scope.ts"

export const chatScopes = scopes([
  {
    scope: "chat:menus",
    includes: [],
    connectedApp: true,
    description: "The conversation-menu operations (a connected app's key, once the client approved).",
  },
  {
    scope: "chat:attendant",
    includes: [],
    connectedApp: true,
    description: "The auto-attendant operations (a connected app's key, once the client approved).",
  },
])
