/** Chat's tables (DECISIONS 9.1, 9.2): conversation menus, each application's auto-attendant and its versions. */
import { Context, type Effect, type Option } from "effect"
import type { LiveMenu } from "../../core/chat/attendant.ts"
import type { ChatMenu } from "../../core/chat/menus.ts"
import type { Attendant } from "../../core/chat/model.ts"
import type { ApplicationId } from "../../core/shared/brands.ts"

export class ChatMenusRepo extends Context.Tag("ports/ChatMenusRepo")<ChatMenusRepo, {
  /** The app's menus of the application, oldest first. */
  readonly list: (applicationId: ApplicationId, appName: string) => Effect.Effect<ReadonlyArray<ChatMenu>>
  readonly get: (applicationId: ApplicationId, appName: string, id: string) => Effect.Effect<Option.Option<ChatMenu>>
  /**
   * Adds the menu unless the app already holds `max` of the application's: false then, nothing added. Two adds
   * racing for the last place: one is added.
   */
  readonly insert: (menu: ChatMenu, max: number) => Effect.Effect<boolean>
  /** Replaces the title, url and `updatedAt` of the app's menu. */
  readonly update: (menu: ChatMenu) => Effect.Effect<void>
  /** Removes the app's menu: false when it was not there. */
  readonly remove: (applicationId: ApplicationId, appName: string, id: string) => Effect.Effect<boolean>
}>() {}

export class ChatAttendantsRepo extends Context.Tag("ports/ChatAttendantsRepo")<ChatAttendantsRepo, {
  /**
   * The application's attendant, none if nothing was ever saved. `forUpdate`: held until the transaction ends,
   * so that two writes of one attendant (two publishes) follow each other.
   */
  readonly get: (applicationId: ApplicationId, forUpdate?: boolean) => Effect.Effect<Option.Option<Attendant>>
  /** Writes its settings and draft (not its live version: `publish`). */
  readonly save: (attendant: Attendant) => Effect.Effect<void>
  /** Makes `live` the live version and keeps it among the versions (a conversation keeps the one it began with). */
  readonly publish: (applicationId: ApplicationId, live: LiveMenu) => Effect.Effect<void>
  readonly version: (applicationId: ApplicationId, version: number) => Effect.Effect<Option.Option<LiveMenu>>
}>() {}
