/** `service.*` events: moves of an application that reach the partner account's webhook. */
import { Effect } from "effect"
import { OutboxRepo } from "../../ports/store/outbox.ts"
import { Secrets } from "../../ports/secrets.ts"
import type { EventId, Millis } from "../shared/brands.ts"
import type { Application } from "./model.ts"

/** The `data` of a `service.*` event. */
/** The `data` of a `service.*` event. */
export const serviceEventData = (application: Application, extra: Record<string, unknown> = {}) => ({
  service_id: application.id,
  application_id: application.id,
  external_id: application.externalId,
  status: application.status,
  ...extra,
})

export const serviceEvent = (application: Application, event: string, now: Millis, extra?: Record<string, unknown>) =>
  Effect.gen(function* () {
    const id = (yield* (yield* Secrets).uuid) as EventId
    yield* (yield* OutboxRepo).append([{
      id,
      event,
      data: serviceEventData(application, extra),
      applicationId: application.id,
      accountId: application.accountId,
      externalId: application.externalId,
      createdAt: now,
    }])
  })
