/**
 * The chat-network simulator's state (DECISIONS 7.4), in the store so every process sees the same network:
 * each application's number, its templates as the network holds them, whether its template list can be read,
 * and the log of messages the network took.
 */
import { Context, type Effect, type Option } from "effect"
import type { NetworkTemplate } from "../../core/notifications/model.ts"
import type { ApplicationId, Millis, SaudiMobile } from "../../core/shared/brands.ts"
import type { ChatNumber } from "../chat-network.ts"

export interface SimulatedChatMessage {
  /** The platform's message id (the simulator's reports name it). */
  readonly id: string
  readonly applicationId: ApplicationId
  readonly to: SaudiMobile
  readonly template: string
  readonly lang: string
  readonly text: string
  readonly sentAt: Millis
}

export class SimulatedChatRepo extends Context.Tag("ports/SimulatedChatRepo")<SimulatedChatRepo, {
  readonly number: (applicationId: ApplicationId) => Effect.Effect<Option.Option<ChatNumber>>
  /** Attaches (or reconnects, or disconnects) a number; none detaches it. */
  readonly setNumber: (applicationId: ApplicationId, number: Option.Option<ChatNumber>) => Effect.Effect<void>
  /** Every language of every template, by name then language. */
  readonly templates: (applicationId: ApplicationId) => Effect.Effect<ReadonlyArray<NetworkTemplate>>
  /** Writes one language's network copy (made or replaced). */
  readonly putTemplate: (applicationId: ApplicationId, template: NetworkTemplate) => Effect.Effect<void>
  /** Deletes one language, or every language when `lang` is undefined; answers how many went. */
  readonly deleteTemplate: (
    applicationId: ApplicationId,
    name: string,
    lang: string | undefined,
  ) => Effect.Effect<number>
  readonly readable: (applicationId: ApplicationId) => Effect.Effect<boolean>
  readonly setReadable: (applicationId: ApplicationId, readable: boolean) => Effect.Effect<void>
  readonly logSend: (message: SimulatedChatMessage) => Effect.Effect<void>
  /** Newest first; every destination when `to` is undefined. */
  readonly listSent: (
    to: SaudiMobile | undefined,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<SimulatedChatMessage>>
}>() {}
