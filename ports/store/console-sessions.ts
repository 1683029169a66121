import { Context, type Effect } from "effect"
import type { Millis } from "../../core/shared/brands.ts"

/**
 * Console sessions signed out before they expired (docs/decisions.md, "The console as a web app"): a session is a
 * signed cookie that needs no store to be accepted, so its sign-out is written here for every process of the
 * deployment to refuse it. Read only by the console's pages, never by the API's requests.
 */
export class ConsoleSessionsRepo extends Context.Tag("ports/ConsoleSessionsRepo")<ConsoleSessionsRepo, {
  /** Records that the session `id` ended, to be refused until `until` (its expiry); drops entries past theirs. */
  readonly end: (id: string, until: Millis, now: Millis) => Effect.Effect<void>
  /** Whether the session `id` was signed out (and would not have expired yet at `now`). */
  readonly ended: (id: string, now: Millis) => Effect.Effect<boolean>
}>() {}
