/**
 * Whether an application has an online store connected for the assistant (DECISIONS 9.5): an `assistant` choice
 * of the attendant's menu needs one (`no_assistant`). Chat answers it from its connected stores
 * (core/chat/stores.ts `AssistantStoresLive`).
 */
import { Context, type Effect } from "effect"
import type { ApplicationId } from "../core/shared/brands.ts"

export class AssistantStores extends Context.Tag("ports/AssistantStores")<AssistantStores, {
  readonly connected: (applicationId: ApplicationId) => Effect.Effect<boolean>
}>() {}
