/** The scopes Reminders adds. */
import { scopes } from "../shared/scope.ts"

export const remindersScopes = scopes([
  { scope: "reminders:read", includes: [], description: "List an application's reminders." },
  { scope: "reminders:write", includes: ["reminders:read"], description: "Schedule reminders." },
])
